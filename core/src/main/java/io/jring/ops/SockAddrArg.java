package io.jring.ops;

import io.jring.Errno;
import io.jring.core.Request;
import io.jring.sys.Buffers;
import io.jring.sys.SockAddrs;
import io.jring.sys.SysCallContext;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * The socket address of a BIND or CONNECT, copied at prep as Linux's move_addr_to_kernel
 * does (io_bind_prep, io_connect_prep): {@code addr} points to it and the SQE's
 * {@code off} (the kernel's addr2) holds its length. A length below 0 or above
 * {@code sizeof(struct sockaddr_storage)} is -EINVAL, 0 copies nothing (the syscall then
 * refuses the empty address), and memory the kernel could not read is -EFAULT (jring: a
 * heap segment -EINVAL). jring's own form, an {@link InetSocketAddress} as the SQE's
 * argument, is encoded here instead. The copy (a byte array in {@code req.arg}, its length
 * in {@code req.off}) is what the op uses, so the caller's memory may change after submit.
 * These ops are not on a hot path: the copy is one small array per request.
 */
final class SockAddrArg {
    private SockAddrArg() {}

    /** Copies the address into the request; 0 or -errno. */
    static int copyIn(Request req) {
        if (req.arg instanceof InetSocketAddress address) {
            return encode(req, address);
        }
        long lenField = req.off != 0 ? req.off : req.addr2;
        int len = (int) lenField;   // Linux reads an int from the 64-bit addr2
        if (len < 0 || len > SockAddrs.STORAGE_SIZE) {
            return -Errno.EINVAL;
        }
        byte[] copy = new byte[len];
        if (len > 0) {
            int bad = Buffers.check(req.addr, len);
            if (bad != 0) {
                return bad;
            }
            MemorySegment.copy(req.addr, JAVA_BYTE, 0, copy, 0, len);
        }
        req.arg = copy;
        req.off = len;
        return 0;
    }

    private static int encode(Request req, InetSocketAddress address) {
        if (address.isUnresolved()) {
            return -Errno.EINVAL;
        }
        byte[] raw = new byte[SockAddrs.SOCKADDR_IN6_SIZE];
        int len = SockAddrs.encode(address, MemorySegment.ofArray(raw));
        if (len < 0) {
            return len;
        }
        req.arg = java.util.Arrays.copyOf(raw, len);
        req.off = len;
        return 0;
    }

    /** The copied address, in {@code sc}'s sockaddr area for the syscall; returns its length. */
    static int load(Request req, SysCallContext sc) {
        byte[] copy = (byte[]) req.arg;
        MemorySegment.copy(copy, 0, sc.sockaddr(), JAVA_BYTE, 0, copy.length);
        return copy.length;
    }
}

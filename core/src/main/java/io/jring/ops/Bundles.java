package io.jring.ops;

import io.jring.core.Request;
import io.jring.sys.BundleSocketCalls;
import io.jring.sys.SysCallContext;

import java.lang.foreign.MemorySegment;

/** The iovec memory of a bundle's recvmsg or sendmsg (the buffers plus the msghdr after them). */
final class Bundles {
    private Bundles() {}

    /** Room for {@code count} iovecs and the msghdr: the syscall scratch's, or the ring's larger array. */
    static MemorySegment iovecs(Request req, SysCallContext sc, int count, boolean nonBlocking) {
        int slots = count + BundleSocketCalls.MSGHDR_SLOTS;
        if (slots <= SysCallContext.IOVEC_CAPACITY) {
            return sc.iovecs();
        }
        return req.ring.resources().largeIovecs(slots, nonBlocking && !req.inWorker());
    }
}

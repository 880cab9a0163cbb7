package io.jring.kernel;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import io.jring.Cancel;
import io.jring.Opcode;
import io.jring.Timeout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A flyweight over one slot of the kernel's SQE array ({@code struct io_uring_sqe}, 64
 * bytes), filled as liburing's {@code io_uring_prep_*} helpers fill it, behind jring's
 * method names ({@link SqeWriter}). Timeouts get their {@code __kernel_timespec} from a
 * per-slot scratch area (the kernel copies it while submitting); iovec arrays come from the
 * ring's arena and live as long as the ring.
 */
public final class KernelSqe implements SqeWriter {
    /** {@code IORING_POLL_ADD_MULTI}, in {@code len} of a POLL_ADD. */
    static final int POLL_ADD_MULTI = 1;

    private static final long OPCODE = 0;
    private static final long FLAGS = 1;
    private static final long FD = 4;
    private static final long OFF = 8;
    private static final long ADDR = 16;
    private static final long LEN = 24;
    private static final long OP_FLAGS = 28;
    private static final long USER_DATA = 32;
    private static final long BUF_GROUP = 40;

    private static final long ADDR3 = 48;

    private final MemorySegment slot;
    private final MemorySegment timespec;
    private final Arena arena;
    private final int ringFd;

    KernelSqe(MemorySegment slot, MemorySegment timespec, Arena arena, int ringFd) {
        this.slot = slot;
        this.timespec = timespec;
        this.arena = arena;
        this.ringFd = ringFd;
    }

    private static long address(MemorySegment buf) {
        return buf == null ? 0 : buf.address();
    }

    private static int lengthOf(MemorySegment buf) {
        return buf == null ? 0 : (int) Math.min(Integer.MAX_VALUE, buf.byteSize());
    }

    private KernelSqe rw(int op, int fd, long addr, int len, long off) {
        slot.fill((byte) 0);
        slot.set(JAVA_BYTE, OPCODE, (byte) op);
        slot.set(JAVA_INT, FD, fd);
        slot.set(JAVA_LONG, OFF, off);
        slot.set(JAVA_LONG, ADDR, addr);
        slot.set(JAVA_INT, LEN, len);
        return this;
    }

    private long iovecs(MemorySegment[] bufs) {
        if (bufs == null || bufs.length == 0) {
            return 0;
        }
        MemorySegment iov = arena.allocate(16L * bufs.length, 8);
        for (int i = 0; i < bufs.length; i++) {
            iov.set(JAVA_LONG, 16L * i, address(bufs[i]));
            iov.set(JAVA_LONG, 16L * i + 8, bufs[i] == null ? 0 : bufs[i].byteSize());
        }
        return iov.address();
    }

    private long timespec(long nanos) {
        timespec.set(JAVA_LONG, 0, nanos / 1_000_000_000L);
        timespec.set(JAVA_LONG, 8, nanos % 1_000_000_000L);
        return timespec.address();
    }

    @Override
    public KernelSqe prepNop() {
        return rw(Opcode.NOP, -1, 0, 0, 0);
    }

    @Override
    public KernelSqe prepRead(int fd, MemorySegment buf, long offset) {
        return rw(Opcode.READ, fd, address(buf), lengthOf(buf), offset);
    }

    @Override
    public KernelSqe prepWrite(int fd, MemorySegment buf, long offset) {
        return rw(Opcode.WRITE, fd, address(buf), lengthOf(buf), offset);
    }

    @Override
    public KernelSqe prepReadv(int fd, MemorySegment[] bufs, long offset) {
        return rw(Opcode.READV, fd, iovecs(bufs), bufs == null ? 0 : bufs.length, offset);
    }

    @Override
    public KernelSqe prepWritev(int fd, MemorySegment[] bufs, long offset) {
        return rw(Opcode.WRITEV, fd, iovecs(bufs), bufs == null ? 0 : bufs.length, offset);
    }

    public KernelSqe prepReadFixed(int fd, MemorySegment buf, long offset, int bufIndex) {
        rw(Opcode.READ_FIXED, fd, address(buf), lengthOf(buf), offset);
        slot.set(JAVA_SHORT, BUF_GROUP, (short) bufIndex);
        return this;
    }

    public KernelSqe prepWriteFixed(int fd, MemorySegment buf, long offset, int bufIndex) {
        rw(Opcode.WRITE_FIXED, fd, address(buf), lengthOf(buf), offset);
        slot.set(JAVA_SHORT, BUF_GROUP, (short) bufIndex);
        return this;
    }

    @Override
    public KernelSqe prepFsync(int fd, int fsyncFlags) {
        rw(Opcode.FSYNC, fd, 0, 0, 0);
        slot.set(JAVA_INT, OP_FLAGS, fsyncFlags);
        return this;
    }

    @Override
    public KernelSqe prepClose(int fd) {
        return rw(Opcode.CLOSE, fd, 0, 0, 0);
    }

    @Override
    public KernelSqe prepPollAdd(int fd, int pollMask) {
        rw(Opcode.POLL_ADD, fd, 0, 0, 0);
        slot.set(JAVA_INT, OP_FLAGS, pollMask);
        return this;
    }

    @Override
    public KernelSqe prepPollMultishot(int fd, int pollMask) {
        prepPollAdd(fd, pollMask);
        slot.set(JAVA_INT, LEN, POLL_ADD_MULTI);
        return this;
    }

    @Override
    public KernelSqe prepPollRemove(long targetUserData) {
        return rw(Opcode.POLL_REMOVE, -1, targetUserData, 0, 0);
    }

    @Override
    public KernelSqe prepTimeout(long nanos, int count, int timeoutFlags) {
        rw(Opcode.TIMEOUT, -1, timespec(nanos), 1, count);
        slot.set(JAVA_INT, OP_FLAGS, timeoutFlags);
        return this;
    }

    @Override
    public KernelSqe prepTimeoutRemove(long targetUserData) {
        return rw(Opcode.TIMEOUT_REMOVE, -1, targetUserData, 0, 0);
    }

    @Override
    public KernelSqe prepTimeoutUpdate(long targetUserData, long nanos, int timeoutFlags) {
        // liburing's io_uring_prep_timeout_update: target in addr, the timespec in addr2 (= off).
        rw(Opcode.TIMEOUT_REMOVE, -1, targetUserData, 0, timespec(nanos));
        slot.set(JAVA_INT, OP_FLAGS, timeoutFlags | Timeout.UPDATE);
        return this;
    }

    @Override
    public KernelSqe prepLinkTimeout(long nanos, int timeoutFlags) {
        rw(Opcode.LINK_TIMEOUT, -1, timespec(nanos), 1, 0);
        slot.set(JAVA_INT, OP_FLAGS, timeoutFlags);
        return this;
    }

    @Override
    public KernelSqe prepCancel(long targetUserData, int cancelFlags) {
        rw(Opcode.ASYNC_CANCEL, -1, targetUserData, 0, 0);
        slot.set(JAVA_INT, OP_FLAGS, cancelFlags);
        return this;
    }

    @Override
    public KernelSqe prepCancelFd(int fd, int cancelFlags) {
        rw(Opcode.ASYNC_CANCEL, fd, 0, 0, 0);
        slot.set(JAVA_INT, OP_FLAGS, cancelFlags | Cancel.FD);
        return this;
    }

    @Override
    public KernelSqe prepRecv(int fd, MemorySegment buf, int msgFlags) {
        rw(Opcode.RECV, fd, address(buf), lengthOf(buf), 0);
        slot.set(JAVA_INT, OP_FLAGS, msgFlags);
        return this;
    }

    @Override
    public KernelSqe prepSend(int fd, MemorySegment buf, int msgFlags) {
        rw(Opcode.SEND, fd, address(buf), lengthOf(buf), 0);
        slot.set(JAVA_INT, OP_FLAGS, msgFlags);
        return this;
    }

    @Override
    public KernelSqe prepOpenat(int dirfd, String path, int openFlags, int mode) {
        rw(Opcode.OPENAT, dirfd, path == null ? 0 : arena.allocateFrom(path).address(), mode, 0);
        slot.set(JAVA_INT, OP_FLAGS, openFlags);
        return this;
    }

    @Override
    public KernelSqe prepMsgRingSelf(int len, long data, int msgFlags) {
        return prepMsgRingToDescriptor(ringFd, len, data, msgFlags);
    }

    @Override
    public KernelSqe prepMsgRingToDescriptor(int fd, int len, long data, int msgFlags) {
        rw(Opcode.MSG_RING, fd, 0, len, data);   // addr 0: IORING_MSG_DATA
        slot.set(JAVA_INT, OP_FLAGS, msgFlags);
        return this;
    }

    @Override
    public KernelSqe msgRingCommand(int cmd) {
        slot.set(JAVA_LONG, ADDR, cmd);
        return this;
    }

    @Override
    public KernelSqe addr3(long addr3) {
        slot.set(JAVA_LONG, ADDR3, addr3);
        return this;
    }

    @Override
    public KernelSqe prepSocket(int domain, int type, int protocol) {
        return rw(Opcode.SOCKET, domain, 0, protocol, type);
    }

    @Override
    public KernelSqe prepShutdown(int fd, int how) {
        return rw(Opcode.SHUTDOWN, fd, 0, how, 0);
    }

    @Override
    public KernelSqe prepAccept(int listenFd, int acceptFlags) {
        rw(Opcode.ACCEPT, listenFd, 0, 0, 0);
        slot.set(JAVA_INT, OP_FLAGS, acceptFlags);
        return this;
    }

    public KernelSqe prepMultishotAccept(int listenFd, int acceptFlags) {
        prepAccept(listenFd, acceptFlags);
        slot.set(JAVA_SHORT, 2, (short) 1);
        return this;
    }

    @Override
    public KernelSqe prepProvideBuffers(MemorySegment region, int bufLen, int count, int groupId, int firstBid) {
        rw(Opcode.PROVIDE_BUFFERS, count, address(region), bufLen, firstBid);
        slot.set(JAVA_SHORT, BUF_GROUP, (short) groupId);
        return this;
    }

    @Override
    public KernelSqe prepRemoveBuffers(int count, int groupId) {
        rw(Opcode.REMOVE_BUFFERS, count, 0, 0, 0);
        slot.set(JAVA_SHORT, BUF_GROUP, (short) groupId);
        return this;
    }

    @Override
    public KernelSqe userData(long userData) {
        slot.set(JAVA_LONG, USER_DATA, userData);
        return this;
    }

    @Override
    public KernelSqe flags(int sqeFlags) {
        slot.set(JAVA_BYTE, FLAGS, (byte) sqeFlags);
        return this;
    }

    @Override
    public KernelSqe bufferGroup(int groupId) {
        slot.set(JAVA_SHORT, BUF_GROUP, (short) groupId);
        return this;
    }

    @Override
    public KernelSqe len(int len) {
        slot.set(JAVA_INT, LEN, len);
        return this;
    }

    @Override
    public KernelSqe opcode(int opcode) {
        slot.set(JAVA_BYTE, OPCODE, (byte) opcode);
        return this;
    }

    @Override
    public KernelSqe fd(int fd) {
        slot.set(JAVA_INT, FD, fd);
        return this;
    }

    @Override
    public KernelSqe off(long off) {
        slot.set(JAVA_LONG, OFF, off);
        return this;
    }

    @Override
    public KernelSqe addr(MemorySegment addr) {
        slot.set(JAVA_LONG, ADDR, address(addr));
        return this;
    }

    @Override
    public KernelSqe opFlags(int opFlags) {
        slot.set(JAVA_INT, OP_FLAGS, opFlags);
        return this;
    }

    @Override
    public KernelSqe ioprio(int ioprio) {
        slot.set(JAVA_SHORT, 2, (short) ioprio);
        return this;
    }

    @Override
    public KernelSqe bufIndex(int bufIndex) {
        slot.set(JAVA_SHORT, BUF_GROUP, (short) bufIndex);
        return this;
    }

    @Override
    public KernelSqe fileIndex(int fileIndex) {
        slot.set(JAVA_INT, 44, fileIndex);
        return this;
    }

    // issue 23: socket setup, splice and tee, as liburing's io_uring_prep_* fill the SQE

    /** splice_fd_in / file_index (one union at byte 44). */
    private static final long SPLICE_FD_IN = 44;

    @Override
    public KernelSqe prepBind(int fd, MemorySegment addr, int addrlen) {
        return rw(Opcode.BIND, fd, address(addr), 0, addrlen);   // addrlen in addr2 (= off)
    }

    @Override
    public KernelSqe prepListen(int fd, int backlog) {
        return rw(Opcode.LISTEN, fd, 0, backlog, 0);
    }

    @Override
    public KernelSqe prepConnect(int fd, MemorySegment addr, int addrlen) {
        return rw(Opcode.CONNECT, fd, address(addr), 0, addrlen);
    }

    @Override
    public KernelSqe prepSplice(int fdIn, long offIn, int fdOut, long offOut, int nbytes, int spliceFlags) {
        rw(Opcode.SPLICE, fdOut, offIn, nbytes, offOut);   // splice_off_in shares addr's place
        slot.set(JAVA_INT, SPLICE_FD_IN, fdIn);
        slot.set(JAVA_INT, OP_FLAGS, spliceFlags);
        return this;
    }

    @Override
    public KernelSqe prepTee(int fdIn, int fdOut, int nbytes, int spliceFlags) {
        rw(Opcode.TEE, fdOut, 0, nbytes, 0);
        slot.set(JAVA_INT, SPLICE_FD_IN, fdIn);
        slot.set(JAVA_INT, OP_FLAGS, spliceFlags);
        return this;
    }

    @Override
    public KernelSqe prepFtruncate(int fd, long length) {
        return rw(Opcode.FTRUNCATE, fd, 0, 0, length);
    }

    @Override
    public KernelSqe addr2(long addr2) {
        slot.set(JAVA_LONG, OFF, addr2);
        return this;
    }
}

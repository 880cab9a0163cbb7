package io.jring.kernel;

import io.jring.Cqe;
import io.jring.IoUring;
import io.jring.Sqe;
import io.jring.core.ApiAccess;
import io.jring.iowq.IoWq;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

/** A jring {@link IoUring} as a {@link RingDriver}; its SQEs as {@link SqeWriter}s. */
final class JringRing implements RingDriver {
    private final IoUring ring;

    JringRing(int setupFlags) {
        ring = IoUring.builder().entries(64).flags(setupFlags).build();
        bufRings = new JringBufRings(ring);
    }

    @Override
    public String name() {
        return "jring";
    }

    @Override
    public SqeWriter nextSqe() {
        Sqe sqe = ring.getSqe();
        return sqe == null ? null : new Writer(sqe, ring);
    }

    @Override
    public int submit() {
        return ring.submit();
    }

    @Override
    public void settle() {
        IoWq wq = ApiAccess.get().contextOf(ring).ioWq();
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (wq.queuedCount() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    @Override
    public CqeSpec waitCqe(Duration timeout) {
        Cqe c = ring.waitCqe(timeout);
        if (c == null) {
            return null;
        }
        CqeSpec out = new CqeSpec(c.userData(), c.res(), c.flags());
        ring.cqeSeen(c);
        return out;
    }

    @Override
    public void registerFiles(int[] fds) {
        ring.registerFiles(fds);
    }

    private final BufRings bufRings;

    @Override
    public BufRings bufRings() {
        return bufRings;
    }

    @Override
    public void close() {
        ring.close();
    }

    /** jring's {@link Sqe} behind the {@link SqeWriter} interface: every call delegates. */
    record Writer(Sqe sqe, IoUring ring) implements SqeWriter {
        @Override
        public SqeWriter prepNop() {
            sqe.prepNop();
            return this;
        }

        @Override
        public SqeWriter prepRead(int fd, MemorySegment buf, long offset) {
            sqe.prepRead(fd, buf, offset);
            return this;
        }

        @Override
        public SqeWriter prepWrite(int fd, MemorySegment buf, long offset) {
            sqe.prepWrite(fd, buf, offset);
            return this;
        }

        @Override
        public SqeWriter prepReadv(int fd, MemorySegment[] bufs, long offset) {
            sqe.prepReadv(fd, bufs, offset);
            return this;
        }

        @Override
        public SqeWriter prepWritev(int fd, MemorySegment[] bufs, long offset) {
            sqe.prepWritev(fd, bufs, offset);
            return this;
        }

        @Override
        public SqeWriter prepFsync(int fd, int fsyncFlags) {
            sqe.prepFsync(fd, fsyncFlags);
            return this;
        }

        @Override
        public SqeWriter prepClose(int fd) {
            sqe.prepClose(fd);
            return this;
        }

        @Override
        public SqeWriter prepPollAdd(int fd, int pollMask) {
            sqe.prepPollAdd(fd, pollMask);
            return this;
        }

        @Override
        public SqeWriter prepPollMultishot(int fd, int pollMask) {
            sqe.prepPollMultishot(fd, pollMask);
            return this;
        }

        @Override
        public SqeWriter prepPollRemove(long targetUserData) {
            sqe.prepPollRemove(targetUserData);
            return this;
        }

        @Override
        public SqeWriter prepTimeout(long nanos, int count, int timeoutFlags) {
            sqe.prepTimeout(nanos, count, timeoutFlags);
            return this;
        }

        @Override
        public SqeWriter prepTimeoutRemove(long targetUserData) {
            sqe.prepTimeoutRemove(targetUserData);
            return this;
        }

        @Override
        public SqeWriter prepTimeoutUpdate(long targetUserData, long nanos, int timeoutFlags) {
            sqe.prepTimeoutUpdate(targetUserData, nanos, timeoutFlags);
            return this;
        }

        @Override
        public SqeWriter prepLinkTimeout(long nanos, int timeoutFlags) {
            sqe.prepLinkTimeout(nanos, timeoutFlags);
            return this;
        }

        @Override
        public SqeWriter prepCancel(long targetUserData, int cancelFlags) {
            sqe.prepCancel(targetUserData, cancelFlags);
            return this;
        }

        @Override
        public SqeWriter prepCancelFd(int fd, int cancelFlags) {
            sqe.prepCancelFd(fd, cancelFlags);
            return this;
        }

        @Override
        public SqeWriter prepRecv(int fd, MemorySegment buf, int msgFlags) {
            sqe.prepRecv(fd, buf, msgFlags);
            return this;
        }

        @Override
        public SqeWriter prepSend(int fd, MemorySegment buf, int msgFlags) {
            sqe.prepSend(fd, buf, msgFlags);
            return this;
        }

        @Override
        public SqeWriter prepProvideBuffers(MemorySegment region, int bufLen, int count, int groupId, int firstBid) {
            sqe.prepProvideBuffers(region, bufLen, count, groupId, firstBid);
            return this;
        }

        @Override
        public SqeWriter prepRemoveBuffers(int count, int groupId) {
            sqe.prepRemoveBuffers(count, groupId);
            return this;
        }

        @Override
        public SqeWriter userData(long userData) {
            sqe.userData(userData);
            return this;
        }

        @Override
        public SqeWriter flags(int sqeFlags) {
            sqe.flags(sqeFlags);
            return this;
        }

        @Override
        public SqeWriter bufferGroup(int groupId) {
            sqe.bufferGroup(groupId);
            return this;
        }

        @Override
        public SqeWriter len(int len) {
            sqe.len(len);
            return this;
        }

        @Override
        public SqeWriter opcode(int opcode) {
            sqe.opcode(opcode);
            return this;
        }

        @Override
        public SqeWriter fd(int fd) {
            sqe.fd(fd);
            return this;
        }

        @Override
        public SqeWriter off(long off) {
            sqe.off(off);
            return this;
        }

        @Override
        public SqeWriter addr(MemorySegment addr) {
            sqe.addr(addr);
            return this;
        }

        @Override
        public SqeWriter opFlags(int opFlags) {
            sqe.opFlags(opFlags);
            return this;
        }

        @Override
        public SqeWriter ioprio(int ioprio) {
            sqe.ioprio(ioprio);
            return this;
        }

        @Override
        public SqeWriter bufIndex(int bufIndex) {
            sqe.bufIndex(bufIndex);
            return this;
        }

        @Override
        public SqeWriter fileIndex(int fileIndex) {
            sqe.fileIndex(fileIndex);
            return this;
        }

        @Override
        public SqeWriter addr3(long addr3) {
            sqe.addr3(addr3);
            return this;
        }

        @Override
        public SqeWriter prepOpenat(int dirfd, String path, int openFlags, int mode) {
            sqe.prepOpenat(dirfd, path, openFlags, mode);
            return this;
        }

        @Override
        public SqeWriter prepSocket(int domain, int type, int protocol) {
            sqe.prepSocket(domain, type, protocol);
            return this;
        }

        @Override
        public SqeWriter prepMsgRingSelf(int len, long data, int msgFlags) {
            sqe.prepMsgRing(ring, len, data, msgFlags);
            return this;
        }

        /** The descriptor number as the target object: it is no IoUring. */
        @Override
        public SqeWriter prepMsgRingToDescriptor(int fd, int len, long data, int msgFlags) {
            sqe.prepMsgRing(null, len, data, msgFlags).fd(fd).arg(fd < 0 ? null : Integer.valueOf(fd));
            return this;
        }

        @Override
        public SqeWriter msgRingCommand(int cmd) {
            sqe.addr2(cmd);
            return this;
        }

        // issue 23: socket setup, splice and tee

        @Override
        public SqeWriter prepBind(int fd, MemorySegment addr, int addrlen) {
            sqe.prepBind(fd, addr, addrlen);
            return this;
        }

        @Override
        public SqeWriter prepListen(int fd, int backlog) {
            sqe.prepListen(fd, backlog);
            return this;
        }

        @Override
        public SqeWriter prepConnect(int fd, MemorySegment addr, int addrlen) {
            sqe.prepConnect(fd, addr, addrlen);
            return this;
        }

        @Override
        public SqeWriter prepAccept(int fd, int acceptFlags) {
            sqe.prepAccept(fd, acceptFlags);
            return this;
        }

        @Override
        public SqeWriter prepShutdown(int fd, int how) {
            sqe.prepShutdown(fd, how);
            return this;
        }

        @Override
        public SqeWriter prepSplice(int fdIn, long offIn, int fdOut, long offOut, int nbytes, int spliceFlags) {
            sqe.prepSplice(fdIn, offIn, fdOut, offOut, nbytes, spliceFlags);
            return this;
        }

        @Override
        public SqeWriter prepTee(int fdIn, int fdOut, int nbytes, int spliceFlags) {
            sqe.prepTee(fdIn, fdOut, nbytes, spliceFlags);
            return this;
        }

        @Override
        public SqeWriter prepFtruncate(int fd, long length) {
            sqe.prepFtruncate(fd, length);
            return this;
        }

        @Override
        public SqeWriter addr2(long addr2) {
            sqe.addr2(addr2);
            return this;
        }
    }
}

package io.jring.kernel;

import io.jring.Cqe;
import io.jring.IoUring;
import io.jring.MsgRing;
import io.jring.Opcode;
import io.jring.Sqe;
import java.time.Duration;

/**
 * The ring a {@link RandomProgram} runs on: the kernel's ({@link KernelRing}) or jring's, as a
 * {@link RingDriver} that can also aim a MSG_RING at itself (the kernel's SQE names the ring
 * by its descriptor, jring's by its {@link IoUring}).
 */
interface ProgramRing extends RingDriver {
    /** Fills {@code sqe} as a MSG_RING (IORING_MSG_DATA) to this ring. */
    void prepMsgRingToSelf(SqeWriter sqe, int len, long data, int msgFlags, int cqeFlags);

    static ProgramRing open(boolean kernel, int setupFlags) {
        return kernel ? new Kernel(KernelRing.open(64, setupFlags)) : new Jring(IoUring.builder().entries(64)
                .flags(setupFlags).build());
    }

    /** The kernel's ring; its SQEs are {@link KernelSqe}s. */
    record Kernel(KernelRing ring) implements ProgramRing {
        @Override
        public String name() {
            return "kernel";
        }

        @Override
        public SqeWriter nextSqe() {
            return ring.getSqe();
        }

        @Override
        public int submit() {
            return ring.submit();
        }

        @Override
        public CqeSpec waitCqe(Duration timeout) {
            KernelRing.KernelCqe c = ring.waitCqe(timeout);
            if (c == null) {
                return null;
            }
            ring.cqeSeen();
            return new CqeSpec(c.userData(), c.res(), c.flags());
        }

        @Override
        public void registerFiles(int[] fds) {
            ring.registerFiles(fds);
        }

        @Override
        public void prepMsgRingToSelf(SqeWriter sqe, int len, long data, int msgFlags, int cqeFlags) {
            // liburing's io_uring_prep_msg_ring(_cqe_flags): the command (IORING_MSG_DATA = 0) in addr.
            ((KernelSqe) sqe.prepNop()).opcode(Opcode.MSG_RING).fd(ring.fd()).len(len).off(data).opFlags(msgFlags)
                    .fileIndex(cqeFlags);
        }

        @Override
        public void close() {
            ring.close();
        }
    }

    /** jring's ring; its SQEs are {@link JringRing.Writer}s. */
    record Jring(IoUring ring) implements ProgramRing {
        @Override
        public String name() {
            return "jring";
        }

        @Override
        public SqeWriter nextSqe() {
            Sqe sqe = ring.getSqe();
            return sqe == null ? null : new JringRing.Writer(sqe, ring);
        }

        @Override
        public int submit() {
            return ring.submit();
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

        @Override
        public void prepMsgRingToSelf(SqeWriter sqe, int len, long data, int msgFlags, int cqeFlags) {
            Sqe s = ((JringRing.Writer) sqe).sqe();
            if ((msgFlags & MsgRing.FLAGS_PASS) != 0) {
                s.prepMsgRingCqeFlags(ring, len, data, msgFlags, cqeFlags);
            } else {
                s.prepMsgRing(ring, len, data, msgFlags);
            }
        }

        @Override
        public void close() {
            ring.close();
        }
    }
}

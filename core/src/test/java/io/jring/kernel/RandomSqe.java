package io.jring.kernel;

import io.jring.SqeFlags;
import io.jring.Timeout;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * One SQE of a {@link RandomProgram}, as data, with the descriptor names of {@link SqeSpec}
 * ({@code p0.r}, {@code s0.a}, {@code file}, {@code bad}, {@code #3}) plus {@code c0}, a
 * descriptor made only to be closed by a CLOSE. Written into a kernel or a jring SQE through
 * {@link SqeWriter}; MSG_RING goes to the ring the program runs on.
 *
 * <p>Immutable except {@link #tags}, which {@link RandomPrograms} fills while it builds the
 * program (before anyone else sees it).
 */
final class RandomSqe {
    /** The operations of the random vocabulary. */
    enum Op {
        NOP, READ, WRITE, READV, WRITEV, READ_SELECT, READ_NULL, FSYNC, POLL_ADD, POLL_MULTISHOT, POLL_REMOVE,
        TIMEOUT, TIMEOUT_REMOVE, LINK_TIMEOUT, CANCEL, CANCEL_FD, PROVIDE_BUFFERS, REMOVE_BUFFERS, RECV,
        RECV_SELECT, SEND, CLOSE, MSG_RING, BAD_OPCODE
    }

    /** What an SQE needs from the run it is written in. */
    interface Target {
        /** The descriptor behind a name of this run. */
        int fd(String name);

        ScenarioEnv env();

        /** Fills {@code sqe} as a MSG_RING to the ring the run uses. */
        void prepMsgRingToSelf(SqeWriter sqe, int len, long data, int msgFlags, int cqeFlags);
    }

    static final int MSG_WAITALL = 0x100;
    static final int MSG_DONTWAIT = 0x40;
    static final int MSG_PEEK = 0x2;
    static final int MSG_NOSIGNAL = 0x4000;

    final Op op;
    final String fd;
    final int len;
    final long off;
    final int[] lens;
    /** Poll mask, msg flags, cancel flags, timeout flags or MSG_RING flags. */
    final int arg;
    final long nanos;
    final int count;
    final long target;
    final int group;
    final int bid;
    final int cqeFlags;
    final int sqeFlags;
    final long ud;
    /** The switched patterns this SQE takes part in. */
    final Set<FuzzFeature> tags = EnumSet.noneOf(FuzzFeature.class);

    private RandomSqe(Builder b) {
        this.op = b.op;
        this.fd = b.fd;
        this.len = b.len;
        this.off = b.off;
        this.lens = b.lens;
        this.arg = b.arg;
        this.nanos = b.nanos;
        this.count = b.count;
        this.target = b.target;
        this.group = b.group;
        this.bid = b.bid;
        this.cqeFlags = b.cqeFlags;
        this.sqeFlags = b.sqeFlags;
        this.ud = b.ud;
    }

    static Builder of(Op op, long ud) {
        return new Builder(op, ud);
    }

    boolean links() {
        return (sqeFlags & (SqeFlags.IO_LINK | SqeFlags.IO_HARDLINK)) != 0;
    }

    boolean has(int sqeFlag) {
        return (sqeFlags & sqeFlag) != 0;
    }

    /** Fills {@code sqe} (just reset by its prep call) with this SQE, resolving names in {@code run}. */
    void writeTo(SqeWriter sqe, Target run) {
        ScenarioEnv env = run.env();
        switch (op) {
            case NOP -> sqe.prepNop();
            case READ -> sqe.prepRead(run.fd(fd), env.buffer(len), off);
            case READ_NULL -> sqe.prepRead(run.fd(fd), null, off).len(len);
            case WRITE -> sqe.prepWrite(run.fd(fd), env.bytes("w".repeat(len)), off);
            case READV -> sqe.prepReadv(run.fd(fd), env.buffers(lens), off);
            case WRITEV -> sqe.prepWritev(run.fd(fd), env.buffers(lens), off);
            case READ_SELECT -> sqe.prepRead(run.fd(fd), null, off).bufferGroup(group).len(len);
            case RECV -> sqe.prepRecv(run.fd(fd), env.buffer(len), arg);
            case RECV_SELECT -> sqe.prepRecv(run.fd(fd), null, arg).bufferGroup(group).len(len);
            case SEND -> sqe.prepSend(run.fd(fd), env.bytes("s".repeat(len)), arg);
            case FSYNC -> sqe.prepFsync(run.fd(fd), 0);
            case POLL_ADD -> sqe.prepPollAdd(run.fd(fd), arg);
            case POLL_MULTISHOT -> sqe.prepPollMultishot(run.fd(fd), arg);
            case POLL_REMOVE -> sqe.prepPollRemove(target);
            case TIMEOUT -> sqe.prepTimeout(deadline(), count, arg);
            case TIMEOUT_REMOVE -> sqe.prepTimeoutRemove(target);
            case LINK_TIMEOUT -> sqe.prepLinkTimeout(deadline(), arg);
            case CANCEL -> sqe.prepCancel(target, arg);
            case CANCEL_FD -> sqe.prepCancelFd(run.fd(fd), arg);
            case PROVIDE_BUFFERS -> sqe.prepProvideBuffers(env.region((long) len * count), len, count, group, bid);
            case REMOVE_BUFFERS -> sqe.prepRemoveBuffers(count, group);
            case CLOSE -> sqe.prepClose(run.fd(fd));
            case MSG_RING -> run.prepMsgRingToSelf(sqe, len, target, arg, cqeFlags);
            case BAD_OPCODE -> sqe.prepNop().opcode(arg);
        }
        sqe.userData(ud).flags(sqeFlags);
    }

    private long deadline() {
        return (arg & Timeout.ABS) != 0 ? System.nanoTime() + nanos : nanos;
    }

    /** True if this SQE touches the descriptor named {@code name}. */
    boolean uses(String name) {
        return name.equals(fd);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(op == Op.BAD_OPCODE ? "OPCODE(" + arg : op == Op.READ_NULL ? "READ("
                : op + "(");
        switch (op) {
            case READ, READ_NULL -> s.append(fd).append(op == Op.READ_NULL ? ", NULL " : ", ").append(len)
                    .append(", ").append(off);
            case WRITE -> s.append(fd).append(", ").append(len).append(" bytes, ").append(off);
            case READV, WRITEV -> s.append(fd).append(", ").append(off).append(", ").append(Arrays.toString(lens));
            case READ_SELECT -> s.append(fd).append(", group ").append(group).append(", ").append(len);
            case RECV, SEND -> s.append(fd).append(", ").append(len).append(op == Op.SEND ? " bytes" : "")
                    .append(msgFlags(arg));
            case RECV_SELECT -> s.append(fd).append(", group ").append(group).append(", ").append(len)
                    .append(msgFlags(arg));
            case FSYNC, CLOSE -> s.append(fd);
            case CANCEL_FD -> s.append(fd).append(", flags 0x").append(Integer.toHexString(arg));
            case POLL_ADD, POLL_MULTISHOT -> s.append(fd).append(", 0x").append(Integer.toHexString(arg));
            case POLL_REMOVE, TIMEOUT_REMOVE -> s.append(target);
            case TIMEOUT -> s.append(ms()).append(", count ").append(count).append(timeoutFlags());
            case LINK_TIMEOUT -> s.append(ms()).append(timeoutFlags());
            case CANCEL -> s.append(target).append(", flags 0x").append(Integer.toHexString(arg));
            case PROVIDE_BUFFERS -> s.append(count).append(" x ").append(len).append(", group ").append(group)
                    .append(", bid ").append(bid);
            case REMOVE_BUFFERS -> s.append(count).append(", group ").append(group);
            case MSG_RING -> s.append("self, len ").append(len).append(", data ").append(target)
                    .append(arg != 0 ? ", flags 0x" + Integer.toHexString(arg) : "")
                    .append(cqeFlags != 0 ? ", cqe flags 0x" + Integer.toHexString(cqeFlags) : "");
            default -> { }
        }
        s.append(") ud=").append(ud);
        if (sqeFlags != 0) {
            s.append(' ').append(SqeSpec.flagNames(sqeFlags));
        }
        if (!tags.isEmpty()) {
            s.append("  <").append(FuzzFeature.names(tags)).append('>');
        }
        return s.toString();
    }

    private String ms() {
        return nanos >= RandomPrograms.NEVER ? "never" : nanos / 1_000_000 + "ms";
    }

    private String timeoutFlags() {
        return arg == 0 ? "" : (arg & Timeout.ABS) != 0 ? ", ABS" : ", flags 0x" + Integer.toHexString(arg);
    }

    private static String msgFlags(int f) {
        if (f == 0) {
            return "";
        }
        StringBuilder s = new StringBuilder();
        int rest = f;
        int[] bits = {MSG_WAITALL, MSG_DONTWAIT, MSG_PEEK, MSG_NOSIGNAL};
        String[] names = {"MSG_WAITALL", "MSG_DONTWAIT", "MSG_PEEK", "MSG_NOSIGNAL"};
        for (int i = 0; i < bits.length; i++) {
            if ((f & bits[i]) != 0) {
                s.append(s.isEmpty() ? ", " : "|").append(names[i]);
                rest &= ~bits[i];
            }
        }
        return rest == 0 ? s.toString() : s.append(s.isEmpty() ? ", 0x" : "|0x").append(Integer.toHexString(rest))
                .toString();
    }

    /** Fills a {@link RandomSqe}; {@link RandomPrograms} is its only user. */
    static final class Builder {
        private final Op op;
        private final long ud;
        private String fd;
        private int len;
        private long off;
        private int[] lens;
        private int arg;
        private long nanos;
        private int count;
        private long target;
        private int group;
        private int bid;
        private int cqeFlags;
        private int sqeFlags;

        private Builder(Op op, long ud) {
            this.op = op;
            this.ud = ud;
        }

        Builder fd(String name) {
            this.fd = name;
            return this;
        }

        Builder len(int n) {
            this.len = n;
            return this;
        }

        Builder off(long offset) {
            this.off = offset;
            return this;
        }

        Builder lens(int... pieces) {
            this.lens = pieces.clone();
            return this;
        }

        Builder arg(int value) {
            this.arg = value;
            return this;
        }

        Builder nanos(long value) {
            this.nanos = value;
            return this;
        }

        Builder count(int value) {
            this.count = value;
            return this;
        }

        Builder target(long value) {
            this.target = value;
            return this;
        }

        Builder group(int value) {
            this.group = value;
            return this;
        }

        Builder bid(int value) {
            this.bid = value;
            return this;
        }

        Builder cqeFlags(int value) {
            this.cqeFlags = value;
            return this;
        }

        Builder flags(int value) {
            this.sqeFlags = value;
            return this;
        }

        RandomSqe build() {
            return new RandomSqe(this);
        }
    }
}

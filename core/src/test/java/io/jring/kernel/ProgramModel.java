package io.jring.kernel;

import io.jring.Poll;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * What {@link RandomPrograms} knows about the program it is writing, enough to keep its
 * outcome on Linux deterministic and to keep switched patterns out: the channels (a pipe,
 * or one direction of a socket pair) with the bytes written to each and the one request
 * that reads or polls it; every SQE generated, with its batch and settle period; and the
 * hazards of cancelling a request.
 *
 * <p>A settle period ends with each {@code Quiet} step: whatever can complete by then has
 * (inline work, io-wq, wakeups, expiring timers), and the next step starts from a settled ring.
 */
final class ProgramModel {
    /** A pipe, or one direction of a socket pair: written at {@code write}, read at {@code read}. */
    static final class Channel {
        final String read;
        final String write;
        final boolean socket;
        /** The request reading or polling {@code read}; the generator gives each channel one. */
        Op consumer;
        /** Bytes written so far (in submission order). */
        int produced;
        /**
         * Of those, bytes surely written when the next SQE is issued: by the test thread, or by
         * an SQE issued inline (not chained, not ASYNC, no drain in the program).
         */
        int sure;
        /** At most this many bytes in all, so that a RECV never leaves data behind (B2). */
        int cap = Integer.MAX_VALUE;
        /** The settle period of the last write: one write per period keeps wakeups countable. */
        int lastWritePeriod = -1;
        /** Cumulative {@link #sure} bytes after each period that wrote: {period, total}. */
        final List<int[]> history = new ArrayList<>();
        /** No more writes (a RECV with MSG_DONTWAIT found the channel empty). */
        boolean sealed;
        /** Registered as a fixed file (by some index). */
        boolean registered;

        Channel(String read, String write, boolean socket) {
            this.read = read;
            this.write = write;
            this.socket = socket;
        }

        /** The first period after which at least {@code bytes} bytes had been written; MAX_VALUE if never. */
        int periodWith(int bytes) {
            for (int[] h : history) {
                if (h[1] >= bytes) {
                    return h[0];
                }
            }
            return Integer.MAX_VALUE;
        }
    }

    /** A generated SQE and what the model knows about it. */
    static final class Op {
        final RandomSqe sqe;
        final Channel channel;
        final int batch;
        final int period;
        /** Issued only after the SQE before it in its chain completes. */
        final boolean chained;
        /** Runs in io-wq on Linux (IOSQE_ASYNC, FSYNC, a buffered file write, a drain, after such a member). */
        final boolean ioWq;
        /** Reads or polls {@link #channel}'s read end. */
        final boolean consumer;
        /** The member before it in its chain (null for a chain's head). */
        final Op prev;

        Op(RandomSqe sqe, Channel channel, boolean consumer, int batch, int period, Op prev, boolean ioWq) {
            this.sqe = sqe;
            this.channel = channel;
            this.consumer = consumer;
            this.prev = prev;
            this.chained = prev != null;
            this.batch = batch;
            this.period = period;
            this.ioWq = ioWq;
        }

        RandomSqe.Op kind() {
            return sqe.op;
        }

        boolean isConsumer() {
            return consumer;
        }

        boolean isReadOrPoll() {
            return switch (sqe.op) {
                case READ, READV, READ_SELECT, RECV, RECV_SELECT, POLL_ADD, POLL_MULTISHOT -> true;
                default -> false;
            };
        }

        boolean selectsBuffer() {
            return sqe.op == RandomSqe.Op.READ_SELECT || sqe.op == RandomSqe.Op.RECV_SELECT;
        }

        boolean waitAll() {
            return (sqe.op == RandomSqe.Op.RECV || sqe.op == RandomSqe.Op.RECV_SELECT)
                    && (sqe.arg & RandomSqe.MSG_WAITALL) != 0;
        }

        boolean dontWait() {
            return (sqe.op == RandomSqe.Op.RECV || sqe.op == RandomSqe.Op.RECV_SELECT)
                    && (sqe.arg & RandomSqe.MSG_DONTWAIT) != 0;
        }

        /** Ready the moment it is armed whatever was written (OUT on a socket). */
        boolean readyAtArm() {
            return (sqe.op == RandomSqe.Op.POLL_ADD || sqe.op == RandomSqe.Op.POLL_MULTISHOT) && channel != null
                    && channel.socket && (sqe.arg & Poll.OUT) != 0;
        }

        /** Bytes that complete it: 0 if ready at arm, the length for MSG_WAITALL, else 1. */
        int bytesToComplete() {
            return readyAtArm() ? 0 : waitAll() ? sqe.len : 1;
        }
    }

    final List<Channel> channels = new ArrayList<>();
    final List<Op> ops = new ArrayList<>();
    int pipes;
    int socketPairs;
    int period;
    int batch;
    boolean drainSeen;

    Channel newPipe() {
        Channel c = new Channel("p" + pipes + ".r", "p" + pipes + ".w", false);
        pipes++;
        channels.add(c);
        return c;
    }

    /** A new socket pair: two channels, a->b first. */
    Channel newSocketPair() {
        String s = "s" + socketPairs;
        socketPairs++;
        Channel ab = new Channel(s + ".b", s + ".a", true);
        Channel ba = new Channel(s + ".a", s + ".b", true);
        channels.add(ab);
        channels.add(ba);
        return ab;
    }

    List<Channel> channels(Predicate<Channel> p) {
        return channels.stream().filter(p).toList();
    }

    /** Records a write of {@code bytes} to {@code c}; {@code sure}: see {@link Channel#sure}. */
    void written(Channel c, int bytes, boolean sure) {
        c.produced += bytes;
        c.lastWritePeriod = period;
        if (!sure || drainSeen) {
            return;
        }
        c.sure += bytes;
        if (!c.history.isEmpty() && c.history.getLast()[0] == period) {
            c.history.getLast()[1] = c.sure;
        } else {
            c.history.add(new int[] {period, c.sure});
        }
    }

    /**
     * True if {@code op} has completed by now whatever the program did since: a one-shot read
     * or poll, issued on its own, submitted and fed before the last settle. Conservative: a
     * drain anywhere makes nothing known.
     */
    boolean knownDone(Op op) {
        if (!op.isConsumer() || op.chained || drainSeen || op.period >= period
                || op.kind() == RandomSqe.Op.POLL_MULTISHOT || op.dontWait()) {
            return false;
        }
        if ((op.kind() == RandomSqe.Op.POLL_ADD) && (op.sqe.arg & (Poll.IN | Poll.OUT)) == 0) {
            return false;
        }
        return op.channel.periodWith(op.bytesToComplete()) < period;
    }

    /**
     * The switched pattern a cancel of {@code victim} would be ({@code expiry}: by an expiring
     * link timeout), {@link #FORBIDDEN} if it would race on Linux, or null if it is plain.
     */
    Object cancelHazard(Op victim, boolean expiry) {
        if (knownDone(victim)) {
            return null;
        }
        boolean sameBatch = victim.batch == batch;
        if (victim.ioWq && sameBatch) {
            return FORBIDDEN;
        }
        if (victim.selectsBuffer()) {
            return FuzzFeature.PROVIDED_BUFFER_CANCEL;
        }
        if (victim.waitAll() && victim.channel.produced > 0) {
            return FuzzFeature.PARTIAL_RECV_CANCEL;
        }
        if (victim.dontWait()) {
            return FuzzFeature.READY_AT_ARM;
        }
        if (!expiry && victim.isConsumer() && (sameBatch && (victim.readyAtArm() || victim.channel.produced > 0)
                || victim.channel.lastWritePeriod == period)) {
            return FuzzFeature.READY_AT_ARM;    // armed, or woken, in this submit
        }
        if (sameBatch && victim.kind() == RandomSqe.Op.CLOSE) {
            return FuzzFeature.CLOSE_INLINE;
        }
        if (!expiry && victim.chained && (sameBatch || mayWait(victim.prev))) {
            return FuzzFeature.LINK_ISSUE_IN_TASK_WORK;
        }
        return null;
    }

    /** True if {@code op} completes without waiting for anything (given its chain has gone). */
    boolean isImmediate(Op op) {
        return switch (op.kind()) {
            case NOP, WRITE, WRITEV, SEND, FSYNC, PROVIDE_BUFFERS, REMOVE_BUFFERS, MSG_RING, CANCEL, CANCEL_FD,
                    POLL_REMOVE, TIMEOUT_REMOVE, CLOSE, BAD_OPCODE -> true;
            case READ, READV, READ_NULL -> op.channel == null;
            default -> false;
        };
    }

    /** True if {@code op} or a member before it in its chain may still be waiting. */
    boolean mayWait(Op op) {
        for (Op o = op; o != null; o = o.prev) {
            if (!isImmediate(o) || o.period >= period) {
                return true;
            }
        }
        return false;
    }

    /** A hazard that no switch allows: the outcome on Linux would depend on timing. */
    static final Object FORBIDDEN = new Object();

    Op byUserData(long ud) {
        for (Op op : ops) {
            if (op.sqe.ud == ud) {
                return op;
            }
        }
        return null;
    }
}

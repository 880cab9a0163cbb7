package io.jring.kernel;

import static io.jring.kernel.BatchWriter.ASYNC_OK;
import static io.jring.kernel.BatchWriter.FILELESS;
import static io.jring.kernel.BatchWriter.IO_WQ;
import static io.jring.kernel.BatchWriter.MIN_BUFFER;
import static io.jring.kernel.RandomSqe.Op.CLOSE;
import static io.jring.kernel.RandomSqe.Op.FSYNC;
import static io.jring.kernel.RandomSqe.Op.MSG_RING;
import static io.jring.kernel.RandomSqe.Op.POLL_ADD;
import static io.jring.kernel.RandomSqe.Op.POLL_MULTISHOT;
import static io.jring.kernel.RandomSqe.Op.PROVIDE_BUFFERS;
import static io.jring.kernel.RandomSqe.Op.READ;
import static io.jring.kernel.RandomSqe.Op.READV;
import static io.jring.kernel.RandomSqe.Op.READ_NULL;
import static io.jring.kernel.RandomSqe.Op.READ_SELECT;
import static io.jring.kernel.RandomSqe.Op.RECV;
import static io.jring.kernel.RandomSqe.Op.RECV_SELECT;
import static io.jring.kernel.RandomSqe.Op.REMOVE_BUFFERS;
import static io.jring.kernel.RandomSqe.Op.SEND;
import static io.jring.kernel.RandomSqe.Op.TIMEOUT;
import static io.jring.kernel.RandomSqe.Op.WRITE;
import static io.jring.kernel.RandomSqe.Op.WRITEV;

import io.jring.MsgRing;
import io.jring.Poll;
import io.jring.SqeFlags;
import io.jring.kernel.ProgramModel.Channel;
import io.jring.kernel.ProgramModel.Op;
import java.util.List;

/**
 * The part of a batch's vocabulary that moves data ({@link BatchWriter} keeps the batch's
 * state and chooses flags): file reads and writes, FSYNC, the reader or poller of a channel,
 * writes to channels, provided buffers, CLOSE, MSG_RING, bad and huge descriptors. Each
 * method returns the SQE it added, or null when the rules of {@link RandomPrograms} or a
 * switched-off {@link FuzzFeature} rule it out.
 */
final class DataOps {
    private final BatchWriter bw;
    private final RandomPrograms.Writer w;
    private final ProgramModel m;

    DataOps(BatchWriter bw) {
        this.bw = bw;
        this.w = bw.w;
        this.m = bw.m;
    }

    Op fileRead() {
        String fd = bw.fd("file");
        long off = new long[] {0, 5, 32, 60, 64, 100}[w.rnd.nextInt(6)];
        if (w.chance(6) && bw.allow(FuzzFeature.PREP_VS_ISSUE)) {
            off = -2 - w.rnd.nextInt(120);
        }
        boolean vector = w.chance(25);
        RandomSqe.Op op = vector ? READV : w.chance(6) && bw.allow(FuzzFeature.PREP_VS_ISSUE) ? READ_NULL : READ;
        int len = 1 + w.rnd.nextInt(vector ? 60 : 80);
        int traits = ASYNC_OK;
        if (off >= 0 && off < RandomPrograms.FILE_SIZE && off + len > RandomPrograms.FILE_SIZE
                && !bw.allow(FuzzFeature.SHORT_FILE_READ)) {
            traits |= IO_WQ;    // jring goes on with a read that ends at EOF: no cancel may race with it
        }
        RandomSqe.Builder b = vector ? bw.sqe(op).fd(fd).off(off).lens(pieces(len))
                : bw.sqe(op).fd(fd).len(len).off(off);
        return bw.finish(b, op, null, false, traits);
    }

    int[] pieces(int total) {
        int n = 1 + w.rnd.nextInt(Math.min(3, total));
        int[] out = new int[n];
        int left = total;
        for (int i = 0; i < n - 1; i++) {
            out[i] = 1 + w.rnd.nextInt(left - (n - 1 - i));
            left -= out[i];
        }
        out[n - 1] = left;
        return out;
    }

    Op fileWrite() {
        String fd = bw.fd("file");
        int len = 1 + w.rnd.nextInt(32);
        long off = w.rnd.nextInt(RandomPrograms.FILE_SIZE - len + 1);
        if (w.chance(30)) {
            return bw.finish(bw.sqe(WRITEV).fd(fd).off(off).lens(pieces(len)), WRITEV, null, false, IO_WQ | ASYNC_OK);
        }
        return bw.finish(bw.sqe(WRITE).fd(fd).len(len).off(off), WRITE, null, false, IO_WQ | ASYNC_OK);
    }

    Op fsync() {
        return bw.finish(bw.sqe(FSYNC).fd(w.chance(85) ? bw.fd("file") : "bad"), FSYNC, null, false, IO_WQ);
    }

    Op consumer() {
        boolean socket = w.chance(50);
        boolean poll = w.chance(35);
        Channel ch = null;
        if (poll && w.on.contains(FuzzFeature.SECOND_POLL) && w.chance(25)) {
            List<Channel> watched = m.channels(c -> c.consumer != null && c.consumer.kind() == POLL_MULTISHOT);
            if (!watched.isEmpty()) {
                ch = w.pick(watched);
                socket = ch.socket;
                bw.allow(FuzzFeature.SECOND_POLL, List.of(ch.consumer));
            }
        }
        if (ch == null) {
            ch = bw.freeChannel(socket);
        }
        if (ch == null) {
            return null;
        }
        String fd = bw.fd(ch.read);
        if (poll) {
            int[] masks = socket ? new int[] {Poll.IN, Poll.IN, Poll.IN | Poll.OUT, Poll.OUT, Poll.IN | Poll.RDHUP}
                    : new int[] {Poll.IN, Poll.IN, Poll.IN | Poll.HUP, Poll.ERR};
            int mask = masks[w.rnd.nextInt(masks.length)];
            // A multishot poll armed on a ready descriptor posts a number of CQEs that depends
            // on how the arm races the next wakeup: only on an empty channel, for input.
            boolean multishot = w.chance(40) && ch.produced == 0 && (mask & Poll.OUT) == 0;
            RandomSqe.Op op = multishot ? POLL_MULTISHOT : POLL_ADD;
            // Ready at arm, its mask is what is ready then: not armed from io-wq, racing the
            // writes later in the batch.
            boolean readyAtArm = socket && (mask & Poll.OUT) != 0;
            if (readyAtArm && bw.chainAfterIoWq()) {
                return null;
            }
            return bw.finish(bw.sqe(op).fd(fd).arg(mask), op, ch, true, readyAtArm ? 0 : ASYNC_OK);
        }
        if (socket && w.chance(60)) {
            return recv(ch, fd);
        }
        if (w.chance(30)) {
            // A READ that waits holds the buffer it picked on Linux: only where data is waiting.
            if (ch.sure == 0 && !bw.allow(FuzzFeature.PROVIDED_BUFFER_CANCEL)) {
                return null;
            }
            return select(READ_SELECT, ch, fd, 0, w.chance(30) ? 0 : 1 + w.rnd.nextInt(64));
        }
        if (!socket && w.chance(20)) {
            return bw.finish(bw.sqe(READV).fd(fd).off(-1).lens(pieces(1 + w.rnd.nextInt(48))), READV, ch, true,
                    ASYNC_OK);
        }
        return bw.finish(bw.sqe(READ).fd(fd).len(1 + w.rnd.nextInt(64)).off(w.chance(80) ? -1 : 0), READ, ch, true,
                ASYNC_OK);
    }

    /** A read or recv with IOSQE_BUFFER_SELECT ({@code len} 0: the buffer's length). */
    Op select(RandomSqe.Op op, Channel ch, String fd, int msgFlags, int len) {
        int group = 1 + w.rnd.nextInt(2);
        if (fd.startsWith("#") && !bw.allow(FuzzFeature.FIXED_FILE_CHECKS)) {
            return null;
        }
        bw.selectGroup = group;
        bw.opGroup = group;
        return bw.finish(bw.sqe(op).fd(fd).group(group).len(len).off(-1).arg(msgFlags), op, ch, true, ASYNC_OK);
    }

    Op recv(Channel ch, String fd) {
        int r = w.rnd.nextInt(100);
        int flags = r < 60 ? 0 : r < 80 ? RandomSqe.MSG_WAITALL : r < 95 ? RandomSqe.MSG_DONTWAIT : RandomSqe.MSG_PEEK;
        if (flags == RandomSqe.MSG_PEEK && !bw.allow(FuzzFeature.SOCK_NONEMPTY)) {
            flags = 0;
        }
        boolean select = w.chance(30);
        if (select && flags == RandomSqe.MSG_WAITALL && !bw.allow(FuzzFeature.PROVIDED_BUFFER_CANCEL)) {
            flags = 0;  // part of the data in, Linux's recv holds its buffer while it waits for the rest
        }
        int len = flags == RandomSqe.MSG_WAITALL ? new int[] {8, 32, 100}[w.rnd.nextInt(3)] : 1 + w.rnd.nextInt(64);
        if (select && w.chance(30)) {
            len = 0;
        }
        int reads = !select ? len : len == 0 ? MIN_BUFFER : Math.min(len, MIN_BUFFER);
        int cap = Integer.MAX_VALUE;
        if (flags != RandomSqe.MSG_PEEK) {
            if (ch.produced > reads) {
                if (!bw.allow(FuzzFeature.SOCK_NONEMPTY)) {
                    return null;
                }
            } else if (!w.on.contains(FuzzFeature.SOCK_NONEMPTY) || w.chance(70)) {
                cap = reads;
            } else {
                bw.allow(FuzzFeature.SOCK_NONEMPTY);
            }
        }
        boolean seal = false;
        if (flags == RandomSqe.MSG_DONTWAIT && ch.sure < ch.produced && !bw.allow(FuzzFeature.READY_AT_ARM)) {
            return null;    // data may come while jring still handles the recv
        }
        if (flags == RandomSqe.MSG_DONTWAIT && ch.produced == 0 && !bw.allow(FuzzFeature.READY_AT_ARM)) {
            seal = true;
        }
        Op op = select ? select(RECV_SELECT, ch, fd, flags, len)
                : bw.finish(bw.sqe(RECV).fd(fd).len(len).arg(flags), RECV, ch, true, ASYNC_OK);
        if (op != null && op.channel.consumer == op) {
            ch.cap = Math.min(ch.cap, cap);
            ch.sealed |= seal;
        }
        return op;
    }

    Op producer() {
        List<Channel> open = m.channels(c -> bw.writable(c) > 0);
        if (open.isEmpty()) {
            return null;
        }
        List<Channel> fed = open.stream().filter(c -> c.consumer != null).toList();
        Channel ch = !fed.isEmpty() && w.chance(75) ? w.pick(fed) : w.pick(open);
        int bytes = 1 + w.rnd.nextInt(Math.min(100, bw.writable(ch)));
        if (bw.timedChannels.contains(ch)) {
            return null;    // the wakeup would race the link timeout's timer
        }
        String fd = bw.fd(ch.write);
        Op op;
        if (ch.socket && w.chance(70)) {
            int[] flags = {0, 0, RandomSqe.MSG_DONTWAIT, RandomSqe.MSG_NOSIGNAL};
            op = bw.finish(bw.sqe(SEND).fd(fd).len(bytes).arg(flags[w.rnd.nextInt(4)]), SEND, ch, false, ASYNC_OK);
        } else {
            op = bw.finish(bw.sqe(WRITE).fd(fd).len(bytes).off(w.chance(80) ? -1 : 0), WRITE, ch, false, ASYNC_OK);
        }
        if (op != null) {
            m.written(ch, bytes, !op.chained && !op.ioWq);
        }
        return op;
    }

    Op provide() {
        int group = 1 + w.rnd.nextInt(2);
        if (bw.asyncSelectGroups.contains(group)) {
            return null;
        }
        bw.opGroup = group;
        int len = new int[] {MIN_BUFFER, 32, 64}[w.rnd.nextInt(3)];
        Op op = bw.finish(bw.sqe(PROVIDE_BUFFERS).count(1 + w.rnd.nextInt(4)).len(len).group(group)
                .bid(w.rnd.nextInt(8)), PROVIDE_BUFFERS, null, false, FILELESS);
        if (op != null) {
            bw.bufferGroups.add(group);
        }
        return op;
    }

    Op remove() {
        int group = 1 + w.rnd.nextInt(3);
        if (bw.asyncSelectGroups.contains(group)) {
            return null;
        }
        bw.opGroup = group;
        Op op = bw.finish(bw.sqe(REMOVE_BUFFERS).count(1 + w.rnd.nextInt(6)).group(group), REMOVE_BUFFERS, null,
                false, 0);
        if (op != null) {
            bw.bufferGroups.add(group);
        }
        return op;
    }

    Op close() {
        boolean real = w.chance(80);
        Op op = bw.finish(bw.sqe(CLOSE).fd(real ? "c" + w.closables : "bad"), CLOSE, null, false, ASYNC_OK);
        if (op != null && real) {
            w.closables++;
        }
        return op;
    }

    Op msgRing() {
        int r = w.rnd.nextInt(100);
        int flags = r < 70 ? 0 : MsgRing.FLAGS_PASS;
        int cqeFlags = flags == MsgRing.FLAGS_PASS ? new int[] {0x10, 0x100, 0x8000}[w.rnd.nextInt(3)] : 0;
        if (w.chance(10) && bw.allow(FuzzFeature.PREP_VS_ISSUE)) {
            // Linux fails these at issue: an unknown flag, and CQE_SKIP on IORING_MSG_DATA.
            flags = w.chance(50) ? 4 : MsgRing.CQE_SKIP;
        }
        if (w.chance(5) && bw.allow(FuzzFeature.FIXED_FILE_CHECKS)) {
            bw.fixedFlag = SqeFlags.FIXED_FILE;
        }
        if (bw.batch.stream().anyMatch(o -> o.kind() == TIMEOUT && o.sqe.count > 0)
                && !bw.allow(FuzzFeature.TIMEOUT_COUNT_FLUSH)) {
            return null;
        }
        long data = bw.nextUd++;
        return bw.finish(bw.sqe(MSG_RING).len(w.rnd.nextInt(101)).target(data).arg(flags).cqeFlags(cqeFlags), MSG_RING,
                null, false, ASYNC_OK);
    }

    /** An operation on a descriptor no process has, or a socket operation on a pipe. */
    Op badFd() {
        RandomSqe.Op[] ops = {READ, WRITE, RECV, SEND, CLOSE};
        RandomSqe.Op op = ops[w.rnd.nextInt(ops.length)];
        String fd = "bad";
        if ((op == RECV || op == SEND) && !m.channels.isEmpty() && w.chance(50)) {
            List<Channel> pipes = m.channels(c -> !c.socket);
            if (!pipes.isEmpty()) {
                Channel c = w.pick(pipes);
                fd = op == RECV ? c.read : c.write;
            }
        }
        return bw.finish(bw.sqe(op).fd(fd).len(8).off(-1), op, null, false, 0);
    }

    /** A fixed-file index with no file behind it (a sparse slot, past the table, or no table). */
    Op badFixed() {
        int size = bw.fixedTable == null ? 0 : bw.fixedTable.size();
        int index = size > 0 && w.chance(40) ? bw.fixedTable.indexOf("-1") : size + w.rnd.nextInt(3);
        bw.fixedFlag = SqeFlags.FIXED_FILE;
        return bw.finish(bw.sqe(READ).fd("#" + index).len(8).off(-1), READ, null, false, 0);
    }

    Op hugeFd() {
        if (!bw.allow(FuzzFeature.HUGE_FD)) {
            return null;
        }
        if (w.chance(50)) {
            return bw.finish(bw.sqe(POLL_ADD).fd(RandomPrograms.HUGE_FD).arg(Poll.IN), POLL_ADD, null, false, 0);
        }
        bw.fixedFlag = SqeFlags.FIXED_FILE;
        return bw.finish(bw.sqe(READ).fd(RandomPrograms.HUGE_FIXED_INDEX).len(8).off(-1), READ, null, false, 0);
    }

    Op pollFile() {
        if (!bw.allow(FuzzFeature.POLL_REGULAR_FILE)) {
            return null;
        }
        int[] masks = {Poll.IN, Poll.OUT, Poll.ERR, Poll.IN | Poll.OUT};
        RandomSqe.Op op = w.chance(30) ? POLL_MULTISHOT : POLL_ADD;
        return bw.finish(bw.sqe(op).fd(bw.fd("file")).arg(masks[w.rnd.nextInt(4)]), op, null, false, 0);
    }
}

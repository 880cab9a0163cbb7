package io.jring.kernel;

import io.jring.SqeFlags;
import io.jring.Timeout;
import io.jring.sys.Clocks;
import io.jring.sys.SysCallContext;

/**
 * One SQE of a {@link Scenario}, as data: the operation, symbolic descriptors and buffers
 * (resolved per run by {@link ScenarioEnv}, so the kernel run and the jring run each get
 * their own pipes and files), SQE flags and user data. {@link #writeTo} fills a jring or a
 * kernel SQE through {@link SqeWriter}.
 *
 * <p>Descriptor names: {@code p0.r}/{@code p0.w} (pipe 0's ends), {@code s0.a}/{@code s0.b}
 * (socket pair 0), {@code t3.l}/{@code t3.c} (a TCP listener with 3 connections waiting, and
 * the first client), {@code file} (the scenario's temp file), {@code bad} (a number no
 * descriptor has), {@code #3} (the number 3 as it is: fixed-file index 3 with {@link #fixed()},
 * else descriptor 3; {@code #-1}, {@code #2147483647} for out-of-range numbers).
 *
 * <p>Immutable: every modifier returns a copy.
 */
public final class SqeSpec {
    enum Kind {
        NOP, READ, WRITE, READV, WRITEV, READ_SELECT, FSYNC, POLL_ADD, POLL_MULTISHOT, POLL_REMOVE, TIMEOUT,
        TIMEOUT_REMOVE, TIMEOUT_UPDATE, LINK_TIMEOUT, CANCEL, CANCEL_FD, PROVIDE_BUFFERS, REMOVE_BUFFERS, RECV, SEND, RAW_OPCODE,
        CLOSE, CLOSE_FIXED, ON_FD,
        CUSTOM, RECV_SELECT
    }

    /** A descriptor number no process has (above any RLIMIT_NOFILE): -EBADF at issue. */
    public static final int BAD_FD = 0x3fff_ffff;

    final Kind kind;
    final String fd;
    final int len;
    final String data;
    final long offset;
    final long nanos;
    final int count;
    final int opFlags;
    final long target;
    final int group;
    final int bid;
    final int[] lens;
    final int sqeFlags;
    final long userData;
    /** {@link Kind#CUSTOM}: writes the SQE (its text is in {@link #data}); null otherwise. */
    final java.util.function.BiConsumer<SqeWriter, ScenarioEnv> custom;

    private SqeSpec(Kind kind, String fd, int len, String data, long offset, long nanos, int count, int opFlags,
            long target, int group, int bid, int[] lens, int sqeFlags, long userData) {
        this(kind, fd, len, data, offset, nanos, count, opFlags, target, group, bid, lens, sqeFlags, userData, null);
    }

    private SqeSpec(Kind kind, String fd, int len, String data, long offset, long nanos, int count, int opFlags,
            long target, int group, int bid, int[] lens, int sqeFlags, long userData,
            java.util.function.BiConsumer<SqeWriter, ScenarioEnv> custom) {
        this.kind = kind;
        this.fd = fd;
        this.len = len;
        this.data = data;
        this.offset = offset;
        this.nanos = nanos;
        this.count = count;
        this.opFlags = opFlags;
        this.target = target;
        this.group = group;
        this.bid = bid;
        this.lens = lens;
        this.sqeFlags = sqeFlags;
        this.userData = userData;
        this.custom = custom;
    }

    private static SqeSpec of(Kind kind) {
        return new SqeSpec(kind, null, 0, null, 0, 0, 0, 0, 0, 0, 0, null, 0, 0);
    }

    private SqeSpec with(String fd, int len, String data, long offset) {
        return new SqeSpec(kind, fd, len, data, offset, nanos, count, opFlags, target, group, bid, lens, sqeFlags,
                userData);
    }

    private SqeSpec withArgs(long nanos, int count, int opFlags, long target, int group, int bid) {
        return new SqeSpec(kind, fd, len, data, offset, nanos, count, opFlags, target, group, bid, lens, sqeFlags,
                userData);
    }

    // ---- operations ----

    public static SqeSpec nop() {
        return of(Kind.NOP);
    }

    /** READ of {@code len} bytes into a fresh buffer ({@code offset} -1: current position). */
    public static SqeSpec read(String fd, int len, long offset) {
        return of(Kind.READ).with(fd, len, null, offset);
    }

    /** WRITE of the ASCII bytes of {@code data}. */
    public static SqeSpec write(String fd, String data, long offset) {
        return of(Kind.WRITE).with(fd, data.length(), data, offset);
    }

    public static SqeSpec readv(String fd, long offset, int... lens) {
        return new SqeSpec(Kind.READV, fd, 0, null, offset, 0, 0, 0, 0, 0, 0, lens.clone(), 0, 0);
    }

    /** WRITEV of {@code data} split into pieces of {@code lens}. */
    public static SqeSpec writev(String fd, String data, long offset, int... lens) {
        return new SqeSpec(Kind.WRITEV, fd, data.length(), data, offset, 0, 0, 0, 0, 0, 0, lens.clone(), 0, 0);
    }

    /** READ with BUFFER_SELECT from {@code group}, {@code len} 0 meaning the buffer's size. */
    public static SqeSpec readSelect(String fd, int group, int len) {
        return of(Kind.READ_SELECT).with(fd, len, null, -1).withArgs(0, 0, 0, 0, group, 0)
                .flags(SqeFlags.BUFFER_SELECT);
    }

    public static SqeSpec fsync(String fd) {
        return of(Kind.FSYNC).with(fd, 0, null, 0);
    }

    public static SqeSpec pollAdd(String fd, int mask) {
        return of(Kind.POLL_ADD).with(fd, 0, null, 0).withArgs(0, 0, mask, 0, 0, 0);
    }

    public static SqeSpec pollMultishot(String fd, int mask) {
        return of(Kind.POLL_MULTISHOT).with(fd, 0, null, 0).withArgs(0, 0, mask, 0, 0, 0);
    }

    public static SqeSpec pollRemove(long targetUserData) {
        return of(Kind.POLL_REMOVE).withArgs(0, 0, 0, targetUserData, 0, 0);
    }

    /**
     * TIMEOUT of {@code nanos}; with {@link Timeout#ABS} the deadline is "now + nanos" on
     * CLOCK_MONOTONIC at the moment the SQE is written (negative: in the past).
     */
    public static SqeSpec timeout(long nanos, int count, int timeoutFlags) {
        return of(Kind.TIMEOUT).withArgs(nanos, count, timeoutFlags, 0, 0, 0);
    }

    public static SqeSpec timeoutRemove(long targetUserData) {
        return of(Kind.TIMEOUT_REMOVE).withArgs(0, 0, 0, targetUserData, 0, 0);
    }

    /** TIMEOUT_REMOVE with UPDATE (or LINK_TIMEOUT_UPDATE in {@code timeoutFlags}): {@code target} now expires after {@code nanos}. */
    public static SqeSpec timeoutUpdate(long targetUserData, long nanos, int timeoutFlags) {
        return of(Kind.TIMEOUT_UPDATE).withArgs(nanos, 0, timeoutFlags, targetUserData, 0, 0);
    }

    public static SqeSpec linkTimeout(long nanos, int timeoutFlags) {
        return of(Kind.LINK_TIMEOUT).withArgs(nanos, 0, timeoutFlags, 0, 0, 0);
    }

    public static SqeSpec cancel(long targetUserData, int cancelFlags) {
        return of(Kind.CANCEL).withArgs(0, 0, cancelFlags, targetUserData, 0, 0);
    }

    public static SqeSpec cancelFd(String fd, int cancelFlags) {
        return of(Kind.CANCEL_FD).with(fd, 0, null, 0).withArgs(0, 0, cancelFlags, 0, 0, 0);
    }

    /** PROVIDE_BUFFERS: {@code count} buffers of {@code bufLen} bytes from a fresh region. */
    public static SqeSpec provideBuffers(int count, int bufLen, int group, int firstBid) {
        return of(Kind.PROVIDE_BUFFERS).with(null, bufLen, null, 0).withArgs(0, count, 0, 0, group, firstBid);
    }

    public static SqeSpec removeBuffers(int count, int group) {
        return of(Kind.REMOVE_BUFFERS).withArgs(0, count, 0, 0, group, 0);
    }

    public static SqeSpec recv(String fd, int len) {
        return of(Kind.RECV).with(fd, len, null, 0);
    }

    public static SqeSpec send(String fd, String data) {
        return of(Kind.SEND).with(fd, data.length(), data, 0);
    }

    /** RECV with BUFFER_SELECT from {@code group}, {@code len} 0 meaning the buffer's size. */
    public static SqeSpec recvSelect(String fd, int group, int len) {
        return of(Kind.RECV_SELECT).with(fd, len, null, 0).withArgs(0, 0, 0, 0, group, 0)
                .flags(SqeFlags.BUFFER_SELECT);
    }

    public static SqeSpec close(String fd) {
        return of(Kind.CLOSE).with(fd, 0, null, 0);
    }

    /** CLOSE of fixed-file slot {@code fileIndex - 1} (the SQE's file_index, 0 meaning none). */
    public static SqeSpec closeFixed(int fileIndex) {
        return of(Kind.CLOSE_FIXED).withArgs(0, fileIndex, 0, 0, 0, 0);
    }

    /** {@code opcode} on {@code fd} with every other field 0 (ACCEPT, SHUTDOWN, MSG_RING, ...). */
    public static SqeSpec onFd(int opcode, String fd) {
        return of(Kind.ON_FD).with(fd, 0, null, 0).withArgs(0, 0, opcode, 0, 0, 0);
    }

    /** POLL_ADD with {@code addFlags} (IORING_POLL_ADD_*) in len. */
    public static SqeSpec pollAddFlags(String fd, int mask, int addFlags) {
        return of(Kind.POLL_ADD).with(fd, addFlags, null, 0).withArgs(0, 0, mask, 0, 0, 0);
    }

    /** The op's flags word: msg flags of RECV/SEND, rw flags (RWF_*) of READ/WRITE. */
    public SqeSpec opFlags(int flags) {
        return withArgs(nanos, count, flags, target, group, bid);
    }

    /** An SQE with only its opcode set (for invalid opcodes). */
    public static SqeSpec rawOpcode(int opcode) {
        return of(Kind.RAW_OPCODE).withArgs(0, 0, opcode, 0, 0, 0);
    }

    // ---- flags and user data ----

    /**
     * Any SQE, written by {@code writer} on both sides (raw fields, ops without a kind of their
     * own); {@code text} names it in scripts, e.g. {@code "READ(file, NULL, 10, -100)"}.
     */
    public static SqeSpec custom(String text, java.util.function.BiConsumer<SqeWriter, ScenarioEnv> writer) {
        return new SqeSpec(Kind.CUSTOM, null, 0, text, 0, 0, 0, 0, 0, 0, 0, null, 0, 0, writer);
    }

    public SqeSpec ud(long userData) {
        return new SqeSpec(kind, fd, len, data, offset, nanos, count, opFlags, target, group, bid, lens, sqeFlags,
                userData, custom);
    }

    public SqeSpec flags(int more) {
        return new SqeSpec(kind, fd, len, data, offset, nanos, count, opFlags, target, group, bid, lens,
                sqeFlags | more, userData, custom);
    }

    public SqeSpec link() {
        return flags(SqeFlags.IO_LINK);
    }

    public SqeSpec hardlink() {
        return flags(SqeFlags.IO_HARDLINK);
    }

    public SqeSpec drain() {
        return flags(SqeFlags.IO_DRAIN);
    }

    public SqeSpec skip() {
        return flags(SqeFlags.CQE_SKIP_SUCCESS);
    }

    public SqeSpec async() {
        return flags(SqeFlags.ASYNC);
    }

    public SqeSpec fixed() {
        return flags(SqeFlags.FIXED_FILE);
    }

    // ---- writing ----

    /** Fills {@code sqe} (already reset by the prep call) with this spec, resolving names in {@code env}. */
    void writeTo(SqeWriter sqe, ScenarioEnv env) {
        switch (kind) {
            case NOP -> sqe.prepNop();
            case READ -> sqe.prepRead(env.fd(fd), env.buffer(len), offset);
            case WRITE -> sqe.prepWrite(env.fd(fd), env.bytes(data), offset);
            case READV -> sqe.prepReadv(env.fd(fd), env.buffers(lens), offset);
            case WRITEV -> sqe.prepWritev(env.fd(fd), env.pieces(data, lens), offset);
            case READ_SELECT -> {
                sqe.prepRead(env.fd(fd), null, offset).bufferGroup(group);
                sqe.len(len);
            }
            case FSYNC -> sqe.prepFsync(env.fd(fd), 0);
            case POLL_ADD -> {
                sqe.prepPollAdd(env.fd(fd), opFlags);
                if (len != 0) {
                    sqe.len(len);
                }
            }
            case POLL_MULTISHOT -> sqe.prepPollMultishot(env.fd(fd), opFlags);
            case POLL_REMOVE -> sqe.prepPollRemove(target);
            case TIMEOUT -> sqe.prepTimeout(deadline(), count, opFlags);
            case TIMEOUT_REMOVE -> sqe.prepTimeoutRemove(target);
            case TIMEOUT_UPDATE -> sqe.prepTimeoutUpdate(target, deadline(), opFlags);
            case LINK_TIMEOUT -> sqe.prepLinkTimeout(deadline(), opFlags);
            case CANCEL -> sqe.prepCancel(target, opFlags);
            case CANCEL_FD -> sqe.prepCancelFd(env.fd(fd), opFlags);
            case PROVIDE_BUFFERS -> sqe.prepProvideBuffers(env.region((long) len * count), len, count, group, bid);
            case REMOVE_BUFFERS -> sqe.prepRemoveBuffers(count, group);
            case RECV -> sqe.prepRecv(env.fd(fd), env.buffer(len), opFlags);
            case SEND -> sqe.prepSend(env.fd(fd), env.bytes(data), opFlags);
            case RECV_SELECT -> {
                sqe.prepRecv(env.fd(fd), null, opFlags).bufferGroup(group);
                sqe.len(len);
            }
            case RAW_OPCODE -> sqe.prepNop().opcode(opFlags);
            case CLOSE -> sqe.prepClose(env.fd(fd));
            case CLOSE_FIXED -> sqe.prepClose(0).fileIndex(count);
            case ON_FD -> sqe.prepRead(env.fd(fd), null, 0).opcode(opFlags);
            case CUSTOM -> custom.accept(sqe, env);
        }
        if (opFlags != 0 && (kind == Kind.READ || kind == Kind.WRITE || kind == Kind.READ_SELECT)) {
            sqe.opFlags(opFlags);
        }
        sqe.userData(userData).flags(sqeFlags);
    }

    /** The time field: {@code nanos} from now on the chosen clock when absolute, else {@code nanos}. */
    private long deadline() {
        if ((opFlags & Timeout.ABS) == 0) {
            return nanos;
        }
        int clock = (opFlags & Timeout.REALTIME) != 0 ? Clocks.CLOCK_REALTIME
                : (opFlags & Timeout.BOOTTIME) != 0 ? Clocks.CLOCK_BOOTTIME : Clocks.CLOCK_MONOTONIC;
        long now = clock == Clocks.CLOCK_MONOTONIC ? System.nanoTime() : Clocks.now(SysCallContext.current(), clock);
        return now + nanos;
    }

    @Override
    public String toString() {
        if (kind == Kind.CUSTOM) {
            return data + " ud=" + userData + (sqeFlags != 0 ? " " + flagNames(sqeFlags) : "");
        }
        StringBuilder s = new StringBuilder(kind == Kind.RAW_OPCODE ? "OPCODE(" + opFlags : kind + "(");
        switch (kind) {
            case READ, RECV -> s.append(fd).append(", ").append(len).append(kind == Kind.READ ? ", " + offset : "");
            case WRITE, SEND -> s.append(fd).append(", \"")
                    .append(data.length() > 32 ? data.substring(0, 8) + "...(" + data.length() + " bytes)" : data)
                    .append('"').append(kind == Kind.WRITE ? ", " + offset : "");
            case RECV_SELECT -> s.append(fd).append(", group ").append(group).append(", ").append(len);
            case READV, WRITEV -> s.append(fd).append(", ").append(offset).append(", ")
                    .append(java.util.Arrays.toString(lens));
            case READ_SELECT -> s.append(fd).append(", group ").append(group).append(", ").append(len);
            case FSYNC, CANCEL_FD, CLOSE -> s.append(fd);
            case CLOSE_FIXED -> s.append("file index ").append(count);
            case ON_FD -> s.append(io.jring.Opcode.name(opFlags)).append(", ").append(fd);
            case POLL_ADD, POLL_MULTISHOT -> s.append(fd).append(", 0x").append(Integer.toHexString(opFlags))
                    .append(len != 0 ? ", len 0x" + Integer.toHexString(len) : "");
            case POLL_REMOVE, TIMEOUT_REMOVE -> s.append(target);
            case TIMEOUT_UPDATE -> s.append(target).append(", ").append(nanos / 1_000_000).append("ms");
            case TIMEOUT -> s.append(nanos / 1_000_000).append("ms, count ").append(count);
            case LINK_TIMEOUT -> s.append(nanos / 1_000_000).append("ms");
            case CANCEL -> s.append(target);
            case PROVIDE_BUFFERS -> s.append(count).append(" x ").append(len).append(", group ").append(group)
                    .append(", bid ").append(bid);
            case REMOVE_BUFFERS -> s.append(count).append(", group ").append(group);
            default -> { }
        }
        if ((kind == Kind.TIMEOUT || kind == Kind.LINK_TIMEOUT || kind == Kind.TIMEOUT_UPDATE || kind == Kind.CANCEL
                || kind == Kind.CANCEL_FD || kind == Kind.READ || kind == Kind.WRITE || kind == Kind.RECV
                || kind == Kind.SEND || kind == Kind.RECV_SELECT || kind == Kind.READ_SELECT)
                && opFlags != 0) {
            s.append(", flags 0x").append(Integer.toHexString(opFlags));
        }
        s.append(") ud=").append(userData);
        if (sqeFlags != 0) {
            s.append(' ').append(flagNames(sqeFlags));
        }
        return s.toString();
    }

    static String flagNames(int f) {
        StringBuilder s = new StringBuilder("[");
        String[] names = {"FIXED_FILE", "IO_DRAIN", "IO_LINK", "IO_HARDLINK", "ASYNC", "BUFFER_SELECT",
                "CQE_SKIP_SUCCESS"};
        for (int i = 0; i < 8; i++) {
            if ((f & (1 << i)) != 0) {
                s.append(s.length() > 1 ? "|" : "").append(i < names.length ? names[i] : "0x80");
            }
        }
        return s.append(']').toString();
    }
}

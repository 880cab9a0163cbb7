package io.jring.kernel;

import static io.jring.kernel.BufRingScenarios.G;
import static io.jring.kernel.BufRingScenarios.withRing;
import static io.jring.kernel.CqeSpec.buffer;
import static io.jring.kernel.CqeSpec.cqe;
import static io.jring.kernel.Scenarios.ECANCELED;
import static io.jring.kernel.SqeSpec.cancel;
import static io.jring.kernel.SqeSpec.custom;
import static io.jring.kernel.SqeSpec.nop;
import static io.jring.kernel.SqeSpec.send;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.MsgHdr;
import io.jring.Opcode;
import io.jring.Sqe;
import io.jring.SqeFlags;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.function.Function;

/**
 * Issue 23: SENDMSG, RECVMSG, multishot RECVMSG, SEND_ZC and SENDMSG_ZC (Linux 6.18's
 * io_uring/net.c io_sendmsg, io_recvmsg, io_recvmsg_multishot, io_send_zc, io_sendmsg_zc),
 * mirroring liburing's send_recvmsg.c, recv-multishot.c (its recvmsg half), send-zerocopy.c
 * and socket-rw.c: UDP send-to and receive over IPv4 and IPv6, several iovecs, MSG_TRUNC,
 * SCM_RIGHTS and a too-small control buffer, bad msghdrs, the prep checks, provided buffers,
 * the recvmsg_out layout's sizes, an empty and an exhausted buffer ring, EOF, cancel, the
 * zero-copy sends' two CQEs and their errors, zero-length sends. Expectations from the kernel.
 */
final class MsgScenarios {
    private MsgScenarios() {}

    private static final int MORE = CqeFlags.MORE;
    private static final int NOTIF = CqeFlags.NOTIF;
    private static final int EINVAL = -Errno.EINVAL;
    private static final int EFAULT = -Errno.EFAULT;
    private static final int ENOBUFS = -Errno.ENOBUFS;
    private static final int MSG_TRUNC = 0x20;
    private static final int MSG_WAITALL = 0x100;

    static void add(List<Scenario> all) {
        addSendRecvmsg(all);
        addErrors(all);
        addMultishot(all);
        addZeroCopy(all);
    }

    // ---- SQE builders ----

    private static SqeSpec msg(int opcode, String fd, String text, int msgFlags,
            Function<ScenarioEnv, MemorySegment> hdr) {
        return custom(Opcode.name(opcode) + "(" + fd + ", " + text + (msgFlags != 0 ? ", flags 0x"
                + Integer.toHexString(msgFlags) : "") + ")",
                (w, e) -> w.prepNop().opcode(opcode).fd(e.fd(fd)).addr(hdr.apply(e)).len(1).opFlags(msgFlags));
    }

    private static SqeSpec sendmsg(String fd, String data, String to) {
        return msg(Opcode.SENDMSG, fd, "\"" + data + "\"" + (to != null ? " to " + to : ""), 0, e -> {
            MsgHdr h = MsgHdr.allocate(e.arena()).iov(e.bytes(data));
            if (to != null) {
                h.name(Fds.localAddress(e.fd(to)));
            }
            return h.segment();
        });
    }

    private static SqeSpec recvmsg(String fd, int msgFlags, int... lens) {
        return msg(Opcode.RECVMSG, fd, "iovecs " + java.util.Arrays.toString(lens) + ", name room", msgFlags,
                e -> MsgHdr.allocate(e.arena()).iov(e.buffers(lens)).nameBuffer().segment());
    }

    private static SqeSpec raw(int opcode, String fd, String text, int msgFlags, long iov, long iovlen) {
        return msg(opcode, fd, text, msgFlags, e -> {
            MemorySegment h = MsgHdr.allocate(e.arena()).segment();
            h.set(ValueLayout.JAVA_LONG, 16, iov);
            h.set(ValueLayout.JAVA_LONG, 24, iovlen);
            return h;
        });
    }

    /** A multishot RECVMSG from group G with {@code nameRoom} and {@code controlRoom} in its msghdr. */
    private static SqeSpec recvmsgMultishot(String fd, int nameRoom, int controlRoom) {
        return custom("RECVMSG multishot(" + fd + ", group " + G + ", name " + nameRoom + ", control "
                + controlRoom + ")", (w, e) -> {
                    MsgHdr h = MsgHdr.allocate(e.arena()).name(null, nameRoom);
                    h.segment().set(ValueLayout.JAVA_LONG, 40, controlRoom);
                    w.prepNop().opcode(Opcode.RECVMSG).fd(e.fd(fd)).addr(h.segment()).len(1)
                            .ioprio(Sqe.RECV_MULTISHOT).bufferGroup(G);
                }).flags(SqeFlags.BUFFER_SELECT);
    }

    private static SqeSpec recvmsgGroup5() {
        return custom("RECVMSG(s0.b, group 5)", (w, e) -> w.prepNop().opcode(Opcode.RECVMSG).fd(e.fd("s0.b"))
                .addr(MsgHdr.allocate(e.arena()).segment()).len(1).bufferGroup(5)).flags(SqeFlags.BUFFER_SELECT);
    }

    private static SqeSpec sendZc(String fd, String data, int zcFlags) {
        return custom("SEND_ZC(" + fd + ", \"" + data + "\", zc flags 0x" + Integer.toHexString(zcFlags) + ")",
                (w, e) -> w.prepSend(e.fd(fd), e.bytes(data), 0).opcode(Opcode.SEND_ZC).ioprio(zcFlags));
    }

    private static SqeSpec sendmsgZc(String fd, String data, String to) {
        return msg(Opcode.SENDMSG_ZC, fd, "\"" + data + "\" to " + to, 0,
                e -> MsgHdr.allocate(e.arena()).iov(e.bytes(data)).name(Fds.localAddress(e.fd(to))).segment());
    }

    // ---- SENDMSG / RECVMSG ----

    private static void addSendRecvmsg(List<Scenario> all) {
        for (String u : new String[] {"u0", "w0"}) {
            String family = u.equals("u0") ? "IPv4" : "IPv6";
            all.add(Scenario.named("sendmsg: a UDP datagram to a name (" + family + ") reaches a waiting recvmsg",
                    "send_recvmsg.c")
                    .submit(recvmsg(u + ".a", 0, 3, 64).ud(1))
                    .quiet()
                    .submit(sendmsg(u + ".b", "hello", u + ".a").ud(2))
                    .reap(2)
                    .expectAnyOrder(cqe(2, 5), cqe(1, 5))
                    .build());
        }
        all.add(Scenario.named("sendmsg: two iovecs on a stream, recvmsg into two", "socket-rw.c")
                .submit(msg(Opcode.SENDMSG, "s0.a", "\"abc\" + \"defg\"", 0,
                        e -> MsgHdr.allocate(e.arena()).iov(e.bytes("abc"), e.bytes("defg")).segment()).ud(1))
                .reap(1)
                .submit(recvmsg("s0.b", 0, 2, 16).ud(2))
                .reap(1)
                .expect(cqe(1, 7), cqe(2, 7))
                .build());
        all.add(Scenario.named("recvmsg: a datagram longer than the iovecs is cut; with MSG_TRUNC its length",
                "send_recvmsg.c")
                .write("u0.c", "0123456789")
                .write("u0.c", "abcdefghij")
                .submit(recvmsg("u0.a", 0, 4).ud(1))
                .reap(1)
                .submit(recvmsg("u0.a", MSG_TRUNC, 4).ud(2))
                .reap(1)
                .expect(cqe(1, 4), cqe(2, 10))
                .build());
        all.add(Scenario.named("sendmsg: SCM_RIGHTS over AF_UNIX, received with room for it", "send_recvmsg.c")
                .submit(msg(Opcode.SENDMSG, "s0.a", "\"x\" + SCM_RIGHTS(p0.w)", 0,
                        e -> MsgHdr.allocate(e.arena()).iov(e.bytes("x")).rights(e.fd("p0.w")).segment()).ud(1))
                .reap(1)
                .submit(msg(Opcode.RECVMSG, "s0.b", "control " + MsgHdr.cmsgSpace(4), 0,
                        e -> MsgHdr.allocate(e.arena()).iov(e.buffer(4)).controlBuffer(MsgHdr.cmsgSpace(4))
                                .segment()).ud(2))
                .reap(1)
                .expect(cqe(1, 1), cqe(2, 1))
                .build());
        all.add(Scenario.named("recvmsg: MSG_WAITALL with a too-small control buffer (MSG_CTRUNC) breaks its link",
                "send_recvmsg.c")
                .submit(msg(Opcode.SENDMSG, "s0.a", "\"x\" + SCM_RIGHTS(p0.w)", 0,
                        e -> MsgHdr.allocate(e.arena()).iov(e.bytes("x")).rights(e.fd("p0.w")).segment()).ud(1))
                .reap(1)
                .submit(msg(Opcode.RECVMSG, "s0.b", "control 16", MSG_WAITALL,
                        e -> MsgHdr.allocate(e.arena()).iov(e.buffer(1)).controlBuffer(16).segment()).ud(2).link(),
                        nop().ud(3))
                .reap(2)
                .expect(cqe(1, 1), cqe(2, 1), cqe(3, ECANCELED))
                .build());
        all.add(Scenario.named("sendmsg: a zero-length UDP datagram, received as 0", "socket-rw.c")
                .submit(msg(Opcode.SENDMSG, "u0.b", "no data to u0.a", 0,
                        e -> MsgHdr.allocate(e.arena()).name(Fds.localAddress(e.fd("u0.a"))).segment()).ud(1))
                .reap(1)
                .submit(recvmsg("u0.a", 0, 8).ud(2))
                .reap(1)
                .expect(cqe(1, 0), cqe(2, 0))
                .build());
        all.add(Scenario.named("recvmsg: into a provided buffer (legacy group), then none left", "send_recvmsg.c")
                .submit(SqeSpec.provideBuffers(1, 32, 5, 4).ud(9))
                .reap(1)
                .write("s0.a", "abc")
                .submit(recvmsgGroup5().ud(1))
                .reap(1)
                .write("s0.a", "d")
                .submit(recvmsgGroup5().ud(2))
                .reap(1)
                .expect(cqe(9, 0), cqe(1, 3, buffer(4)), cqe(2, ENOBUFS))
                .build());
    }

    // ---- errors ----

    private static void addErrors(List<Scenario> all) {
        all.add(Scenario.named("sendmsg/recvmsg: a msghdr pointer to nothing is -EFAULT", "send_recvmsg.c")
                .submit(msg(Opcode.SENDMSG, "s0.a", "msghdr at 0x10", 0, e -> MemorySegment.ofAddress(0x10)).ud(1))
                .submit(msg(Opcode.RECVMSG, "s0.b", "msghdr NULL", 0, e -> MemorySegment.NULL).ud(2))
                .reap(2)
                .expect(cqe(1, EFAULT), cqe(2, EFAULT))
                .build());
        all.add(Scenario.named("sendmsg: an iovec array at a bad address is -EFAULT", "send_recvmsg.c")
                .submit(raw(Opcode.SENDMSG, "s0.a", "iov 0x10, 1 entry", 0, 0x10, 1).ud(1))
                .reap(1)
                .expect(cqe(1, EFAULT))
                .build());
        all.add(Scenario.named("sendmsg: more than UIO_MAXIOV iovecs is -EMSGSIZE", "send_recvmsg.c")
                .submit(raw(Opcode.SENDMSG, "s0.a", "1025 iovecs", 0, 0x10, 1025).ud(1))
                .reap(1)
                .expect(cqe(1, -Errno.EMSGSIZE))
                .build());
        all.add(Scenario.named("sendmsg/recvmsg: BUNDLE, addr2, and multishot without a buffer group are -EINVAL",
                "send_recvmsg.c")
                .submit(custom("SENDMSG bundle", (w, e) -> w.prepNop().opcode(Opcode.SENDMSG).fd(e.fd("s0.a"))
                        .addr(MsgHdr.allocate(e.arena()).segment()).ioprio(Sqe.RECVSEND_BUNDLE)).ud(1))
                .submit(custom("RECVMSG addr2 1", (w, e) -> w.prepNop().opcode(Opcode.RECVMSG).fd(e.fd("s0.b"))
                        .addr(MsgHdr.allocate(e.arena()).segment()).addr2(1)).ud(2))
                .submit(custom("RECVMSG multishot, no group", (w, e) -> w.prepNop().opcode(Opcode.RECVMSG)
                        .fd(e.fd("s0.b")).addr(MsgHdr.allocate(e.arena()).segment()).ioprio(Sqe.RECV_MULTISHOT))
                        .ud(3))
                .reap(3)
                .expect(cqe(1, EINVAL), cqe(2, EINVAL), cqe(3, EINVAL))
                .build());
        all.add(Scenario.named("sendmsg/recvmsg: not a socket is -ENOTSOCK, a bad descriptor -EBADF", "socket-rw.c")
                .submit(msg(Opcode.SENDMSG, "p0.w", "\"a\"", 0,
                        e -> MsgHdr.allocate(e.arena()).iov(e.bytes("a")).segment()).ud(1))
                .reap(1)
                .submit(msg(Opcode.RECVMSG, "bad", "8", 0,
                        e -> MsgHdr.allocate(e.arena()).iov(e.buffer(8)).segment()).ud(2))
                .reap(1)
                .expect(cqe(1, -Errno.ENOTSOCK), cqe(2, -Errno.EBADF))
                .build());
    }

    // ---- multishot RECVMSG ----

    private static void addMultishot(List<Scenario> all) {
        all.add(withRing("recvmsg multishot: one CQE per datagram, header + name room + payload", "recv-multishot.c",
                8, 0, 4, 128)
                .submit(recvmsgMultishot("u0.a", 16, 0).ud(1))
                .quiet()
                .write("u0.c", "aa")
                .reap(1)
                .write("u0.c", "bbbb")
                .reap(1)
                .submit(cancel(1, 0).ud(2))
                .reap(2)
                .expect(cqe(1, 34, MORE | buffer(0)), cqe(1, 36, MORE | buffer(1)))
                .expectAnyOrder(cqe(1, ECANCELED), cqe(2, 0))
                .build());
        all.add(withRing("recvmsg multishot: queued datagrams, then the ring runs out (-ENOBUFS)", "recv-multishot.c",
                8, 0, 2, 64)
                .write("u0.c", "a")
                .write("u0.c", "bb")
                .write("u0.c", "ccc")
                .submit(recvmsgMultishot("u0.a", 0, 0).ud(1))
                .reap(3)
                .expect(cqe(1, 17, MORE | buffer(0)), cqe(1, 18, MORE | buffer(1)), cqe(1, ENOBUFS))
                .build());
        all.add(withRing("recvmsg multishot: an empty ring is -ENOBUFS at once", "recv-multishot.c", 8, 0, 0, 64)
                .write("u0.c", "a")
                .submit(recvmsgMultishot("u0.a", 16, 0).ud(1))
                .reap(1)
                .expect(cqe(1, ENOBUFS))
                .build());
        all.add(withRing("recvmsg multishot: a buffer smaller than header and rooms is -EFAULT", "recv-multishot.c",
                8, 0, 2, 24)
                .write("u0.c", "a")
                .submit(recvmsgMultishot("u0.a", 16, 0).ud(1))
                .reap(1)
                .expect(cqe(1, EFAULT))
                .build());
        all.add(withRing("recvmsg multishot: a payload longer than the buffer is cut", "recv-multishot.c",
                8, 0, 2, 24)
                .write("u0.c", "0123456789abcdef")
                .submit(recvmsgMultishot("u0.a", 0, 0).ud(1))
                .quiet()
                .submit(cancel(1, 0).ud(2))
                .reap(2)
                .expect(cqe(1, 24, MORE | buffer(0)))
                .expectAnyOrder(cqe(1, ECANCELED), cqe(2, 0))
                .build());
        all.add(withRing("recvmsg multishot: an empty datagram ends it", "recv-multishot.c", 8, 0, 4, 64)
                .submit(recvmsgMultishot("u0.a", 16, 0).ud(1))
                .quiet()
                .submit(send("u0.c", "").ud(2))
                .reap(2)
                .expectAnyOrder(cqe(2, 0), cqe(1, 32, buffer(0)))
                .build());
        all.add(withRing("recvmsg multishot: stream data, then EOF ends it with a bare header", "recv-multishot.c",
                8, 0, 4, 64)
                .write("s0.a", "hello")
                .submit(recvmsgMultishot("s0.b", 0, 0).ud(1))
                .reap(1)
                .close("s0.a")
                .reap(1)
                .expect(cqe(1, 21, MORE | buffer(0)), cqe(1, 16, buffer(1)))
                .build());
        all.add(withRing("recvmsg multishot: with MSG_WAITALL, or a bundle, -EINVAL", "recv-multishot.c",
                8, 0, 4, 64)
                .submit(custom("RECVMSG multishot WAITALL", (w, e) -> w.prepNop().opcode(Opcode.RECVMSG)
                        .fd(e.fd("s0.b")).addr(MsgHdr.allocate(e.arena()).segment()).opFlags(MSG_WAITALL)
                        .ioprio(Sqe.RECV_MULTISHOT).bufferGroup(G)).flags(SqeFlags.BUFFER_SELECT).ud(1))
                .submit(custom("RECVMSG bundle", (w, e) -> w.prepNop().opcode(Opcode.RECVMSG)
                        .fd(e.fd("s0.b")).addr(MsgHdr.allocate(e.arena()).segment())
                        .ioprio(Sqe.RECVSEND_BUNDLE).bufferGroup(G)).flags(SqeFlags.BUFFER_SELECT).ud(2))
                .reap(2)
                .expect(cqe(1, EINVAL), cqe(2, EINVAL))
                .build());
    }

    // ---- SEND_ZC / SENDMSG_ZC ----

    private static void addZeroCopy(List<Scenario> all) {
        all.add(Scenario.named("send_zc: TCP gives the result with MORE, then the notification", "send-zerocopy.c")
                .submit(sendZc("t1.c", "hello", 0).ud(1))
                .reap(2)
                .expect(cqe(1, 5, MORE), cqe(1, 0, NOTIF))
                .build());
        all.add(Scenario.named("send_zc: REPORT_USAGE over loopback reports a copy", "send-zerocopy.c")
                .submit(sendZc("t1.c", "hello", Sqe.SEND_ZC_REPORT_USAGE).ud(1))
                .reap(2)
                .expect(cqe(1, 5, MORE), cqe(1, CqeFlags.NOTIF_USAGE_ZC_COPIED, NOTIF))
                .build());
        all.add(Scenario.named("send_zc: UDP, and a zero-length send", "send-zerocopy.c")
                .submit(sendZc("u0.c", "datagram", 0).ud(1))
                .reap(2)
                .submit(sendZc("t1.c", "", 0).ud(2))
                .reap(2)
                .expect(cqe(1, 8, MORE), cqe(1, 0, NOTIF), cqe(2, 0, MORE), cqe(2, 0, NOTIF))
                .build());
        all.add(Scenario.named("send_zc: AF_UNIX is -EOPNOTSUPP, still with the notification", "send-zerocopy.c")
                .submit(sendZc("s0.a", "x", 0).ud(1))
                .reap(2)
                .expect(cqe(1, -Errno.EOPNOTSUPP, MORE), cqe(1, 0, NOTIF))
                .build());
        all.add(Scenario.named("send_zc: unknown flags are -EINVAL with a notification; CQE_SKIP_SUCCESS without",
                "send-zerocopy.c")
                .submit(sendZc("t1.c", "x", 0x80).ud(1))
                .reap(2)
                .submit(sendZc("t1.c", "x", 0).skip().ud(2))
                .reap(1)
                .expect(cqe(1, EINVAL, MORE), cqe(1, 0, NOTIF), cqe(2, EINVAL))
                .build());
        all.add(Scenario.named("send_zc: FIXED_BUF with no registered buffers is -EFAULT", "send-zerocopy.c")
                .submit(sendZc("t1.c", "x", Sqe.RECVSEND_FIXED_BUF).ud(1))
                .reap(2)
                .expect(cqe(1, EFAULT, MORE), cqe(1, 0, NOTIF))
                .build());
        all.add(Scenario.named("send_zc: to a destination (addr2, addr_len) from an unconnected UDP socket",
                "send-zerocopy.c")
                .submit(custom("SEND_ZC(u0.b, \"to\", to u0.a)", (w, e) -> {
                    MemorySegment sa = MsgHdr.sockaddr(e.arena(), Fds.localAddress(e.fd("u0.a")));
                    w.prepSend(e.fd("u0.b"), e.bytes("to"), 0).opcode(Opcode.SEND_ZC).addr2(sa.address())
                            .fileIndex((int) sa.byteSize());
                }).ud(1))
                .reap(2)
                .submit(recvmsg("u0.a", 0, 16).ud(2))
                .reap(1)
                .expect(cqe(1, 2, MORE), cqe(1, 0, NOTIF), cqe(2, 2))
                .build());
        all.add(Scenario.named("send_zc: a destination over 128 bytes is -EINVAL, an unreadable one -EFAULT",
                "send-zerocopy.c")
                .submit(custom("SEND_ZC(u0.b, addr_len 129)", (w, e) -> w.prepSend(e.fd("u0.b"), e.bytes("x"), 0)
                        .opcode(Opcode.SEND_ZC).addr2(e.region(256).address()).fileIndex(129)).ud(1))
                .reap(2)
                .submit(custom("SEND_ZC(u0.b, addr2 0x10)", (w, e) -> w.prepSend(e.fd("u0.b"), e.bytes("x"), 0)
                        .opcode(Opcode.SEND_ZC).addr2(0x10).fileIndex(16)).ud(2))
                .reap(2)
                .expect(cqe(1, EINVAL, MORE), cqe(1, 0, NOTIF), cqe(2, EFAULT, MORE), cqe(2, 0, NOTIF))
                .build());
        all.add(Scenario.named("sendmsg_zc: a UDP datagram to a name, received", "send-zerocopy.c")
                .submit(sendmsgZc("u0.b", "zc!", "u0.a").ud(1))
                .reap(2)
                .submit(recvmsg("u0.a", 0, 16).ud(2))
                .reap(1)
                .expect(cqe(1, 3, MORE), cqe(1, 0, NOTIF), cqe(2, 3))
                .build());
    }
}

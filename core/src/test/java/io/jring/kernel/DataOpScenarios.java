package io.jring.kernel;

import static io.jring.kernel.CqeSpec.buffer;
import static io.jring.kernel.CqeSpec.cqe;
import static io.jring.kernel.SqeSpec.cancel;
import static io.jring.kernel.SqeSpec.close;
import static io.jring.kernel.SqeSpec.linkTimeout;
import static io.jring.kernel.SqeSpec.nop;
import static io.jring.kernel.SqeSpec.provideBuffers;
import static io.jring.kernel.SqeSpec.readSelect;
import static io.jring.kernel.SqeSpec.readv;
import static io.jring.kernel.SqeSpec.recv;
import static io.jring.kernel.SqeSpec.recvSelect;
import static io.jring.kernel.SqeSpec.removeBuffers;
import static io.jring.kernel.SqeSpec.send;
import static io.jring.kernel.SqeSpec.write;

import io.jring.CqeFlags;
import io.jring.Errno;
import java.util.List;

/**
 * Issue 16 B2, B4, B9, B10, B11: what a data op reports when it leaves data behind, when it
 * may not wait, when it is cancelled after it moved data or took a provided buffer, and where
 * CLOSE runs (Linux 6.18's io_uring/net.c io_recv_finish and io_sendrecv_fail, rw.c
 * io_rw_fail, kbuf.c, openclose.c io_close). Every expectation was taken from the kernel.
 */
final class DataOpScenarios {
    private DataOpScenarios() {}

    private static final int NONEMPTY = CqeFlags.SOCK_NONEMPTY;
    private static final int MSG_PEEK = 0x2;
    private static final int MSG_DONTWAIT = 0x40;
    private static final int MSG_WAITALL = 0x100;
    private static final int RWF_NOWAIT = 0x8;
    private static final int EAGAIN = -Errno.EAGAIN;

    /** {@code n} ASCII bytes. */
    private static String bytes(int n) {
        return "x".repeat(n);
    }

    static void add(List<Scenario> all) {
        addSockNonEmpty(all);
        addNowait(all);
        addPartialThenCancel(all);
        addProvidedBufferOwnership(all);
        addCloseInline(all);
    }

    private static void addSockNonEmpty(List<Scenario> all) {
        all.add(Scenario.named("data: a recv that leaves bytes in the socket sets SOCK_NONEMPTY",
                "net.c io_recv_finish")
                .write("s0.b", bytes(2955))
                .submit(recv("s0.a", 100).ud(1))
                .reap(1)
                .submit(recv("s0.a", 4096).ud(2))
                .expect(cqe(1, 100, NONEMPTY), cqe(2, 2855))
                .build());
        all.add(Scenario.named("data: a recv with MSG_PEEK leaves what it saw, so SOCK_NONEMPTY",
                "net.c io_recv_finish")
                .write("s0.b", bytes(100))
                .submit(recv("s0.a", 100).opFlags(MSG_PEEK).ud(1))
                .reap(1)
                .submit(recv("s0.a", 100).ud(2))
                .expect(cqe(1, 100, NONEMPTY), cqe(2, 100))
                .build());
        all.add(Scenario.named("data: after the peer closed, SOCK_NONEMPTY while bytes remain, none at EOF",
                "net.c io_recv_finish")
                .write("s0.b", bytes(50))
                .close("s0.b")
                .submit(recv("s0.a", 10).ud(1))
                .reap(1)
                .submit(recv("s0.a", 100).ud(2))
                .reap(1)
                .submit(recv("s0.a", 100).ud(3))
                .expect(cqe(1, 10, NONEMPTY), cqe(2, 40), cqe(3, 0))
                .build());
        all.add(Scenario.named("data: a zero-length recv with bytes queued sets SOCK_NONEMPTY", "net.c io_recv_finish")
                .write("s0.b", bytes(50))
                .submit(recv("s0.a", 0).ud(1))
                .expect(cqe(1, 0, NONEMPTY))
                .build());
        all.add(Scenario.named("data: ASYNC and WAITALL recvs set SOCK_NONEMPTY too", "net.c io_recv_finish")
                .write("s0.b", bytes(2955))
                .submit(recv("s0.a", 100).async().ud(1))
                .reap(1)
                .submit(recv("s0.a", 100).opFlags(MSG_WAITALL).ud(2))
                .expect(cqe(1, 100, NONEMPTY), cqe(2, 100, NONEMPTY))
                .build());
        all.add(Scenario.named("data: a recv that waited sets SOCK_NONEMPTY when more arrived than it took",
                "net.c io_recv_finish")
                .submit(recv("s0.a", 100).ud(1))
                .quiet()
                .write("s0.b", bytes(2955))
                .expect(cqe(1, 100, NONEMPTY))
                .build());
        all.add(Scenario.named("data: a provided-buffer recv sets SOCK_NONEMPTY beside BUFFER", "net.c io_recv_finish")
                .submit(provideBuffers(1, 64, 1, 0).ud(1))
                .write("s0.b", bytes(2955))
                .submit(recvSelect("s0.a", 1, 0).ud(2))
                .expect(cqe(1, 0), cqe(2, 64, buffer(0) | NONEMPTY))
                .build());
    }

    private static void addNowait(List<Scenario> all) {
        all.add(Scenario.named("data: RECV MSG_DONTWAIT, empty socket: -EAGAIN at once, its cancel finds nothing",
                "net.c REQ_F_NOWAIT")
                .submit(recv("s0.a", 100).opFlags(MSG_DONTWAIT).ud(1), cancel(1, 0).ud(2))
                .expect(cqe(1, EAGAIN), cqe(2, Scenarios.ENOENT))
                .build());
        all.add(Scenario.named("data: SEND MSG_DONTWAIT, full socket: -EAGAIN at once, its cancel finds nothing",
                "net.c REQ_F_NOWAIT")
                .submit(send("s0.a", bytes(1 << 20)).opFlags(MSG_DONTWAIT).skip().ud(9))
                .submit(send("s0.a", "x").opFlags(MSG_DONTWAIT).ud(1), cancel(1, 0).ud(2))
                .expect(cqe(1, EAGAIN), cqe(2, Scenarios.ENOENT))
                .build());
        all.add(Scenario.named("data: READ RWF_NOWAIT, empty pipe: -EAGAIN at once, its cancel finds nothing",
                "rw.c REQ_F_NOWAIT")
                .submit(SqeSpec.read("p0.r", 100, -1).opFlags(RWF_NOWAIT).ud(1), cancel(1, 0).ud(2))
                .expect(cqe(1, EAGAIN), cqe(2, Scenarios.ENOENT))
                .build());
        // A write's failure from the file completes through task work, after the cancel's CQE.
        all.add(Scenario.named("data: WRITE RWF_NOWAIT, full pipe: -EAGAIN at once, its cancel finds nothing",
                "rw.c REQ_F_NOWAIT")
                .write("p0.w", bytes(65536))
                .submit(write("p0.w", "x", -1).opFlags(RWF_NOWAIT).ud(1), cancel(1, 0).ud(2))
                .expect(cqe(2, Scenarios.ENOENT), cqe(1, EAGAIN))
                .build());
        all.add(Scenario.named("data: a write's failure from the file completes after the submit's inline CQEs",
                "rw.c kiocb_done")
                .close("p0.r")
                .submit(write("p0.w", "x", -1).ud(1), nop().ud(2), write("p0.r", "x", -1).ud(3), nop().ud(4))
                .expect(cqe(2, 0), cqe(3, Scenarios.EBADF), cqe(4, 0), cqe(1, -Errno.EPIPE))
                .build());
    }

    private static void addPartialThenCancel(List<Scenario> all) {
        all.add(Scenario.named("data: a WAITALL recv cancelled in its submit completes with the bytes it took",
                "net.c io_sendrecv_fail")
                .write("s0.b", bytes(100))
                .submit(recv("s0.a", 4096).opFlags(MSG_WAITALL).ud(1), cancel(1, 0).ud(2))
                .reap(2)
                .submit(recv("s0.a", 100).opFlags(MSG_DONTWAIT).ud(3))
                .expect(cqe(2, 0), cqe(1, 100), cqe(3, EAGAIN))
                .build());
        all.add(Scenario.named("data: a WAITALL recv cancelled later completes with the bytes it took",
                "net.c io_sendrecv_fail")
                .write("s0.b", bytes(100))
                .submit(recv("s0.a", 4096).opFlags(MSG_WAITALL).ud(1))
                .quiet()
                .submit(cancel(1, 0).ud(2))
                .expect(cqe(2, 0), cqe(1, 100))
                .build());
        all.add(Scenario.named("data: a WAITALL recv its link timeout cancels completes with the bytes it took",
                "net.c io_sendrecv_fail")
                .write("s0.b", bytes(100))
                .submit(recv("s0.a", 4096).opFlags(MSG_WAITALL).ud(1).link(), linkTimeout(20 * Scenarios.MS, 0).ud(2))
                .expect(cqe(2, Scenarios.ETIME), cqe(1, 100))
                .build());
        all.add(Scenario.named("data: a cancelled WAITALL recv reports its bytes and still fails its link",
                "net.c io_sendrecv_fail")
                .write("s0.b", bytes(100))
                .submit(recv("s0.a", 4096).opFlags(MSG_WAITALL).ud(1).link(), nop().ud(3), cancel(1, 0).ud(2))
                .expect(cqe(2, 0), cqe(1, 100), cqe(3, Scenarios.ECANCELED))
                .build());
        all.add(Scenario.named("data: a cancelled WAITALL recv posts its bytes despite CQE_SKIP_SUCCESS",
                "net.c io_sendrecv_fail")
                .write("s0.b", bytes(100))
                .submit(recv("s0.a", 4096).opFlags(MSG_WAITALL).skip().ud(1), cancel(1, 0).ud(2))
                .expect(cqe(2, 0), cqe(1, 100))
                .build());
        all.add(Scenario.named("data: an ASYNC WAITALL recv cancelled later completes with the bytes it took",
                "net.c io_sendrecv_fail")
                .write("s0.b", bytes(100))
                .submit(recv("s0.a", 4096).opFlags(MSG_WAITALL).async().ud(1))
                .quiet(50)
                .submit(cancel(1, 0).ud(2))
                .expect(cqe(2, 0), cqe(1, 100))
                .build());
        all.add(Scenario.named("data: WAITALL with DONTWAIT completes with what it got and fails its link",
                "net.c io_sendrecv_fail")
                .write("s0.b", bytes(100))
                .submit(recv("s0.a", 4096).opFlags(MSG_WAITALL | MSG_DONTWAIT).ud(1).link(), nop().ud(2))
                .expect(cqe(1, 100), cqe(2, Scenarios.ECANCELED))
                .build());
        all.add(Scenario.named("data: a WAITALL recv that ends short at EOF fails its link", "net.c io_recv")
                .write("s0.b", "abcd")
                .close("s0.b")
                .submit(recv("s0.a", 10).opFlags(MSG_WAITALL).ud(1).link(), nop().ud(2))
                .expect(cqe(1, 4), cqe(2, Scenarios.ECANCELED))
                .build());
        all.add(Scenario.named("data: a pipe write larger than the pipe completes short and fails its link",
                "rw.c io_write")
                .submit(write("p0.w", bytes(100_000), -1).ud(1).link(), nop().ud(2))
                .expect(cqe(1, 65536), cqe(2, Scenarios.ECANCELED))
                .build());
        all.add(Scenario.named("data: a vectored pipe read completes short and fails its link", "rw.c io_read")
                .write("p0.w", "abcde")
                .submit(readv("p0.r", -1, 10, 10).ud(1).link(), nop().ud(2))
                .expect(cqe(1, 5), cqe(2, Scenarios.ECANCELED))
                .build());
    }

    private static void addProvidedBufferOwnership(List<Scenario> all) {
        all.add(Scenario.named("data: a READ waiting on a pipe keeps the provided buffer it took", "kbuf.c")
                .submit(provideBuffers(2, 64, 1, 0).ud(9))
                .submit(readSelect("p0.r", 1, 0).ud(1))
                .quiet()
                .write("s0.b", "bb")
                .submit(recvSelect("s0.a", 1, 0).ud(2))
                .reap(1)
                .write("p0.w", "aa")
                .expect(cqe(9, 0), cqe(2, 2, buffer(1)), cqe(1, 2, buffer(0)))
                .build());
        all.add(Scenario.named("data: a cancelled READ reports the provided buffer it took, which is used up", "kbuf.c")
                .submit(provideBuffers(2, 64, 1, 0).ud(9))
                .submit(readSelect("p0.r", 1, 0).ud(1), cancel(1, 0).ud(2))
                .reap(3)
                .submit(removeBuffers(10, 1).ud(3))
                .expect(cqe(9, 0), cqe(2, 0), cqe(1, Scenarios.ECANCELED, buffer(0)), cqe(3, 1))
                .build());
        all.add(Scenario.named("data: a READ its link timeout cancels reports the provided buffer it took", "kbuf.c")
                .submit(provideBuffers(2, 64, 1, 0).ud(9))
                .submit(readSelect("p0.r", 1, 0).ud(1).link(), linkTimeout(20 * Scenarios.MS, 0).ud(2))
                .reap(3)
                .submit(removeBuffers(10, 1).ud(3))
                .expect(cqe(9, 0), cqe(2, Scenarios.ETIME), cqe(1, Scenarios.ECANCELED, buffer(0)), cqe(3, 1))
                .build());
        all.add(Scenario.named("data: an ASYNC READ cancelled while it waits reports the provided buffer it took",
                "kbuf.c")
                .submit(provideBuffers(2, 64, 1, 0).ud(9))
                .submit(readSelect("p0.r", 1, 0).async().ud(1))
                .quiet(50)
                .submit(cancel(1, 0).ud(2))
                .reap(2)
                .submit(removeBuffers(10, 1).ud(3))
                .expect(cqe(9, 0), cqe(2, 0), cqe(1, Scenarios.ECANCELED, buffer(0)), cqe(3, 1))
                .build());
        all.add(Scenario.named("data: a cancelled RECV holds no provided buffer while it waits", "kbuf.c")
                .submit(provideBuffers(2, 64, 1, 0).ud(9))
                .submit(recvSelect("s0.a", 1, 0).ud(1), cancel(1, 0).ud(2))
                .reap(3)
                .submit(removeBuffers(10, 1).ud(3))
                .expect(cqe(9, 0), cqe(2, 0), cqe(1, Scenarios.ECANCELED), cqe(3, 2))
                .build());
        all.add(Scenario.named("data: a WAITALL recv keeps its provided buffer while it waits for the rest", "kbuf.c")
                .submit(provideBuffers(2, 64, 1, 0).ud(9))
                .write("s0.b", bytes(10))
                .submit(recvSelect("s0.a", 1, 0).opFlags(MSG_WAITALL).ud(1))
                .quiet()
                .submit(readSelect("p0.r", 1, 0).ud(2))
                .write("p0.w", "abcde")
                .reap(1)
                .write("s0.b", bytes(54))
                .expect(cqe(9, 0), cqe(2, 5, buffer(1)), cqe(1, 64, buffer(0)))
                .build());
        all.add(Scenario.named("data: a cancelled WAITALL recv into a provided buffer reports its bytes and the buffer",
                "net.c io_sendrecv_fail")
                .submit(provideBuffers(1, 64, 1, 0).ud(9))
                .write("s0.b", bytes(10))
                .submit(recvSelect("s0.a", 1, 0).opFlags(MSG_WAITALL).ud(1))
                .quiet()
                .submit(cancel(1, 0).ud(2))
                .expect(cqe(9, 0), cqe(2, 0), cqe(1, 10, buffer(0)))
                .build());
        all.add(Scenario.named("data: a READ that fails after it took a buffer uses it up; one on no file takes none",
                "kbuf.c")
                .submit(provideBuffers(4, 64, 1, 0).ud(9))
                .submit(readSelect("p0.w", 1, 0).ud(1))
                .submit(readSelect("bad", 1, 0).ud(2))
                .submit(readSelect("p1.r", 1, 0).opFlags(RWF_NOWAIT).ud(3))
                .reap(4)
                .submit(removeBuffers(10, 1).ud(4))
                .expect(cqe(9, 0), cqe(1, Scenarios.EBADF, buffer(0)), cqe(2, Scenarios.EBADF),
                        cqe(3, EAGAIN, buffer(1)), cqe(4, 2))
                .build());
    }

    private static void addCloseInline(List<Scenario> all) {
        for (String fd : new String[] {"p0.r", "s0.a", "file"}) {
            all.add(Scenario.named("data: CLOSE of " + fd + " runs inline: a cancel in its submit finds nothing",
                    "openclose.c io_close")
                    .file("")
                    .submit(close(fd).ud(1), cancel(1, 0).ud(2))
                    .expect(cqe(1, 0), cqe(2, Scenarios.ENOENT))
                    .build());
        }
        all.add(Scenario.named("data: CLOSE of a number no file has is -EBADF inline", "openclose.c io_close")
                .submit(close("bad").ud(1), cancel(1, 0).ud(2))
                .expect(cqe(1, Scenarios.EBADF), cqe(2, Scenarios.ENOENT))
                .build());
    }
}

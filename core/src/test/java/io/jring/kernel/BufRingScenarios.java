package io.jring.kernel;

import static io.jring.kernel.CqeSpec.buffer;
import static io.jring.kernel.CqeSpec.cqe;
import static io.jring.kernel.SqeSpec.cancel;
import static io.jring.kernel.SqeSpec.custom;
import static io.jring.kernel.SqeSpec.provideBuffers;
import static io.jring.kernel.SqeSpec.removeBuffers;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Setup;
import io.jring.Sqe;
import io.jring.SqeFlags;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Issue 23: ring-mapped provided buffers (IORING_REGISTER_PBUF_RING, Linux 6.18's
 * io_uring/kbuf.c), multishot RECV and bundles (io_uring/net.c io_recv, io_recv_finish,
 * io_send, io_send_finish), mirroring liburing's test/buf-ring.c, recv-multishot.c and
 * recvsend_bundle.c. Every expectation was taken from the kernel.
 */
final class BufRingScenarios {
    private BufRingScenarios() {}

    static final int G = 7;
    static final int MMAP = 1;
    static final int INC = 2;
    static final int NONEMPTY = CqeFlags.SOCK_NONEMPTY;
    static final int MORE = CqeFlags.MORE;
    static final int BUF_MORE = CqeFlags.BUF_MORE;
    static final int ENOBUFS = -Errno.ENOBUFS;
    static final int EINVAL = -Errno.EINVAL;
    static final int MSG_WAITALL = 0x100;

    // ---------------------------------------------------------------- steps

    /** Registers a ring of {@code entries} for group {@code g} on fresh page-aligned memory; expects {@code expect}. */
    static BiFunction<RingDriver, ScenarioEnv, String> register(int g, int entries, int flags, int expect) {
        return (ring, env) -> {
            MemorySegment m = (flags & MMAP) != 0 ? null : env.pages(16L * Math.max(entries, 1));
            return check(ring.bufRings().register(m, entries, g, flags), expect);
        };
    }

    /** Registers on memory {@code shift} bytes into a page (not page-aligned when non-zero). */
    static BiFunction<RingDriver, ScenarioEnv, String> registerAt(int g, int entries, long shift, int expect) {
        return (ring, env) -> check(ring.bufRings().register(env.pages(16L * entries + 4096).asSlice(shift), entries,
                g, 0), expect);
    }

    /** Adds {@code count} fresh buffers of {@code len} bytes with ids from {@code firstBid}, then advances. */
    static BiFunction<RingDriver, ScenarioEnv, String> add(int g, int count, int len, int firstBid) {
        return (ring, env) -> {
            MemorySegment region = env.region((long) len * count);
            for (int i = 0; i < count; i++) {
                ring.bufRings().add(g, region.address() + (long) i * len, len, firstBid + i);
            }
            ring.bufRings().advance(g);
            return null;
        };
    }

    static BiFunction<RingDriver, ScenarioEnv, String> head(int g, int expect) {
        return (ring, env) -> check(ring.bufRings().head(g), expect);
    }

    static BiFunction<RingDriver, ScenarioEnv, String> unregister(int g, int expect) {
        return (ring, env) -> check(ring.bufRings().unregister(g), expect);
    }

    private static String check(int got, int expect) {
        return got == expect ? null : "returned " + name(got) + ", expected " + name(expect);
    }

    private static String name(int r) {
        return r < 0 ? "-" + Errno.name(r) : Integer.toString(r);
    }

    /** A scenario that starts with a ring of {@code count} buffers of {@code len} (ids 0..) for group G. */
    static Scenario.Builder withRing(String name, String mirrors, int entries, int flags, int count, int len) {
        return Scenario.named(name, mirrors)
                .step("register buffer ring group " + G + " (" + entries + " entries, flags " + flags + ")",
                        register(G, entries, flags, 0))
                .step("add " + count + " buffers of " + len + " to group " + G, add(G, count, len, 0));
    }

    // ---------------------------------------------------------------- SQEs

    static SqeSpec recvRing(String fd, int len) {
        return custom("RECV(" + fd + ", group " + G + ", " + len + ")",
                (w, e) -> w.prepRecv(e.fd(fd), null, 0).bufferGroup(G).len(len)).flags(SqeFlags.BUFFER_SELECT);
    }

    static SqeSpec recvIoprio(String fd, int ioprio, int len, int msgFlags) {
        return custom("RECV(" + fd + ", group " + G + ", " + len + ", ioprio 0x" + Integer.toHexString(ioprio)
                        + (msgFlags != 0 ? ", flags 0x" + Integer.toHexString(msgFlags) : "") + ")",
                (w, e) -> w.prepRecv(e.fd(fd), null, msgFlags).ioprio(ioprio).bufferGroup(G).len(len))
                .flags(SqeFlags.BUFFER_SELECT);
    }

    static SqeSpec recvMultishot(String fd) {
        return recvIoprio(fd, Sqe.RECV_MULTISHOT, 0, 0);
    }

    static SqeSpec recvBundle(String fd, int len) {
        return recvIoprio(fd, Sqe.RECVSEND_BUNDLE, len, 0);
    }

    static SqeSpec readRing(String fd, int len, long off) {
        return custom("READ(" + fd + ", group " + G + ", " + len + ", " + off + ")",
                (w, e) -> w.prepRead(e.fd(fd), null, off).bufferGroup(G).len(len)).flags(SqeFlags.BUFFER_SELECT);
    }

    static SqeSpec sendRing(String fd, int len, int ioprio) {
        return custom("SEND(" + fd + ", group " + G + ", " + len + ", ioprio 0x" + Integer.toHexString(ioprio) + ")",
                (w, e) -> w.prepSend(e.fd(fd), null, 0).ioprio(ioprio).bufferGroup(G).len(len))
                .flags(SqeFlags.BUFFER_SELECT);
    }

    static String bytes(int n) {
        return "x".repeat(n);
    }

    // ---------------------------------------------------------------- scenarios

    static void add(List<Scenario> all) {
        addRegistration(all);
        addSelection(all);
        addMultishot(all);
        addIncremental(all);
        addBundles(all);
    }

    private static void addRegistration(List<Scenario> all) {
        all.add(Scenario.named("bufring: register refuses bad sizes, flags and alignment", "buf-ring.c test_reg_unreg")
                .step("register 0 entries", register(G, 0, 0, EINVAL))
                .step("register 3 entries", register(G, 3, 0, EINVAL))
                .step("register 65536 entries", register(G, 65536, 0, EINVAL))
                .step("register flags 0x4", register(G, 8, 4, EINVAL))
                .step("register memory 8 bytes into a page", registerAt(G, 8, 8, EINVAL))
                .step("register 32768 entries", register(G, 32768, 0, 0))
                .build());
        all.add(Scenario.named("bufring: a group registered twice is -EEXIST", "buf-ring.c test_double_reg_unreg")
                .step("register", register(G, 8, 0, 0))
                .step("register again", register(G, 8, 0, -Errno.EEXIST))
                .step("unregister", unregister(G, 0))
                .step("unregister again", unregister(G, -Errno.ENOENT))
                .build());
        all.add(Scenario.named("bufring: a group with provided buffers cannot get a ring, an emptied one can",
                "buf-ring.c test_mixed_reg")
                .submit(provideBuffers(2, 64, G, 0).ud(1))
                .reap(1)
                .step("register over provided buffers", register(G, 8, 0, -Errno.EEXIST))
                .step("unregister a provided group", unregister(G, EINVAL))
                .step("head of a provided group", head(G, EINVAL))
                .submit(removeBuffers(2, G).ud(2))
                .reap(1)
                .step("register over the emptied group", register(G, 8, 0, 0))
                .expect(cqe(1, 0), cqe(2, 2))
                .build());
        all.add(Scenario.named("bufring: PROVIDE_BUFFERS and REMOVE_BUFFERS on a ring group are -EINVAL",
                "buf-ring.c test_mixed_reg2")
                .step("register", register(G, 8, 0, 0))
                .submit(provideBuffers(2, 64, G, 0).ud(1))
                .reap(1)
                .submit(removeBuffers(2, G).ud(2))
                .reap(1)
                .step("unregister", unregister(G, 0))
                .submit(removeBuffers(2, G).ud(3))
                .expect(cqe(1, EINVAL), cqe(2, EINVAL), cqe(3, -Errno.ENOENT))
                .build());
        all.add(Scenario.named("bufring: the head of an unknown group is -ENOENT, of a new ring 0", "buf-ring.c")
                .step("head of an unknown group", head(G, -Errno.ENOENT))
                .step("register", register(G, 8, 0, 0))
                .step("head", head(G, 0))
                .build());
        all.add(withRing("bufring: a ring the kernel allocates (IOU_PBUF_RING_MMAP) feeds a recv",
                "buf-ring.c test_running", 8, MMAP, 2, 64)
                .write("s0.b", "hello")
                .submit(recvRing("s0.a", 0).ud(1))
                .reap(1)
                .step("head", head(G, 1))
                .expect(cqe(1, 5, buffer(0)))
                .build());
    }

    private static void addSelection(List<Scenario> all) {
        all.add(withRing("bufring: a recv takes the head buffer; the head moves on", "buf-ring.c test_running",
                8, 0, 2, 64)
                .write("s0.b", "hello")
                .submit(recvRing("s0.a", 0).ud(1))
                .reap(1)
                .step("head", head(G, 1))
                .write("s0.b", "abc")
                .submit(recvRing("s0.a", 0).ud(2))
                .reap(1)
                .step("head", head(G, 2))
                .expect(cqe(1, 5, buffer(0)), cqe(2, 3, buffer(1)))
                .build());
        all.add(withRing("bufring: an empty ring is -ENOBUFS at once, data or not", "buf-ring.c test_empty",
                8, 0, 0, 64)
                .submit(recvRing("s0.a", 0).ud(1))
                .reap(1)
                .write("s0.b", "abc")
                .submit(recvRing("s0.a", 0).ud(2))
                .expect(cqe(1, ENOBUFS), cqe(2, ENOBUFS))
                .build());
        all.add(withRing("bufring: a recv that waits consumes no buffer until data comes", "kbuf.c io_kbuf_recycle",
                8, 0, 2, 64)
                .submit(recvRing("s0.a", 0).ud(1))
                .quiet()
                .step("head while it waits", head(G, 0))
                .write("s0.b", "abc")
                .reap(1)
                .step("head", head(G, 1))
                .expect(cqe(1, 3, buffer(0)))
                .build());
        all.add(withRing("bufring: a recv at EOF and a cancelled recv consume no buffer", "kbuf.c io_kbuf_recycle",
                8, 0, 2, 64)
                .submit(recvRing("s0.a", 0).ud(1), cancel(1, 0).ud(2))
                .reap(2)
                .close("s0.b")
                .submit(recvRing("s0.a", 0).ud(3))
                .reap(1)
                .step("head", head(G, 0))
                .expect(cqe(2, 0), cqe(1, Scenarios.ECANCELED), cqe(3, 0))
                .build());
        all.add(withRing("bufring: a recv's len caps the bytes, the whole buffer is consumed", "kbuf.c",
                8, 0, 2, 64)
                .write("s0.b", "hello")
                .submit(recvRing("s0.a", 3).ud(1))
                .reap(1)
                .step("head", head(G, 1))
                .expect(cqe(1, 3, buffer(0) | NONEMPTY))
                .build());
        all.add(withRing("bufring: a READ waiting on a pipe gives its buffer back, a recv meanwhile takes it",
                "kbuf.c io_kbuf_recycle_ring", 8, 0, 2, 64)
                .submit(readRing("p0.r", 0, -1).ud(1))
                .quiet()
                .write("s0.b", "bb")
                .submit(recvRing("s0.a", 0).ud(2))
                .reap(1)
                .write("p0.w", "aa")
                .expect(cqe(2, 2, buffer(0)), cqe(1, 2, buffer(1)))
                .build());
        all.add(withRing("bufring: a READ of a file commits at selection, EOF too", "kbuf.c io_should_commit",
                8, 0, 2, 64)
                .file("0123456789")
                .submit(readRing("file", 0, 0).ud(1))
                .reap(1)
                .submit(readRing("file", 0, 100).ud(2))
                .reap(1)
                .step("head", head(G, 2))
                .expect(cqe(1, 10, buffer(0)), cqe(2, 0, buffer(1)))
                .build());
        all.add(withRing("bufring: a READ that fails after selecting from a pipe consumes nothing",
                "rw.c io_read", 8, 0, 2, 64)
                .submit(readRing("p0.w", 0, -1).ud(1))
                .reap(1)
                .step("head", head(G, 0))
                .expect(cqe(1, Scenarios.EBADF))
                .build());
        all.add(withRing("bufring: an ASYNC recv cancelled while it waits", "kbuf.c io_should_commit",
                8, 0, 2, 64)
                .submit(recvRing("s0.a", 0).async().ud(1))
                .quiet(50)
                .submit(cancel(1, 0).ud(2))
                .reap(2)
                .step("head", head(G, 1))
                .expect(cqe(2, 0), cqe(1, Scenarios.ECANCELED, buffer(0)))
                .build());
        all.add(withRing("bufring: a WAITALL recv commits what it got and keeps its buffer", "net.c io_net_kbuf_recyle",
                8, 0, 2, 64)
                .write("s0.b", bytes(10))
                .submit(recvIoprio("s0.a", 0, 20, MSG_WAITALL).ud(1))
                .quiet()
                .step("head while it waits for the rest", head(G, 1))
                .write("s0.b", bytes(10))
                .expect(cqe(1, 20, buffer(0)))
                .build());
        all.add(withRing("bufring: a SEND takes a buffer and sends it", "net.c io_send", 8, 0, 2, 10)
                .submit(sendRing("s0.a", 0, 0).ud(1))
                .reap(1)
                .step("head", head(G, 1))
                .read("s0.b", 10)
                .expect(cqe(1, 10, buffer(0)))
                .build());
        all.add(Scenario.named("bufring: SEND with a provided buffer from a classic group sends the whole buffer",
                "net.c io_send_select_buffer")
                .submit(provideBuffers(1, 10, G, 3).ud(9))
                .submit(sendRing("s0.a", 4, 0).ud(1))
                .reap(2)
                .read("s0.b", 10)
                .expect(cqe(9, 0), cqe(1, 10, buffer(3)))
                .build());
        all.add(withRing("bufring: a SEND's len takes that much of the buffer", "net.c io_send_select_buffer",
                8, 0, 2, 10)
                .submit(sendRing("s0.a", 4, 0).ud(1))
                .reap(1)
                .step("head", head(G, 1))
                .read("s0.b", 4)
                .expect(cqe(1, 4, buffer(0)))
                .build());
        all.add(withRing("bufring: a SEND waiting for room holds its buffer; a cancel reports it",
                "kbuf.c io_buffers_select", 8, 0, 2, 10)
                .submit(SqeSpec.send("s0.a", bytes(1 << 20)).opFlags(0x40).skip().ud(9))
                .submit(sendRing("s0.a", 0, 0).ud(1))
                .quiet()
                .step("head while it waits", head(G, 1))
                .submit(cancel(1, 0).ud(2))
                .expect(cqe(2, 0), cqe(1, Scenarios.ECANCELED, buffer(0)))
                .build());
        all.add(withRing("bufring: a READ waiting on a pipe holds no buffer; a cancel reports none",
                "rw.c io_read", 8, 0, 2, 10)
                .submit(readRing("p0.r", 0, -1).ud(1))
                .quiet()
                .submit(cancel(1, 0).ud(2))
                .reap(2)
                .step("head", head(G, 0))
                .expect(cqe(2, 0), cqe(1, Scenarios.ECANCELED))
                .build());
        all.add(Scenario.named("bufring: SEND from a group that does not exist", "net.c io_send_select_buffer")
                .submit(sendRing("s0.a", 0, 0).ud(1), recvBundle("s0.a", 0).ud(2), recvRing("s0.a", 0).ud(3))
                .expect(cqe(1, -Errno.ENOENT), cqe(2, -Errno.ENOENT), cqe(3, ENOBUFS))
                .build());
    }

    private static void addMultishot(List<Scenario> all) {
        all.add(withRing("multishot: a CQE with MORE per arrival, -ENOBUFS without MORE when the ring runs out",
                "recv-multishot.c", 8, 0, 2, 64)
                .submit(recvMultishot("s0.a").ud(1))
                .write("s0.b", "a")
                .reap(1)
                .write("s0.b", "bb")
                .reap(1)
                .write("s0.b", "ccc")
                .expect(cqe(1, 1, buffer(0) | MORE), cqe(1, 2, buffer(1) | MORE), cqe(1, ENOBUFS))
                .build());
        all.add(withRing("multishot: data waiting at submit, then EOF ends it with 0", "recv-multishot.c",
                8, 0, 4, 64)
                .write("s0.b", "abc")
                .submit(recvMultishot("s0.a").ud(1))
                .reap(1)
                .close("s0.b")
                .reap(1)
                .step("head", head(G, 1))
                .expect(cqe(1, 3, buffer(0) | MORE), cqe(1, 0))
                .build());
        all.add(withRing("multishot: data and the peer's close seen at once: the data, then 0", "recv-multishot.c",
                8, 0, 4, 64)
                .submit(recvMultishot("s0.a").ud(1))
                .quiet()
                .write("s0.b", "abc")
                .close("s0.b")
                .expect(cqe(1, 3, buffer(0) | MORE), cqe(1, 0))
                .build());
        all.add(withRing("multishot: a cancel ends it with -ECANCELED", "recv-multishot.c", 8, 0, 4, 64)
                .submit(recvMultishot("s0.a").ud(1))
                .write("s0.b", "abc")
                .reap(1)
                .submit(cancel(1, 0).ud(2))
                .expect(cqe(1, 3, buffer(0) | MORE), cqe(2, 0), cqe(1, Scenarios.ECANCELED))
                .build());
        all.add(withRing("multishot: an empty ring ends it at submit with -ENOBUFS", "recv-multishot.c",
                8, 0, 0, 64)
                .submit(recvMultishot("s0.a").ud(1))
                .expect(cqe(1, ENOBUFS))
                .build());
        all.add(withRing("multishot: len caps each CQE; it goes on while the socket holds data", "recv-multishot.c",
                8, 0, 4, 64)
                .write("s0.b", "abcde")
                .submit(recvIoprio("s0.a", Sqe.RECV_MULTISHOT, 2, 0).ud(1))
                .expect(cqe(1, 2, buffer(0) | MORE | NONEMPTY), cqe(1, 2, buffer(1) | MORE | NONEMPTY),
                        cqe(1, 1, buffer(2) | MORE))
                .build());
        all.add(withRing("multishot: POLL_FIRST waits for data first", "recv-multishot.c", 8, 0, 4, 64)
                .submit(recvIoprio("s0.a", Sqe.RECV_MULTISHOT | Sqe.RECVSEND_POLL_FIRST, 0, 0).ud(1))
                .quiet()
                .write("s0.b", "ab")
                .expect(cqe(1, 2, buffer(0) | MORE))
                .build());
        all.add(Scenario.named("multishot: needs BUFFER_SELECT and refuses MSG_WAITALL; file_index is its byte limit",
                "net.c io_recvmsg_prep")
                .step("register", register(G, 8, 0, 0))
                .submit(custom("RECV(s0.a, 64) multishot, no buffer select",
                        (w, e) -> w.prepRecv(e.fd("s0.a"), e.buffer(64), 0).ioprio(Sqe.RECV_MULTISHOT)).ud(1))
                .submit(recvIoprio("s0.a", Sqe.RECV_MULTISHOT, 0, MSG_WAITALL).ud(2))
                .submit(custom("RECV(s0.a, group 7) file_index 10",
                        (w, e) -> w.prepRecv(e.fd("s0.a"), null, 0).bufferGroup(G).fileIndex(10))
                        .flags(SqeFlags.BUFFER_SELECT).ud(3))
                .submit(custom("RECV(s0.a, 10) file_index 10",
                        (w, e) -> w.prepRecv(e.fd("s0.a"), e.buffer(10), 0).fileIndex(10)).ud(4))
                .expect(cqe(1, EINVAL), cqe(2, EINVAL), cqe(3, EINVAL), cqe(4, EINVAL))
                .build());
        all.add(withRing("multishot: the byte limit in file_index ends it with the CQE that reaches it",
                "net.c io_recv_finish IORING_RECV_MSHOT_LIM", 8, 0, 4, 64)
                .write("s0.b", bytes(15))
                .submit(custom("RECV(s0.a, group 7) multishot, file_index 10",
                        (w, e) -> w.prepRecv(e.fd("s0.a"), null, 0).ioprio(Sqe.RECV_MULTISHOT).bufferGroup(G)
                                .fileIndex(10)).flags(SqeFlags.BUFFER_SELECT).ud(1))
                .reap(1)
                .write("s0.b", bytes(5))
                .quiet()
                .expect(cqe(1, 15, buffer(0)))
                .build());
        all.add(Scenario.named("multishot: classic provided buffers feed it too, -ENOBUFS when they run out",
                "recv-multishot.c")
                .submit(provideBuffers(2, 10, G, 0).ud(9))
                .submit(recvMultishot("s0.a").ud(1))
                .write("s0.b", bytes(5))
                .reap(2)
                .write("s0.b", bytes(5))
                .reap(1)
                .write("s0.b", bytes(5))
                .expect(cqe(9, 0), cqe(1, 5, buffer(0) | MORE), cqe(1, 5, buffer(1) | MORE), cqe(1, ENOBUFS))
                .build());
        // Only DEFER_TASKRUN defines when the second write is seen: a plain ring may run the
        // recv between the two writes.
        all.add(withRing("multishot: arrivals before the task runs share one CQE", "recv-multishot.c",
                8, 0, 4, 64)
                .rings(Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN)
                .submit(recvMultishot("s0.a").ud(1))
                .quiet()
                .write("s0.b", "a")
                .reap(1)
                .write("s0.b", "b")
                .write("s0.b", "c")
                .expect(cqe(1, 1, buffer(0) | MORE), cqe(1, 2, buffer(1) | MORE))
                .build());
    }

    private static void addIncremental(List<Scenario> all) {
        all.add(withRing("incremental: recvs share a buffer, BUF_MORE until it is used up",
                "buf-ring.c test_incremental", 8, INC, 2, 8)
                .write("s0.b", "abc")
                .submit(recvRing("s0.a", 0).ud(1))
                .reap(1)
                .write("s0.b", "de")
                .submit(recvRing("s0.a", 0).ud(2))
                .reap(1)
                .step("head while buffer 0 has room", head(G, 0))
                .write("s0.b", "fghij")
                .submit(recvRing("s0.a", 0).ud(3))
                .reap(1)
                .step("head", head(G, 1))
                .expect(cqe(1, 3, buffer(0) | BUF_MORE), cqe(2, 2, buffer(0) | BUF_MORE), cqe(3, 3, buffer(0) | NONEMPTY))
                .build());
        all.add(withRing("incremental: a multishot recv fills one buffer over several CQEs",
                "recv-inc-ooo.c", 8, INC, 2, 8)
                .submit(recvMultishot("s0.a").ud(1))
                .write("s0.b", "abc")
                .reap(1)
                .write("s0.b", "defgh")
                .reap(1)
                .write("s0.b", "ij")
                .reap(1)
                .step("head", head(G, 1))
                .expect(cqe(1, 3, buffer(0) | BUF_MORE | MORE), cqe(1, 5, buffer(0) | MORE),
                        cqe(1, 2, buffer(1) | BUF_MORE | MORE))
                .build());
        all.add(withRing("incremental: a recv at EOF leaves the buffer whole", "kbuf.c io_kbuf_inc_commit",
                8, INC, 1, 8)
                .close("s0.b")
                .submit(recvRing("s0.a", 0).ud(1))
                .reap(1)
                .step("head", head(G, 0))
                .expect(cqe(1, 0))
                .build());
    }

    private static void addBundles(List<Scenario> all) {
        all.add(withRing("bundle: a SEND bundle sends every buffer in one CQE, the first id", "recvsend_bundle.c",
                8, 0, 3, 10)
                .submit(sendRing("s0.a", 0, Sqe.RECVSEND_BUNDLE).ud(1))
                .reap(1)
                .step("head", head(G, 3))
                .read("s0.b", 30)
                .expect(cqe(1, 30, buffer(0)))
                .build());
        all.add(withRing("bundle: a SEND bundle with a length sends that many, then the rest in a second bundle",
                "recvsend_bundle.c", 8, 0, 3, 10)
                .submit(sendRing("s0.a", 20, Sqe.RECVSEND_BUNDLE).ud(1))
                .reap(2)
                .step("head", head(G, 3))
                .read("s0.b", 30)
                .expect(cqe(1, 20, buffer(0) | MORE), cqe(1, 10, buffer(2)))
                .build());
        all.add(withRing("bundle: a SEND bundle maps at most 256 buffers at a time", "kbuf.c PEEK_MAX_IMPORT",
                512, 0, 300, 10)
                .submit(sendRing("s0.a", 0, Sqe.RECVSEND_BUNDLE).ud(1))
                .reap(2)
                .step("head", head(G, 300))
                .expect(cqe(1, 2560, buffer(0) | MORE), cqe(1, 440, buffer(256)))
                .build());
        all.add(withRing("bundle: a SEND bundle that waits for room ends with its CQE, no further bundle",
                "net.c io_send_finish REQ_F_POLLED", 8, 0, 4, 10)
                .submit(SqeSpec.send("s0.a", bytes(1 << 20)).opFlags(0x40).skip().ud(9))
                .submit(sendRing("s0.a", 0, Sqe.RECVSEND_BUNDLE).ud(1))
                .quiet()
                .step("head while it waits", head(G, 4))
                .read("s0.b", 200_000)
                .expect(cqe(1, 40, buffer(0)))
                .build());
        all.add(Scenario.named("bundle: a SEND bundle without BUFFER_SELECT sends its data, then 0 bytes",
                "net.c io_send_finish")
                .submit(custom("SEND(s0.a, \"abc\") bundle, no buffer select",
                        (w, e) -> w.prepSend(e.fd("s0.a"), e.bytes("abc"), 0).ioprio(Sqe.RECVSEND_BUNDLE)).ud(1))
                .expect(cqe(1, 3, MORE), cqe(1, 0))
                .build());
        all.add(withRing("bundle: a RECV bundle fills buffers in a row, one CQE with the first id",
                "recvsend_bundle.c", 8, 0, 4, 10)
                .write("s0.b", bytes(25))
                .submit(recvBundle("s0.a", 0).ud(1))
                .reap(1)
                .step("head", head(G, 2))
                .expect(cqe(1, 20, buffer(0) | NONEMPTY))
                .build());
        all.add(withRing("bundle: a RECV bundle with a length leaves out a buffer it would only partly fill",
                "kbuf.c io_ring_buffers_peek", 8, 0, 4, 10)
                .write("s0.b", bytes(25))
                .submit(recvBundle("s0.a", 25).ud(1))
                .reap(1)
                .step("head", head(G, 2))
                .expect(cqe(1, 20, buffer(0) | NONEMPTY))
                .build());
        all.add(withRing("bundle: a RECV bundle stops at the ring's last buffer", "recvsend_bundle.c", 8, 0, 2, 10)
                .write("s0.b", bytes(30))
                .submit(recvBundle("s0.a", 0).ud(1))
                .reap(1)
                .step("head", head(G, 2))
                .expect(cqe(1, 20, buffer(0) | NONEMPTY))
                .build());
        all.add(withRing("bundle: an incremental RECV bundle ends partway into a buffer, BUF_MORE",
                "recvsend_bundle-inc.c", 8, INC, 4, 10)
                .write("s0.b", bytes(25))
                .submit(recvBundle("s0.a", 0).ud(1))
                .reap(1)
                .step("head", head(G, 2))
                .expect(cqe(1, 25, buffer(0) | BUF_MORE))
                .build());
        all.add(Scenario.named("bundle: a RECV bundle from classic buffers takes one at a time, one CQE",
                "recvsend_bundle.c")
                .submit(provideBuffers(3, 10, G, 0).ud(9))
                .write("s0.b", bytes(25))
                .submit(recvBundle("s0.a", 0).ud(1))
                .reap(2)
                .submit(removeBuffers(10, G).ud(2))
                .expect(cqe(9, 0), cqe(1, 20, buffer(0) | NONEMPTY), cqe(2, 1))
                .build());
        all.add(withRing("bundle: a RECV bundle on an empty ring is -ENOBUFS", "recvsend_bundle.c", 8, 0, 0, 10)
                .write("s0.b", bytes(5))
                .submit(recvBundle("s0.a", 0).ud(1))
                .expect(cqe(1, ENOBUFS))
                .build());
        all.add(withRing("bundle: a multishot RECV bundle ends when it used the ring's last buffer",
                "recvsend_bundle.c", 8, 0, 3, 10)
                .submit(recvIoprio("s0.a", Sqe.RECV_MULTISHOT | Sqe.RECVSEND_BUNDLE, 0, 0).ud(1))
                .write("s0.b", bytes(15))
                .reap(1)
                .write("s0.b", bytes(5))
                .expect(cqe(1, 15, buffer(0) | MORE), cqe(1, 5, buffer(2)))
                .build());
    }
}

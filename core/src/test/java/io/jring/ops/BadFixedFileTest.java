package io.jring.ops;

import static io.jring.ops.FileOps.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Cancel;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Poll;
import io.jring.Setup;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Descriptors;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A FIXED_FILE slot with no file (no table, an empty slot, an index past the table) fails
 * the request with -EBADF when it is issued, and submission goes on past it, as Linux 6.x
 * does (it looks fixed files up at issue; checked on this machine's 6.18 with liburing:
 * a bad fixed READ followed by two NOPs, io_uring_submit() = 3, CQEs -9, 0, 0).
 */
@Timeout(20)
class BadFixedFileTest {

    record Op(String name, BiConsumer<Sqe, MemorySegment> prep) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final int SLOT = 5;

    static Stream<Arguments> cases() {
        Op[] ops = {
            new Op("read", (s, b) -> s.prepRead(SLOT, b, 0)),
            new Op("write", (s, b) -> s.prepWrite(SLOT, b, 0)),
            new Op("readv", (s, b) -> s.prepReadv(SLOT, new MemorySegment[] {b}, 0)),
            new Op("fsync", (s, b) -> s.prepFsync(SLOT, 0)),
            new Op("recv", (s, b) -> s.prepRecv(SLOT, b, 0)),
            new Op("send", (s, b) -> s.prepSend(SLOT, b, 0)),
            new Op("poll add", (s, b) -> s.prepPollAdd(SLOT, Poll.IN)),
            new Op("accept", (s, b) -> s.prepAccept(SLOT, 0)),
            new Op("connect", (s, b) -> s.prepConnect(SLOT, new InetSocketAddress("127.0.0.1", 9))),
            new Op("shutdown", (s, b) -> s.prepShutdown(SLOT, 2)),
            new Op("cancel by fd", (s, b) -> s.prepCancelFd(SLOT, Cancel.FD)),
        };
        Stream.Builder<Arguments> all = Stream.builder();
        for (Op op : ops) {
            for (String table : new String[] {"no table", "empty slot", "past the table"}) {
                all.add(Arguments.of(op, table, 0));
                if (!op.name.startsWith("cancel")) {
                    all.add(Arguments.of(op, table, SqeFlags.ASYNC));
                }
            }
            all.add(Arguments.of(op, "no table", Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN));
        }
        return all.build();
    }

    @ParameterizedTest(name = "{0}, {1}, flags 0x{2}")
    @MethodSource("cases")
    void failsWithEbadfWhenIssuedAndSubmissionGoesOn(Op op, String table, int flags) {
        int setup = flags & (Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN);
        int sqeFlags = SqeFlags.FIXED_FILE | (flags & SqeFlags.ASYNC);
        try (Descriptors fds = new Descriptors();
             IoUring ring = IoUring.builder().entries(8).flags(setup).build(); Arena arena = Arena.ofConfined()) {
            int[] pipe = fds.pipe();
            switch (table) {
                case "empty slot" -> ring.registerFiles(new int[] {pipe[0], -1, -1, -1, -1, -1, -1, -1});
                case "past the table" -> ring.registerFiles(new int[] {pipe[0], pipe[1]});
                default -> { }
            }
            MemorySegment buf = arena.allocate(16);
            Sqe sqe = ring.getSqe();
            op.prep.accept(sqe, buf);
            sqe.userData(1).flags(sqeFlags);
            ring.getSqe().prepNop().userData(2);
            ring.getSqe().prepNop().userData(3);
            assertEquals(3, ring.submit(), "every SQE is consumed");
            assertEquals(Map.of(1L, -Errno.EBADF, 2L, 0, 3L, 0), results(ring, 3));
        }
    }

    /** Cancel by a descriptor that is not open: -EBADF, as Linux's (liburing probe on 6.18: -9), not -ENOENT. */
    @ParameterizedTest(name = "cancel flags 0x{0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {0, Cancel.ALL})
    void cancelByADescriptorThatIsNotOpenIsEbadf(int cancelFlags) {
        int[] pipe = Fds.pipe();
        Fds.close(pipe[0]);
        Fds.close(pipe[1]);
        try (IoUring ring = IoUring.open(8)) {
            ring.getSqe().prepCancelFd(pipe[0], cancelFlags).userData(1);
            ring.getSqe().prepNop().userData(2);
            assertEquals(2, ring.submit());
            assertEquals(Map.of(1L, -Errno.EBADF, 2L, 0), results(ring, 2));
        }
    }

}

package io.jring;

import static io.jring.RingTestSupport.reap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jring.RingTestSupport.Completion;
import io.jring.testkit.RingTestSupport.Descriptors;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 16 B3/B8: MSG_RING validates as Linux 6.18's io_msg_ring_prep / io_msg_ring do.
 * At prep (the submit stops, the NOP after it stays queued): flag bits outside CQE_SKIP |
 * FLAGS_PASS, a buffer index. When issued (the submit goes on, no message is delivered):
 * the target (-EBADF without one, -EBADFD if it is no ring; with FIXED_FILE the fd names a
 * fixed-file slot, and a jring ring is never a file), an unknown command, CQE_SKIP or a
 * source slot on DATA, a file index on DATA without FLAGS_PASS, a length on SEND_FD, a
 * source slot that holds no file. Checked on the kernel by PrepIssueScenarios and
 * tool/anchors/prep_issue.c.
 */
@Timeout(20)
class MsgRingPrepIssueTest {
    private static final long TAIL = 99;
    private final IoUring ring = IoUring.open(16);
    private final Descriptors fds = new Descriptors();

    @AfterEach
    void close() {
        ring.close();
        fds.close();
    }

    /** The MSG_RING step, then a NOP with user data 99; returns the submit's value. */
    private int submitWithTail(Consumer<Sqe> step) {
        step.accept(ring.getSqe());
        ring.getSqe().prepNop().userData(TAIL);
        return ring.submit();
    }

    private void assertFailsAtPrep(Consumer<Sqe> step) {
        assertEquals(1, submitWithTail(step), "a prep failure ends the submit");
        assertEquals(List.of(new Completion(1, -Errno.EINVAL, 0)), reap(ring, 1));
        assertEquals(1, ring.submit(), "the NOP after it was still queued");
        assertEquals(List.of(new Completion(TAIL, 0, 0)), reap(ring, 1));
    }

    /** Fails with {@code -errno} when issued: the submit goes on and no message arrives. */
    private void assertFailsWhenIssued(int errno, Consumer<Sqe> step) {
        assertEquals(2, submitWithTail(step), "an issue-time failure does not end the submit");
        assertEquals(List.of(new Completion(1, -errno, 0), new Completion(TAIL, 0, 0)), reap(ring, 2));
        assertNull(ring.peekCqe(), "no message was delivered");
    }

    @Test
    void unknownFlagBitsAndABufferIndexFailAtPrep() {
        assertFailsAtPrep(s -> s.prepMsgRing(ring, 5, 77, 4).userData(1));
        assertFailsAtPrep(s -> s.prepMsgRing(ring, 5, 77, 0).bufIndex(1).userData(1));
    }

    @Test
    void dataWithCqeSkipASourceSlotOrAFileIndexWithoutFlagsPassFailsWhenIssued() {
        assertFailsWhenIssued(Errno.EINVAL, s -> s.prepMsgRing(ring, 5, 77, MsgRing.CQE_SKIP).userData(1));
        assertFailsWhenIssued(Errno.EINVAL, s -> s.prepMsgRing(ring, 5, 77, 0).addr3(5).userData(1));
        assertFailsWhenIssued(Errno.EINVAL, s -> s.prepMsgRing(ring, 5, 77, 0).fileIndex(5).userData(1));
    }

    @Test
    void anUnknownCommandFailsWhenIssued() {
        assertFailsWhenIssued(Errno.EINVAL, s -> s.prepMsgRing(ring, 5, 77, 0).addr2(5).userData(1));
    }

    @Test
    void noTargetIsEbadfAndATargetThatIsNoRingIsEbadfdWhenIssued() {
        assertFailsWhenIssued(Errno.EBADF, s -> s.prepMsgRing(null, 5, 77, 0).userData(1));
        assertFailsWhenIssued(Errno.EBADFD, s -> s.prepMsgRing(null, 5, 77, 0).arg("no ring").userData(1));
    }

    @Test
    void fixedFileNamesASlotThatNeverHoldsARing() {
        assertFailsWhenIssued(Errno.EBADF,
                s -> s.prepMsgRing(ring, 5, 77, 0).fd(0).flags(SqeFlags.FIXED_FILE).userData(1));
        int[] pipe = fds.pipe();
        ring.registerFiles(new int[] {pipe[0]});
        assertFailsWhenIssued(Errno.EBADF,
                s -> s.prepMsgRing(ring, 5, 77, 0).fd(3).flags(SqeFlags.FIXED_FILE).userData(1));
        assertFailsWhenIssued(Errno.EBADFD,
                s -> s.prepMsgRing(ring, 5, 77, 0).fd(0).flags(SqeFlags.FIXED_FILE).userData(1));
    }

    @Test
    void sendFdTakesFlagsPassAndRefusesALengthOrAnEmptySourceWhenIssued() {
        int[] pipe = fds.pipe();
        ring.registerFiles(new int[] {pipe[0]});
        try (IoUring target = IoUring.open(8)) {
            target.registerFiles(new int[] {-1, -1});
            assertFailsWhenIssued(Errno.EINVAL, s -> s.prepMsgRingFd(target, 0, 0, 7, 0).len(1).userData(1));
            assertFailsWhenIssued(Errno.EBADF, s -> s.prepMsgRingFd(target, 0, 0, 7, 0).addr3(0xFFFF_FFFFL)
                    .userData(1));
            assertEquals(2, submitWithTail(s -> s.prepMsgRingFd(target, 0, 1, 7, MsgRing.FLAGS_PASS).userData(1)));
            assertEquals(List.of(new Completion(1, 0, 0), new Completion(TAIL, 0, 0)), reap(ring, 2));
            assertEquals(List.of(new Completion(7, 0, 0)), reap(target, 1));
        }
    }
}

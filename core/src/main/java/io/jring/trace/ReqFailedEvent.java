package io.jring.trace;

import io.jring.Errno;
import io.jring.Opcode;
import io.jring.SqeFlags;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Throttle;

/**
 * A request failed: its SQE was invalid (the kernel's io_uring_req_failed), or the op itself
 * hit an unexpected error ({@link #isFailure}). On by default, since failures are rare in a
 * healthy program; throttled to 100 events a second so an error storm cannot flood a
 * recording ({@code jring.ReqFailed#throttle=off} records them all).
 */
@Name("jring.ReqFailed")
@Label("ReqFailed")
@Category({"jring"})
@Description("A request failed: an invalid SQE, or an unexpected error of the op itself "
        + "(not a timeout expiring, a cancellation, or another outcome the application asked for).")
@StackTrace(false)
@Throttle("100/s")
public final class ReqFailedEvent extends Event {
    @Label("Ring") public int ring;
    @Label("Opcode") public String opcode;
    @Label("User Data") public long userData;
    @Label("Errno") public String errno;
    @Label("Reason") public String reason;

    /**
     * Whether a request that ran and completed with {@code res} (negative) failed, rather
     * than ended the way the application asked for: not a cancellation (-ECANCELED, or
     * -EINTR of a request a cancel interrupted), not a TIMEOUT or LINK_TIMEOUT's result
     * (-ETIME, or what the link timeout's cancel found), not "nothing to cancel" of a cancel
     * or remove (-ENOENT, -EALREADY), not -EAGAIN (only a request told not to wait posts
     * it), not -ENOBUFS of a BUFFER_SELECT request (its group ran out: flow control).
     */
    public static boolean isFailure(int opcode, int res, int sqeFlags, boolean cancelRequested) {
        if (res == -Errno.ECANCELED || res == -Errno.EAGAIN || (res == -Errno.EINTR && cancelRequested)) {
            return false;
        }
        return switch (opcode) {
            case Opcode.TIMEOUT -> res != -Errno.ETIME;
            case Opcode.LINK_TIMEOUT -> false;
            case Opcode.ASYNC_CANCEL, Opcode.TIMEOUT_REMOVE, Opcode.POLL_REMOVE ->
                    res != -Errno.ENOENT && res != -Errno.EALREADY;
            default -> res != -Errno.ENOBUFS || (sqeFlags & SqeFlags.BUFFER_SELECT) == 0;
        };
    }
}

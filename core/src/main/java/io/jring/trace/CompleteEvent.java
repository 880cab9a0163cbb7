package io.jring.trace;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A request posted its CQE (io_uring_complete).
 * <p>Per-request (hot path) event: off unless enabled explicitly, like a kernel
 * tracepoint, e.g. {@code -XX:StartFlightRecording:+jring.Complete#enabled=true}.
 */
@Name("jring.Complete")
@Label("Complete")
@Category({"jring"})
@Description("A request posted its CQE (io_uring_complete).")
@StackTrace(false)
@Enabled(false)
public final class CompleteEvent extends Event {
    @Label("Ring") public int ring;
    @Label("User Data") public long userData;
    @Label("Result") public int res;
    @Label("CQE Flags") public int cflags;
}

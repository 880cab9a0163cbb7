package io.jring.trace;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * An SQE became a request (the kernel's io_uring_submit_req tracepoint).
 * <p>Per-request (hot path) event: off unless enabled explicitly, like a kernel
 * tracepoint, e.g. {@code -XX:StartFlightRecording:+jring.SubmitSqe#enabled=true}.
 */
@Name("jring.SubmitSqe")
@Label("SubmitSqe")
@Category({"jring"})
@Description("An SQE became a request (the kernel's io_uring_submit_req tracepoint).")
@StackTrace(false)
@Enabled(false)
public final class SubmitSqeEvent extends Event {
    @Label("Ring") public int ring;
    @Label("Opcode") public String opcode;
    @Label("User Data") public long userData;
    @Label("SQE Flags") public int flags;
}

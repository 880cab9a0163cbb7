package io.jring.trace;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A task ran its pending task work (io_uring_task_work_run): items run and take loops.
 * <p>Per-request (hot path) event: off unless enabled explicitly, like a kernel
 * tracepoint, e.g. {@code -XX:StartFlightRecording:+jring.TaskWorkRun#enabled=true}.
 */
@Name("jring.TaskWorkRun")
@Label("TaskWorkRun")
@Category({"jring"})
@Description("A task ran its pending task work (io_uring_task_work_run): items run and take loops.")
@StackTrace(false)
@Enabled(false)
public final class TaskWorkRunEvent extends Event {
    @Label("Count") public int count;
    @Label("Loops") public int loops;
    @Label("Cancel Mode") public boolean cancel;
}

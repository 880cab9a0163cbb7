package io.jring.trace;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Task work added to a task's own list (io_uring_task_add); a DEFER_TASKRUN ring's local
 * list does not report its adds.
 * <p>Per-request (hot path) event: off unless enabled explicitly, like a kernel
 * tracepoint, e.g. {@code -XX:StartFlightRecording:+jring.TaskAdd#enabled=true}.
 */
@Name("jring.TaskAdd")
@Label("TaskAdd")
@Category({"jring"})
@Description("Task work added to a task (io_uring_task_add).")
@StackTrace(false)
@Enabled(false)
public final class TaskAddEvent extends Event {
    @Label("Completion Work") public boolean completionWork;
    @Label("Woke Owner") public boolean wokeOwner;
}

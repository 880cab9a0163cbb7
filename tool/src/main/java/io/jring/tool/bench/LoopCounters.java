package io.jring.tool.bench;

import io.jring.tool.report.ThreadCpu;
import io.jring.tw.TaskContext;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a bench loop thread costs besides its rate: the CPU time it used, the wakeups other
 * threads delivered to its task (unparks or eventfd writes), and the times it really slept
 * (Linux's voluntary context switches of the thread: a park that blocked), and the bytes it
 * allocated (HotSpot's per-thread allocation counter; steady state should be 0). Used to tell
 * sleep/wake traffic from per-message work in the MSG_RING bench. The loop thread
 * {@link #register}s itself; the controller takes {@link #snapshot}s around the measured
 * window.
 */
final class LoopCounters {

    /** One moment's values; -1 where the platform cannot tell. */
    record Snapshot(long cpuNanos, long wakeups, long sleeps, long allocatedBytes) {
        Snapshot minus(Snapshot o) {
            return new Snapshot(diff(cpuNanos, o.cpuNanos), wakeups - o.wakeups, diff(sleeps, o.sleeps),
                    diff(allocatedBytes, o.allocatedBytes));
        }

        Snapshot plus(Snapshot o) {
            return new Snapshot(sum(cpuNanos, o.cpuNanos), wakeups + o.wakeups, sum(sleeps, o.sleeps),
                    sum(allocatedBytes, o.allocatedBytes));
        }

        private static long diff(long a, long b) {
            return a < 0 || b < 0 ? -1L : a - b;
        }

        private static long sum(long a, long b) {
            return a < 0 || b < 0 ? -1L : a + b;
        }
    }

    /**
     * Written once by the loop thread before the bench's start barrier, read by the
     * controller after it (the barrier orders them): plain.
     */
    private Thread thread;
    private TaskContext task;
    /** /proc/self/task/&lt;tid&gt;/status of the loop thread, or null if there is none. */
    private Path status;

    /** Loop thread, before the start barrier. */
    void register() {
        thread = Thread.currentThread();
        task = TaskContext.current();
        try {
            // "/proc/thread-self" -> "<pid>/task/<tid>": the thread's native id, which Java does not give.
            status = Path.of("/proc").resolve(Files.readSymbolicLink(Path.of("/proc/thread-self"))).resolve("status");
        } catch (IOException | UnsupportedOperationException e) {
            status = null;
        }
    }

    /** Controller: the loop's counters now (the wakeup count is a racy read of a counter: fine here). */
    Snapshot snapshot() {
        return new Snapshot(ThreadCpu.of(thread), task.wakeups(), voluntarySwitches(), allocatedBytes());
    }

    private long allocatedBytes() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
                && t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled()) {
            return t.getThreadAllocatedBytes(thread.threadId());
        }
        return -1L;
    }

    private long voluntarySwitches() {
        if (status == null) {
            return -1L;
        }
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("voluntary_ctxt_switches:")) {
                    return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1L;
        }
        return -1L;
    }
}

package io.jring.tool.report;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * A thread's CPU time from the JVM's thread CPU clock: how much of a measured window a loop
 * was really on a CPU, the steadier figure on a shared machine. {@code -1} wherever the JVM
 * cannot tell, so callers print "-" rather than a wrong number.
 */
public final class ThreadCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ThreadCpu() {}

    /** CPU time of the calling thread in ns, or -1. */
    public static long ofCurrentThread() {
        if (!THREADS.isCurrentThreadCpuTimeSupported() || !enabled()) {
            return -1L;
        }
        return THREADS.getCurrentThreadCpuTime();
    }

    /** CPU time of a live thread in ns, or -1 (also once it has ended). */
    public static long of(Thread t) {
        if (!THREADS.isThreadCpuTimeSupported() || !enabled()) {
            return -1L;
        }
        return THREADS.getThreadCpuTime(t.threadId());
    }

    /** Switches the clock on if it is off (HotSpot has it on by default); false if that is not allowed. */
    private static boolean enabled() {
        try {
            if (!THREADS.isThreadCpuTimeEnabled()) {
                THREADS.setThreadCpuTimeEnabled(true);
            }
            return true;
        } catch (UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }
}

package io.jring.tool.fio;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * fio's per-job rusage ({@code RUSAGE_THREAD}): user and system CPU time, context switches
 * and page faults of the calling thread, from the JVM's thread CPU clock and
 * {@code /proc/thread-self}. A snapshot; {@link #since} gives what happened in between.
 * Threads an engine uses besides the job's own (AsynchronousFileChannel's pool, io-wq
 * workers) are not included, as fio's numbers do not include kernel workers either.
 */
record CpuUsage(long userNanos, long systemNanos, long contextSwitches, long minorFaults, long majorFaults) {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    static CpuUsage ofCurrentThread() {
        long cpu = THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : 0L;
        long user = THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadUserTime() : 0L;
        long ctx = 0;
        long minflt = 0;
        long majflt = 0;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
                if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                    ctx += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            // Fields after the ")" closing the command name: state is field 3, minflt 10, majflt 12.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            minflt = Long.parseLong(f[7]);
            majflt = Long.parseLong(f[9]);
        } catch (IOException | RuntimeException notLinux) {
            // informative only: zeros
        }
        return new CpuUsage(user, Math.max(0, cpu - user), ctx, minflt, majflt);
    }

    CpuUsage since(CpuUsage start) {
        return new CpuUsage(userNanos - start.userNanos, systemNanos - start.systemNanos,
                contextSwitches - start.contextSwitches, minorFaults - start.minorFaults, majorFaults - start.majorFaults);
    }
}

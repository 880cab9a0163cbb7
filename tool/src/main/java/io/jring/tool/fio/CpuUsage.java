package io.jring.tool.fio;

import io.jring.tool.report.ThreadCpu;

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

    /**
     * A snapshot taken right before a job's clock starts: the counters first, the CPU clocks
     * last, so the CPU this snapshot itself spends reading /proc is not counted as the job's.
     */
    static CpuUsage atStart() {
        long[] counters = counters();
        long cpu = threadCpuNanos();
        long user = threadUserNanos();
        return new CpuUsage(user, cpu - user, counters[0], counters[1], counters[2]);
    }

    /** A snapshot taken right after a job's clock stopped: the CPU clocks first, then the counters. */
    static CpuUsage atEnd() {
        long cpu = threadCpuNanos();
        long user = threadUserNanos();
        long[] counters = counters();
        return new CpuUsage(user, cpu - user, counters[0], counters[1], counters[2]);
    }

    /**
     * fio's usr_cpu/sys_cpu: {@code cpuNanos} as a percentage of the job's total run time,
     * 0 when the job ran for less than a millisecond (fio keeps total_run_time in msec and
     * reports 0% for none), so a job that failed at once never shows more than all of a CPU.
     */
    static double percentOf(long cpuNanos, long runNanos) {
        return runNanos < 1_000_000L ? 0.0 : cpuNanos * 100.0 / runNanos;
    }

    private static long threadCpuNanos() {
        return Math.max(ThreadCpu.ofCurrentThread(), 0L);
    }

    private static long threadUserNanos() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadUserTime() : 0L;
    }

    /** Context switches, minor and major faults of the calling thread. */
    private static long[] counters() {
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
        return new long[] {ctx, minflt, majflt};
    }

    CpuUsage plus(CpuUsage o) {
        return new CpuUsage(userNanos + o.userNanos, systemNanos + o.systemNanos, contextSwitches + o.contextSwitches,
                minorFaults + o.minorFaults, majorFaults + o.majorFaults);
    }

    /**
     * What happened since {@code start}. The thread's total CPU clock is exact, its user time
     * counts in scheduler ticks: the user share is kept within the total, the system time is
     * the rest, so neither is ever negative.
     */
    CpuUsage since(CpuUsage start) {
        long cpu = Math.max(0, (userNanos + systemNanos) - (start.userNanos + start.systemNanos));
        long user = Math.min(cpu, Math.max(0, userNanos - start.userNanos));
        return new CpuUsage(user, cpu - user, contextSwitches - start.contextSwitches, minorFaults - start.minorFaults,
                majorFaults - start.majorFaults);
    }
}

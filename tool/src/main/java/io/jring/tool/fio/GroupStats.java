package io.jring.tool.fio;

import java.util.List;

/**
 * fio's {@code group_run_stats} for one reporting group: per direction the total bytes, the
 * aggregate bandwidth over the longest job, the slowest and fastest entry's bandwidth and the
 * shortest and longest run time (with group_reporting the group is one entry, as in fio).
 */
final class GroupStats {
    final long[] ioBytes = new long[2];
    /** Aggregate bandwidth, bytes/s: all bytes over the longest run. */
    final long[] agg = new long[2];
    final long[] minBw = {Long.MAX_VALUE, Long.MAX_VALUE};
    final long[] maxBw = new long[2];
    final long[] minRunMs = {Long.MAX_VALUE, Long.MAX_VALUE};
    final long[] maxRunMs = new long[2];

    /** The stats of group {@code groupId} over the report's entries. */
    static GroupStats of(List<ReportedJob> entries, int groupId) {
        GroupStats g = new GroupStats();
        for (ReportedJob entry : entries) {
            if (entry.groupId() != groupId) {
                continue;
            }
            for (int ddir = Ddir.READ; ddir <= Ddir.WRITE; ddir++) {
                DirStats d = entry.stats().dir(ddir);
                if (d.ios == 0) {
                    continue;
                }
                long runMs = runtimeMs(entry.stats());
                long bw = d.bytes * 1000 / runMs;
                g.ioBytes[ddir] += d.bytes;
                g.minBw[ddir] = Math.min(g.minBw[ddir], bw);
                g.maxBw[ddir] = Math.max(g.maxBw[ddir], bw);
                g.minRunMs[ddir] = Math.min(g.minRunMs[ddir], runMs);
                g.maxRunMs[ddir] = Math.max(g.maxRunMs[ddir], runMs);
            }
        }
        for (int ddir = Ddir.READ; ddir <= Ddir.WRITE; ddir++) {
            if (g.maxRunMs[ddir] > 0) {
                g.agg[ddir] = g.ioBytes[ddir] * 1000 / g.maxRunMs[ddir];
            } else {
                g.minBw[ddir] = 0;
                g.minRunMs[ddir] = 0;
            }
        }
        return g;
    }

    /** fio's runtime[ddir] in msec: at least 1, so rates never divide by zero. */
    static long runtimeMs(JobStats stats) {
        return Math.max(1, stats.runtimeNanos / 1_000_000);
    }
}

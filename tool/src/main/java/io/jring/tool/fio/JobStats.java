package io.jring.tool.fio;

/**
 * Everything fio reports about one job ({@code struct thread_stat}): per-direction numbers,
 * fsync latency, the depth, submit and complete distributions, CPU use, run times and the
 * first error. Written by the job's thread; read by the reports after the job ended.
 */
final class JobStats {
    final DirStats read = new DirStats();
    final DirStats write = new DirStats();
    final LatencyStat syncLat = new LatencyStat();
    /** fsyncs issued after the ramp (fio's total_io_u[DDIR_SYNC]); syncLat has every fsync and fdatasync. */
    long syncIos;

    /** fio's io_u_map: I/Os by depth at submission, buckets 1, 2, 4, 8, 16, 32, >=64. */
    final long[] depthMap = new long[7];
    /** fio's io_u_submit and io_u_complete: calls by batch size, buckets 0, 4, 8, 16, 32, 64, >64. */
    final long[] submitMap = new long[7];
    final long[] completeMap = new long[7];
    long totalSubmit;
    long totalComplete;

    /** Measured time: from the end of the ramp to the last completion. */
    long runtimeNanos;
    /** Whole job time, ramp included (fio's total_run_time, the base of the CPU percentages). */
    long totalRunNanos;
    CpuUsage cpu = new CpuUsage(0, 0, 0, 0, 0);

    /** First error (positive errno), 0 if none, and fio's description of it. */
    int error;
    String errorText = "";

    /**
     * Adds {@code o}, another job of the same group (fio's sum_thread_stats for
     * group_reporting): counts and CPU summed, latencies merged, rates summed, the longest
     * run time kept, the first error kept.
     */
    void add(JobStats o) {
        read.add(o.read);
        write.add(o.write);
        syncLat.add(o.syncLat);
        syncIos += o.syncIos;
        for (int i = 0; i < depthMap.length; i++) {
            depthMap[i] += o.depthMap[i];
            submitMap[i] += o.submitMap[i];
            completeMap[i] += o.completeMap[i];
        }
        totalSubmit += o.totalSubmit;
        totalComplete += o.totalComplete;
        runtimeNanos = Math.max(runtimeNanos, o.runtimeNanos);
        totalRunNanos += o.totalRunNanos;
        cpu = cpu.plus(o.cpu);
        if (error == 0 && o.error != 0) {
            error = o.error;
            errorText = o.errorText;
        }
    }

    DirStats dir(int ddir) {
        return ddir == Ddir.READ ? read : write;
    }

    /** {@code nr} I/Os were submitted in one call, leaving {@code depth} in flight. */
    void markSubmit(int nr, int depth) {
        depthMap[depthIndex(depth)] += nr;
        submitMap[batchIndex(nr)]++;
        totalSubmit++;
    }

    /** {@code nr} completions were reaped in one call. */
    void markComplete(int nr) {
        completeMap[batchIndex(nr)]++;
        totalComplete++;
    }

    /** fio's io_u_mark_depth buckets. */
    private static int depthIndex(int depth) {
        if (depth >= 64) {
            return 6;
        }
        if (depth >= 32) {
            return 5;
        }
        if (depth >= 16) {
            return 4;
        }
        if (depth >= 8) {
            return 3;
        }
        if (depth >= 4) {
            return 2;
        }
        return depth >= 2 ? 1 : 0;
    }

    /** fio's io_u_mark_submit/complete buckets: 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64. */
    private static int batchIndex(int nr) {
        if (nr <= 0) {
            return 0;
        }
        if (nr <= 4) {
            return 1;
        }
        if (nr <= 8) {
            return 2;
        }
        if (nr <= 16) {
            return 3;
        }
        if (nr <= 32) {
            return 4;
        }
        return nr <= 64 ? 5 : 6;
    }
}

package io.jring.tool.fio;

import java.util.Map;

/**
 * One job definition as fio's options give it (fio's {@code thread_options}), validated and
 * with the derived values resolved: batch sizes clamped to the depth, sync engines at depth 1.
 * {@code numjobs} clones of it run side by side.
 *
 * @param filename    the file to use as is, or null for a temp file per job (removed afterwards)
 * @param directory   where temp files go (java.io.tmpdir if null)
 * @param size        bytes of the file region the job works on (and does, without time_based)
 * @param runtimeNanos measured time after {@code rampNanos}; 0 = bounded by size only
 * @param iodepth     effective depth: 1 for the sync engines, as in fio
 * @param batchSubmit fio's iodepth_batch_submit, 1..iodepth
 * @param batchCompleteMin fio's iodepth_batch_complete_min, 0..iodepth
 * @param batchCompleteMax fio's iodepth_batch_complete_max, 1..iodepth
 * @param fsync       an fsync after every N writes (0 = never)
 * @param invalidate  drop the file's page cache before the job (posix_fadvise DONTNEED)
 * @param warm        read the file once before the job so it is page-cached
 * @param latPercentiles fio's lat_percentiles: percentiles of the total latency (slat + clat) too
 * @param randomMap fio's random map (default): each pass over the region uses every block once; false = norandommap
 * @param jitWarmupNanos how long each job runs its engine, unmeasured, before the run (0 = not at all)
 * @param waitSpinNanos jring only: the ring's {@code waitSpin} limit (0 = sleep at once)
 * @param givenOptions the options as typed, for fio's "job options" in the JSON output
 */
public record JobSpec(
        String name,
        String filename,
        String directory,
        long size,
        Rw rw,
        int rwmixread,
        int bs,
        int iodepth,
        int requestedIodepth,
        int batchSubmit,
        int batchCompleteMin,
        int batchCompleteMax,
        long runtimeNanos,
        boolean timeBased,
        long rampNanos,
        boolean direct,
        int numjobs,
        int fsync,
        boolean invalidate,
        boolean warm,
        String ioengine,
        boolean fixedBufs,
        boolean registerFiles,
        boolean latPercentiles,
        boolean randomMap,
        long jitWarmupNanos,
        long waitSpinNanos,
        Map<String, String> givenOptions) {

    /** Bytes the job issues before it stops when not time based: the file region, rounded down to bs. */
    public long ioLimit() {
        return size / bs * bs;
    }

    /** A JIT warm-up round's job: this one, time based for {@code nanos}, no ramp, no warm-up of its own. */
    JobSpec forJitWarmup(long nanos) {
        return new JobSpec(name, filename, directory, size, rw, rwmixread, bs, iodepth, requestedIodepth, batchSubmit,
                batchCompleteMin, batchCompleteMax, nanos, true, 0L, direct, numjobs, fsync, invalidate, warm,
                ioengine, fixedBufs, registerFiles, latPercentiles, randomMap, 0L, waitSpinNanos, givenOptions);
    }

    /** The whole planned duration, ramp included, or 0 when bounded by size only. */
    public long plannedNanos() {
        return runtimeNanos == 0 ? 0 : rampNanos + runtimeNanos;
    }
}

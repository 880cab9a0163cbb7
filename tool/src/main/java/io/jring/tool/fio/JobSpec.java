package io.jring.tool.fio;

import java.util.Map;

/**
 * One job definition as fio's options give it (fio's {@code thread_options}), validated and
 * with the derived values resolved: batch sizes clamped to the depth, sync engines at depth 1,
 * the region's size taken from the file when not given. {@code numjobs} clones of it run side
 * by side.
 *
 * @param name        the reported name: {@code name=}, or the job's name
 * @param jobName     the section's name (or {@code --name}'s value): names the job's files, {@code jobname.N.0}
 * @param filename    the file to use, or null for one file per clone named after the job
 * @param directory   where the files are (the working directory if null)
 * @param temporary   the demo's temp file: in java.io.tmpdir, removed afterwards
 * @param offset      fio's offset: where the region starts in the file
 * @param size        bytes of the region (fio's size, or the file's size from the offset)
 * @param ioSize      fio's io_size: bytes to do before stopping, 0 = size (a larger one wraps the region)
 * @param loops       passes over the region; the file is opened again for each
 * @param bs          block sizes per direction, fixed or ranges
 * @param runtimeNanos measured time after {@code rampNanos}; 0 = bounded by size only
 * @param iodepth     effective depth: 1 for the sync engines, as in fio
 * @param batchSubmit fio's iodepth_batch_submit, 1..iodepth
 * @param batchCompleteMin fio's iodepth_batch_complete_min, 0..iodepth
 * @param batchCompleteMax fio's iodepth_batch_complete_max, 1..iodepth
 * @param fsync       an fsync after every N writes (0 = never)
 * @param invalidate  fio's invalidate: drop the region's cached pages at every open (and, time
 *                    based and buffered, at every wrap)
 * @param fadviseHint the posix_fadvise advice given at every open
 * @param preRead     fio's pre_read: read the region once before the job so it is page-cached
 * @param latPercentiles fio's lat_percentiles: percentiles of the total latency (slat + clat) too
 * @param percentiles fio's percentile_list
 * @param randomMap   fio's random map (default): each pass over the region uses every block once; false = norandommap
 * @param randRepeat  fio's randrepeat: the same offsets on every run and every pass
 * @param randSeed    fio's randseed, the base of every job's seeds
 * @param stonewall   wait for the jobs before this one to end (and start a new group)
 * @param newGroup    start a new reporting group
 * @param groupReporting report the group as one job
 * @param unlink      remove the job's files afterwards
 * @param jitWarmupNanos how long each job runs its engine, unmeasured, before the run (0 = not at all)
 * @param waitSpinNanos jring only: the ring's {@code waitSpin} limit (0 = sleep at once)
 * @param givenOptions the job's own options as typed, for fio's "job options" in the JSON output
 * @param control     startdelay, number_ios and end_fsync
 */
public record JobSpec(
        String name,
        String jobName,
        String filename,
        String directory,
        boolean temporary,
        long offset,
        long size,
        long ioSize,
        int loops,
        Rw rw,
        int rwmixread,
        BlockSizes bs,
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
        FadviseHint fadviseHint,
        boolean preRead,
        String ioengine,
        boolean fixedBufs,
        boolean registerFiles,
        boolean latPercentiles,
        double[] percentiles,
        boolean randomMap,
        boolean randRepeat,
        long randSeed,
        boolean stonewall,
        boolean newGroup,
        boolean groupReporting,
        boolean unlink,
        long jitWarmupNanos,
        long waitSpinNanos,
        Map<String, String> givenOptions,
        JobControl control) {

    /** Bytes the job issues in all before it stops when not time based: fio's io_size (or size) times loops. */
    public long ioLimit() {
        return (ioSize > 0 ? ioSize : size) * loops;
    }

    /** The largest I/O of the job: the size of its buffers. */
    public int maxBs() {
        return bs.largest(rw);
    }

    /** A JIT warm-up round's job: this one, time based for {@code nanos}, no ramp, no warm-up of its own. */
    JobSpec forJitWarmup(long nanos) {
        return new JobSpec(name, jobName, filename, directory, temporary, offset, size, ioSize, 1, rw, rwmixread, bs,
                iodepth, requestedIodepth, batchSubmit, batchCompleteMin, batchCompleteMax, nanos, true, 0L, direct,
                numjobs, fsync, invalidate, fadviseHint, preRead, ioengine, fixedBufs, registerFiles, latPercentiles,
                percentiles, randomMap, randRepeat, randSeed, stonewall, newGroup, groupReporting, false, 0L,
                waitSpinNanos, givenOptions, JobControl.DEFAULT);
    }

    /** This job with its region and run time scaled down (for tests that run real job files in little time). */
    JobSpec scaledTo(long size, long runtimeNanos) {
        return new JobSpec(name, jobName, filename, directory, temporary, offset, size, ioSize == 0 ? 0 : size, loops, rw,
                rwmixread, bs, iodepth, requestedIodepth, batchSubmit, batchCompleteMin, batchCompleteMax, runtimeNanos,
                timeBased, rampNanos, direct, numjobs, fsync, invalidate, fadviseHint, preRead, ioengine, fixedBufs,
                registerFiles, latPercentiles, percentiles, randomMap, randRepeat, randSeed, stonewall, newGroup,
                groupReporting, unlink, jitWarmupNanos, waitSpinNanos, givenOptions, control);
    }

    /** The whole planned duration, ramp included, or 0 when bounded by size only. */
    public long plannedNanos() {
        return runtimeNanos == 0 ? 0 : rampNanos + runtimeNanos;
    }
}

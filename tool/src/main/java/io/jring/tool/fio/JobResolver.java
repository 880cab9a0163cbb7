package io.jring.tool.fio;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Validates one job's {@link FioOptions} and resolves them into a {@link JobSpec}, as fio's
 * {@code fixup_options} and {@code setup_files} do: engine names, block sizes, the region
 * (size from the file when not given), batch sizes clamped to the depth, pre_read turning
 * invalidate off. A bad value is an {@link IllegalArgumentException} whose message names the
 * option; what fio only warns about goes to {@code warnings}.
 */
final class JobResolver {
    private JobResolver() {}

    /** fio's io_uring engine is jring's ring; every other name is jring's own. */
    static String engine(String name) {
        if (name.equals("io_uring")) {
            return "jring";
        }
        if (!IoEngine.NAMES.contains(name)) {
            throw new IllegalArgumentException("ioengine=" + name + " is not a jring engine: use one of "
                    + String.join(", ", IoEngine.NAMES) + " (fio's io_uring is jring's ring: io_uring or jring)");
        }
        return name;
    }

    static JobSpec resolve(FioOptions o, String jobName, Map<String, String> given, boolean temporary, Consumer<String> warnings) {
        String engine = engine(o.ioengine);
        BlockSizes bs = o.bsrange != null ? BlockSizes.parseRange(o.bsrange) : BlockSizes.parseBs(o.bs);
        boolean direct = o.buffered != null ? !o.buffered : o.direct;
        if (direct && (bs.readMin() % 512 != 0 || bs.writeMin() % 512 != 0 || bs.readMax() % 512 != 0 || bs.writeMax() % 512 != 0)) {
            throw new IllegalArgumentException("direct=1 needs block sizes that are multiples of 512 (the logical block size)");
        }
        if (o.filename != null && o.filename.indexOf(':') >= 0) {
            throw new IllegalArgumentException("filename=" + o.filename + ": jring fio runs one file per job (fio's ':' list is not supported)");
        }
        requireRange("iodepth", o.iodepth, 1, 4096);
        requireRange("numjobs", o.numjobs, 1, 256);
        requireRange("loops", o.loops, 1, Integer.MAX_VALUE);
        requireRange("fsync", o.fsync, 0, Integer.MAX_VALUE);
        requireRange("number_ios", o.numberIos, 0, Long.MAX_VALUE);
        requireRange("fdatasync", o.fdatasync, 0, Integer.MAX_VALUE);
        int mix = o.rwmixread >= 0 ? o.rwmixread : o.rwmixwrite >= 0 ? 100 - o.rwmixwrite : 50;
        if (mix < 0 || mix > 100) {
            throw new IllegalArgumentException("rwmixread/rwmixwrite must be between 0 and 100");
        }
        boolean timeBased = o.timeBased;
        if (timeBased && o.runtimeNanos == 0) {
            warnings.accept(jobName + ": time_based needs a runtime; running until the I/O is done, as fio does");
            timeBased = false;
        }
        if (o.waitSpinNanos < 0 || o.waitSpinNanos > 1_000_000_000L) {
            throw new IllegalArgumentException("wait_spin must be between 0 and 1s");
        }
        if (o.batchSubmit < 0 || o.batchCompleteMin < 0 || o.batchCompleteMax < 0) {
            throw new IllegalArgumentException("iodepth_batch_* values must be >= 0");
        }
        String name = o.name != null ? o.name : jobName;
        long size = regionSize(o, temporary, bs.smallest(o.rw));
        if (size < bs.smallest(o.rw)) {
            throw new IllegalArgumentException("size (" + size + ") is smaller than the block size (" + bs.smallest(o.rw) + ")");
        }
        boolean sync = IoEngine.isSync(engine);
        int depth = sync ? 1 : o.iodepth;
        int submit = o.batchSubmit == 0 ? depth : Math.min(o.batchSubmit, depth);
        // fio's fixup_options: the max is raised to the min (so by default it is the min, 1);
        // its wait_for_completions reaps at least one when the queue is full.
        int completeMin = Math.min(o.batchCompleteMin, depth);
        int completeMax = Math.min(Math.max(Math.max(o.batchCompleteMax, o.batchCompleteMin), 1), depth);
        boolean invalidate = o.invalidate && !o.preRead;   // fio: pre_read turns invalidate off
        return new JobSpec(name, jobName, o.filename, o.directory, temporary, o.offset, size, o.ioSize, o.loops, o.rw, mix,
                bs, depth, o.iodepth, submit, completeMin, completeMax, o.runtimeNanos, timeBased, o.rampNanos, direct,
                o.numjobs, o.fsync, invalidate, o.fadviseHint, o.preRead, engine, o.fixedBufs, o.registerFiles,
                o.latPercentiles, percentiles(o.percentileList), !o.noRandomMap, o.randRepeat, seed(o), o.stonewall, o.newGroup, o.groupReporting, o.unlink,
                o.jitWarmupNanos, o.waitSpinNanos, given, new JobControl(o.startDelayNanos, o.numberIos, o.endFsync, o.fdatasync));
    }

    /** fio's default randseed (FIO_RANDSEED). */
    static final long DEFAULT_SEED = 0xb1899bedL;

    /** fio's setup_random_seeds: randseed=, else the default seed with randrepeat=1, else the system's randomness. */
    private static long seed(FioOptions o) {
        if (o.randSeed != null) {
            return o.randSeed;
        }
        return o.randRepeat ? DEFAULT_SEED : new java.security.SecureRandom().nextLong();
    }

    /**
     * fio: size=, a percentage of the existing file (fio's size_percent), or the existing
     * file's size after the offset; without either, fio says "you need to specify size=".
     */
    private static long regionSize(FioOptions o, boolean temporary, int minBs) {
        if (o.size.bytes() > 0) {
            return o.size.bytes();
        }
        if (o.filename != null && !temporary) {
            Path file = o.directory != null ? Path.of(o.directory).resolve(o.filename) : Path.of(o.filename);
            try {
                if (Files.isRegularFile(file) && Files.size(file) > o.offset) {
                    long fileSize = Files.size(file);
                    return o.size.percent() > 0 ? o.size.ofFile(fileSize, o.offset, minBs) : fileSize - o.offset;
                }
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read the size of " + file + ": " + ErrnoText.describe(e));
            }
        }
        if (o.size.percent() > 0) {
            throw new IllegalArgumentException("size=" + o.size.percent() + "% needs an existing file larger than the offset "
                    + "(it is a share of the file's size, as in fio)");
        }
        throw new IllegalArgumentException("you need to specify size= (as fio: no file of that size exists yet)");
    }

    /** fio's percentile_list: numbers in (0,100] separated by ':', at most 20; fio's default list without it. */
    static double[] percentiles(String list) {
        if (list == null) {
            return LatencyStat.PERCENTILES;
        }
        String[] parts = list.split(":");
        if (parts.length > 20) {
            throw new IllegalArgumentException("percentile_list takes at most 20 values, not " + parts.length);
        }
        double[] values = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                values[i] = Double.parseDouble(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("percentile_list=" + list + ": '" + parts[i] + "' is not a number");
            }
            if (!(values[i] > 0 && values[i] <= 100)) {
                throw new IllegalArgumentException("percentile_list=" + list + ": each value must be in (0,100], not " + parts[i]);
            }
        }
        java.util.Arrays.sort(values);   // fio sorts the list before it reports
        return values;
    }

    private static void requireRange(String option, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(option + " must be " + (max == Integer.MAX_VALUE ? "at least " + min
                    : "between " + min + " and " + max) + ", not " + value);
        }
    }
}

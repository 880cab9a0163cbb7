package io.jring.tool.fio;

import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * fio's job options, with fio's names, syntax ({@code --bs=4k}) and meanings. Defaults are
 * jring's: with none given, a 4k random read at depth 32 for 5 s on a 256 MiB page-cached
 * temp file, on the jring engine. Where they differ from fio's the description says so.
 * A picocli mixin; {@link #toSpec} validates and resolves it into a {@link JobSpec}.
 */
public final class FioOptions {

    @Option(names = "--name", paramLabel = "<name>", defaultValue = "jring", description = "Job name (default ${DEFAULT-VALUE}).")
    String name;

    @Option(names = "--filename", paramLabel = "<file>", description = "File to use; created and laid out if missing or smaller than --size, never removed. "
            + "Default: a temp file per job in --directory, removed afterwards.")
    String filename;

    @Option(names = "--directory", paramLabel = "<dir>", description = "Directory for the temp files (default: java.io.tmpdir).")
    String directory;

    @Option(names = "--size", paramLabel = "<size>", defaultValue = "256m", converter = FioUnits.Size.class,
            description = "File region per job, e.g. 4k, 256M, 1g; k = 1024 as in fio (default 256m).")
    long size;

    @Option(names = {"--rw", "--readwrite"}, defaultValue = "randread", converter = Rw.Converter.class,
            paramLabel = "read|write|randread|randwrite|rw|randrw",
            description = "I/O pattern (default ${DEFAULT-VALUE}; fio's default is read).")
    Rw rw;

    @Option(names = "--rwmixread", paramLabel = "<percent>", defaultValue = "-1", description = "Percent of reads in a mixed pattern (default 50).")
    int rwmixread;

    @Option(names = "--rwmixwrite", paramLabel = "<percent>", defaultValue = "-1", description = "Percent of writes in a mixed pattern (100 - rwmixread).")
    int rwmixwrite;

    @Option(names = {"--bs", "--blocksize"}, paramLabel = "<size>", defaultValue = "4k", converter = FioUnits.Size.class,
            description = "Block size of each I/O (default 4k).")
    long bs;

    @Option(names = "--iodepth", paramLabel = "<n>", defaultValue = "32",
            description = "I/Os kept in flight (default ${DEFAULT-VALUE}; fio's default is 1). The sync engines run at 1, as in fio.")
    int iodepth;

    @Option(names = {"--iodepth_batch_submit", "--iodepth_batch"}, paramLabel = "<n>", defaultValue = "1",
            description = "I/Os submitted at once; 0 = iodepth (default ${DEFAULT-VALUE}, as fio).")
    int batchSubmit;

    @Option(names = {"--iodepth_batch_complete", "--iodepth_batch_complete_min"}, paramLabel = "<n>", defaultValue = "1",
            description = "Least completions reaped at once when the queue is full (default ${DEFAULT-VALUE}, as fio).")
    int batchCompleteMin;

    @Option(names = "--iodepth_batch_complete_max", paramLabel = "<n>", defaultValue = "0",
            description = "Most completions reaped at once; never less than --iodepth_batch_complete_min, which is "
                    + "also the default (as fio: one completion per reap unless raised, e.g. to the iodepth).")
    int batchCompleteMax;

    @Option(names = "--runtime", paramLabel = "<time>", defaultValue = "5", converter = FioUnits.Time.class,
            description = "Run time in seconds, or with a us/ms/s/m/h suffix; 0 = until --size is done (default 5; fio's is 0).")
    long runtimeNanos;

    @Option(names = "--time_based", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "1", converter = FioUnits.Bool.class,
            description = "Run for --runtime even when --size is done (default 1; fio's is 0).")
    boolean timeBased;

    @Option(names = "--ramp_time", paramLabel = "<time>", defaultValue = "0", converter = FioUnits.Time.class,
            description = "Run this long before measuring (default 0).")
    long rampNanos;

    @Option(names = "--jit_warmup", paramLabel = "<time>", defaultValue = "10", converter = FioUnits.Time.class,
            description = "jring only: each job first runs its engine, unmeasured, until the JIT has compiled it "
                    + "(two rounds, each until the JIT is idle for 250 ms; the first at least 500 ms), at most this "
                    + "long, before the clock starts (fio's engines are compiled C); 0 = measure from the first I/O "
                    + "(default 10 s).")
    long jitWarmupNanos;

    @Option(names = "--wait_spin", paramLabel = "<time>", defaultValue = "50us", converter = FioUnits.Time.class,
            description = "jring only: the ring's waitSpin, the longest a wait with O_DIRECT I/O in flight spins for "
                    + "the device before it sleeps (adaptive: only while recent waits ended within it); 0 = sleep at "
                    + "once, as fio's engines do (default 50us, the ring's default).")
    long waitSpinNanos;

    @Option(names = "--direct", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0", converter = FioUnits.Bool.class,
            description = "1 = O_DIRECT (buffers aligned to 4096; bs a multiple of 512).")
    boolean direct;

    @Option(names = "--numjobs", paramLabel = "<n>", defaultValue = "1", description = "Clones of the job, each on its own thread (default ${DEFAULT-VALUE}).")
    int numjobs;

    @Option(names = "--fsync", paramLabel = "<n>", defaultValue = "0", description = "An fsync after every N writes (default 0 = never).")
    int fsync;

    @Option(names = "--invalidate", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0", converter = FioUnits.Bool.class,
            description = "1 = drop the file's page cache before the job (fio's default is 1; jring's is 0: "
                    + "its files are read once first so the run measures the page cache).")
    boolean invalidate;

    @Option(names = "--ioengine", defaultValue = "jring", paramLabel = "jring|psync|filechannel|afc",
            description = "jring: the jring ring (io_uring in Java); psync: one pread/pwrite per I/O through FFM; "
                    + "filechannel: JDK FileChannel positional I/O; afc: JDK AsynchronousFileChannel (default ${DEFAULT-VALUE}).")
    String ioengine;

    @Option(names = "--fixedbufs", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0", converter = FioUnits.Bool.class,
            description = "jring engine: registered buffers and READ_FIXED/WRITE_FIXED (as fio's io_uring option).")
    boolean fixedBufs;

    @Option(names = "--registerfiles", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0", converter = FioUnits.Bool.class,
            description = "jring engine: a registered file and SqeFlags.FIXED_FILE (as fio's io_uring option).")
    boolean registerFiles;

    @Option(names = "--lat_percentiles", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0",
            converter = FioUnits.Bool.class,
            description = "Also report percentiles of the total latency, submission included (as fio's option).")
    boolean latPercentiles;

    @Option(names = "--norandommap", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0",
            converter = FioUnits.Bool.class,
            description = "Random offsets without fio's random map: blocks may repeat before every block was used "
                    + "(default 0: as fio, each pass over the region uses every block once).")
    boolean noRandomMap;

    /** Validates and resolves the options; {@code parsed} supplies the options as typed (may be null). */
    public JobSpec toSpec(ParseResult parsed) {
        if (!IoEngine.NAMES.contains(ioengine)) {
            throw new IllegalArgumentException("--ioengine=" + ioengine + " is not a jring engine: use one of "
                    + String.join(", ", IoEngine.NAMES) + " (fio's io_uring is 'jring' here)");
        }
        if (bs <= 0 || bs > (64L << 20)) {
            throw new IllegalArgumentException("--bs must be between 1 and 64m, not " + bs);
        }
        if (size < bs) {
            throw new IllegalArgumentException("--size (" + size + ") must be at least --bs (" + bs + ")");
        }
        if (direct && bs % 512 != 0) {
            throw new IllegalArgumentException("--direct=1 needs --bs to be a multiple of 512 (the logical block size), not " + bs);
        }
        if (iodepth < 1 || iodepth > 4096) {
            throw new IllegalArgumentException("--iodepth must be between 1 and 4096, not " + iodepth);
        }
        if (numjobs < 1 || numjobs > 256) {
            throw new IllegalArgumentException("--numjobs must be between 1 and 256, not " + numjobs);
        }
        if (fsync < 0) {
            throw new IllegalArgumentException("--fsync must be >= 0, not " + fsync);
        }
        int mix = rwmixread >= 0 ? rwmixread : rwmixwrite >= 0 ? 100 - rwmixwrite : 50;
        if (mix < 0 || mix > 100) {
            throw new IllegalArgumentException("--rwmixread/--rwmixwrite must be between 0 and 100");
        }
        if (timeBased && runtimeNanos == 0) {
            throw new IllegalArgumentException("--time_based needs a --runtime > 0 (or --time_based=0 to run until --size is done)");
        }
        if (waitSpinNanos < 0 || waitSpinNanos > 1_000_000_000L) {
            throw new IllegalArgumentException("--wait_spin must be between 0 and 1s");
        }
        if (batchSubmit < 0 || batchCompleteMin < 0 || batchCompleteMax < 0) {
            throw new IllegalArgumentException("iodepth_batch_* values must be >= 0");
        }
        boolean sync = IoEngine.isSync(ioengine);
        int depth = sync ? 1 : iodepth;
        int submit = batchSubmit == 0 ? depth : Math.min(batchSubmit, depth);
        // fio's fixup_options: the max is raised to the min (so by default it is the min, 1);
        // its wait_for_completions reaps at least one when the queue is full.
        int completeMin = Math.min(batchCompleteMin, depth);
        int completeMax = Math.min(Math.max(Math.max(batchCompleteMax, batchCompleteMin), 1), depth);
        boolean warm = !direct && !invalidate;
        return new JobSpec(name, filename, directory, size, rw, mix, (int) bs, depth, iodepth, submit, completeMin,
                completeMax, runtimeNanos, timeBased, rampNanos, direct, numjobs, fsync, invalidate, warm, ioengine,
                fixedBufs, registerFiles, latPercentiles, !noRandomMap, jitWarmupNanos, waitSpinNanos, givenOptions(parsed));
    }

    /** The options as typed (name without dashes -> value), in order, as fio lists them in "job options". */
    static Map<String, String> givenOptions(ParseResult parsed) {
        Map<String, String> given = new LinkedHashMap<>();
        if (parsed == null) {
            return given;
        }
        for (OptionSpec o : parsed.matchedOptions()) {
            String key = o.names()[0].replaceFirst("^-+", "");
            if (key.equals("output-format") || key.equals("eta") || key.equals("help")) {
                continue;
            }
            given.put(key, String.join(",", o.originalStringValues()));
        }
        return given;
    }
}

package io.jring.tool.fio;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

import java.util.List;

/**
 * fio's job options, with fio's names, syntax ({@code --bs=4k} on the command line,
 * {@code bs=4k} in a job file) and fio's defaults; where jring's differ the description says
 * so. One instance holds one job's options: {@link #parse} reads them in order (defaults,
 * then [global], then the job's section; a repeated option: the last one wins, as in fio)
 * and {@link JobResolver} validates and resolves them into a {@link JobSpec}.
 */
public final class FioOptions {

    @Option(names = "--name", paramLabel = "<name>", description = "The job's name. On the command line it also starts a new job, as in fio.")
    String name;

    @Option(names = "--filename", paramLabel = "<file>", description = "The file to use; created and laid out if missing or too small. "
            + "Without it each clone gets its own file, <job name>.<clone>.0, in --directory, as in fio.")
    String filename;

    @Option(names = "--directory", paramLabel = "<dir>", description = "The directory of the job's files (default: the working directory).")
    String directory;

    @Option(names = "--size", paramLabel = "<size>|<n>%", defaultValue = "0", converter = RegionSize.Converter.class,
            description = "The region of the file the job works on, e.g. 256m or 1g (k = 1024, as in fio), or a "
                    + "percentage of the existing file (50%). Needed unless the file exists; then the default is the "
                    + "file's size from --offset.")
    RegionSize size;

    @Option(names = {"--io_size", "--io_limit"}, paramLabel = "<size>", defaultValue = "0", converter = FioUnits.Size.class,
            description = "The bytes to do before stopping; more than --size goes over the region again (default: --size).")
    long ioSize;

    @Option(names = "--offset", paramLabel = "<size>", defaultValue = "0", converter = FioUnits.Size.class,
            description = "Where the region starts in the file (default 0).")
    long offset;

    @Option(names = "--loops", paramLabel = "<n>", defaultValue = "1",
            description = "Passes over the region; the file is opened again, and invalidated again, for each (default 1).")
    int loops;

    @Option(names = {"--rw", "--readwrite"}, defaultValue = "read", converter = Rw.Converter.class,
            paramLabel = "read|write|randread|randwrite|rw|randrw",
            description = "The I/O pattern (default read).")
    Rw rw;

    @Option(names = "--rwmixread", paramLabel = "<percent>", defaultValue = "-1", description = "The percentage of reads in a mixed pattern (default 50).")
    int rwmixread;

    @Option(names = "--rwmixwrite", paramLabel = "<percent>", defaultValue = "-1", description = "The percentage of writes in a mixed pattern (100 - rwmixread).")
    int rwmixwrite;

    @Option(names = {"--bs", "--blocksize"}, paramLabel = "<size>[,<size>]", defaultValue = "4k",
            description = "The size of each I/O: one for all, or reads then writes (8k,32k); a range such as 4k-64k "
                    + "is taken as --bsrange (default 4k).")
    String bs;

    @Option(names = {"--bsrange", "--blocksize_range"}, paramLabel = "<min>-<max>[,<min>-<max>]",
            description = "Sizes drawn for each I/O between min and max, in multiples of min, as fio does.")
    String bsrange;

    @Option(names = "--iodepth", paramLabel = "<n>", defaultValue = "1",
            description = "The I/Os kept in flight (default 1). The sync engines always run at 1, as in fio.")
    int iodepth;

    @Option(names = {"--iodepth_batch_submit", "--iodepth_batch"}, paramLabel = "<n>", defaultValue = "1",
            description = "The I/Os submitted at once; 0 means iodepth (default 1).")
    int batchSubmit;

    @Option(names = {"--iodepth_batch_complete", "--iodepth_batch_complete_min"}, paramLabel = "<n>", defaultValue = "1",
            description = "The fewest completions reaped at once when the queue is full (default 1).")
    int batchCompleteMin;

    @Option(names = "--iodepth_batch_complete_max", paramLabel = "<n>", defaultValue = "0",
            description = "The most completions reaped at once; never less than --iodepth_batch_complete_min, "
                    + "which is also the default.")
    int batchCompleteMax;

    @Option(names = {"--runtime", "--timeout"}, paramLabel = "<time>", defaultValue = "0", converter = FioUnits.Time.class,
            description = "The longest the job runs, in seconds or with a us/ms/s/m/h suffix; 0 means until the I/O is done (default 0).")
    long runtimeNanos;

    @Option(names = "--time_based", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0", converter = FioUnits.Bool.class,
            description = "Run for the whole --runtime, going over the region again as often as needed (default 0).")
    boolean timeBased;

    @Option(names = "--ramp_time", paramLabel = "<time>", defaultValue = "0", converter = FioUnits.Time.class,
            description = "Run this long before measuring (default 0).")
    long rampNanos;

    @Option(names = "--direct", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0", converter = FioUnits.Bool.class,
            description = "1 means O_DIRECT: no page cache (buffers aligned to 4096, sizes a multiple of 512).")
    boolean direct;

    @Option(names = "--buffered", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", converter = FioUnits.Bool.class,
            description = "0 means --direct=1 (default 1).")
    Boolean buffered;

    @Option(names = "--numjobs", paramLabel = "<n>", defaultValue = "1", description = "Clones of the job, each on its own thread (default 1).")
    int numjobs;

    @Option(names = "--fsync", paramLabel = "<n>", defaultValue = "0", description = "An fsync after every N writes (default 0: never).")
    int fsync;

    @Option(names = "--fdatasync", paramLabel = "<n>", defaultValue = "0",
            description = "An fdatasync after every N writes (default 0: never); with --fsync too, an fsync due at the same write wins, as in fio.")
    int fdatasync;

    @Option(names = "--invalidate", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "1", converter = FioUnits.Bool.class,
            description = "Drop the region's cached pages (POSIX_FADV_DONTNEED) each time the file is opened, and at "
                    + "each wrap of a time based job, as fio does (default 1). 0 measures whatever is cached.")
    boolean invalidate;

    @Option(names = "--fadvise_hint", paramLabel = "0|1|random|sequential", defaultValue = "1", converter = FadviseHint.Converter.class,
            description = "The posix_fadvise advice at each open: 1 means POSIX_FADV_RANDOM for random patterns (no "
                    + "readahead) and POSIX_FADV_SEQUENTIAL otherwise, 0 means none (default 1). The filechannel and "
                    + "afc engines do not get it: the JDK does not expose their descriptor.")
    FadviseHint fadviseHint;

    @Option(names = "--pre_read", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0", converter = FioUnits.Bool.class,
            description = "Read the region once before the job, so it starts page-cached; implies --invalidate=0, as in fio (default 0).")
    boolean preRead;

    @Option(names = "--ioengine", defaultValue = "jring", paramLabel = "jring|io_uring|psync|filechannel|afc",
            description = "jring (also io_uring): jring's ring; psync: one pread/pwrite per I/O; filechannel: the JDK's "
                    + "FileChannel; afc: the JDK's AsynchronousFileChannel (default jring; fio's default is psync).")
    String ioengine;

    @Option(names = "--fixedbufs", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0", converter = FioUnits.Bool.class,
            description = "The jring engine: registered buffers and READ_FIXED/WRITE_FIXED, as fio's io_uring option.")
    boolean fixedBufs;

    @Option(names = "--registerfiles", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0", converter = FioUnits.Bool.class,
            description = "The jring engine: a registered file and IOSQE_FIXED_FILE, as fio's io_uring option.")
    boolean registerFiles;

    @Option(names = "--lat_percentiles", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0",
            converter = FioUnits.Bool.class,
            description = "Also report percentiles of the total latency, submission included.")
    boolean latPercentiles;

    @Option(names = "--percentile_list", paramLabel = "<p>[:<p>...]",
            description = "The latency percentiles to report, e.g. 50:99:99.9 (at most 20, each in (0,100]).")
    String percentileList;

    @Option(names = "--norandommap", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0",
            converter = FioUnits.Bool.class,
            description = "Random offsets without fio's random map: blocks may repeat before every block was used "
                    + "(default 0: each pass uses every block once).")
    boolean noRandomMap;

    @Option(names = "--randrepeat", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "1",
            converter = FioUnits.Bool.class,
            description = "The same random offsets on every run and every pass (default 1).")
    boolean randRepeat;

    @Option(names = "--randseed", paramLabel = "<n>", description = "The seed of the random offsets; repeatable even with --randrepeat=0.")
    Long randSeed;

    @Option(names = "--stonewall", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0",
            converter = FioUnits.Bool.class,
            description = "Wait for the jobs defined before this one to end before starting it; starts a new reporting group.")
    boolean stonewall;

    @Option(names = "--new_group", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0",
            converter = FioUnits.Bool.class, description = "Start a new reporting group with this job.")
    boolean newGroup;

    @Option(names = "--group_reporting", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0",
            converter = FioUnits.Bool.class, description = "Report each group as one job.")
    boolean groupReporting;

    @Option(names = "--thread", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0",
            converter = FioUnits.Bool.class, description = "Accepted for fio's job files: jring's jobs are always threads.")
    boolean thread;

    @Option(names = "--unlink", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0",
            converter = FioUnits.Bool.class, description = "Remove the job's files when it is done (default 0: keep them, as fio).")
    boolean unlink;

    @Option(names = "--startdelay", paramLabel = "<time>", defaultValue = "0", converter = FioUnits.Time.class,
            description = "Start the job this long after the run began (default 0).")
    long startDelayNanos;

    @Option(names = "--number_ios", paramLabel = "<n>", defaultValue = "0",
            description = "Stop after this many I/Os (times --loops), if size or time do not end the job first (default 0: no limit).")
    long numberIos;

    @Option(names = "--end_fsync", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0",
            converter = FioUnits.Bool.class,
            description = "fsync the file at the end of each pass of a job that writes; the time counts in its run time (default 0).")
    boolean endFsync;

    @Option(names = "--jit_warmup", paramLabel = "<time>", defaultValue = "10", converter = FioUnits.Time.class,
            description = "jring only: each job first runs its engine, unmeasured, until the JIT has compiled it "
                    + "(two rounds, each until the JIT is idle for 250 ms; the first at least 500 ms), at most this "
                    + "long, before the clock starts; fio's engines are compiled C. 0 measures from the first I/O "
                    + "(default 10 s).")
    long jitWarmupNanos;

    @Option(names = "--wait_spin", paramLabel = "<time>", defaultValue = "50us", converter = FioUnits.Time.class,
            description = "jring only: the longest a wait with O_DIRECT I/O in flight spins for the device before "
                    + "it sleeps (adaptive: only while recent waits ended within it); 0 sleeps at once, as fio's "
                    + "engines do (default 50us).")
    long waitSpinNanos;

    /** Options only jring has: giving them alone still runs the demo job (see {@link FioCommand}). */
    static final List<String> JRING_ONLY = List.of("--jit_warmup", "--wait_spin");

    /** The options of one job, as {@code --key=value} or {@code --key} strings in order; the last of a repeated one wins. */
    static FioOptions parse(List<String> args) {
        FioOptions o = new FioOptions();
        CommandLine cl = new CommandLine(o).setOverwrittenOptionsAllowed(true).setCaseInsensitiveEnumValuesAllowed(true);
        try {
            cl.parseArgs(args.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return o;
    }

    /** The options' model: names, arities and descriptions, for the command line and the help. */
    static CommandSpec spec() {
        return CommandSpec.forAnnotatedObject(new FioOptions());
    }
}

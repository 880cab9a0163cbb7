package io.jring.tool.fio;

import io.jring.tool.JringCommand;
import io.jring.tool.report.JsonReader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link FioCommand} end to end on tiny jobs (4 MiB files, well under a second each): the
 * JSON read back with fio's field names, the normal report's lines, every engine, writes with
 * fsync, errors, and the temp files removed.
 */
class FioCommandTest {

    @TempDir
    Path dir;

    record Result(int exit, String out, String err) {}

    private Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = JringCommand.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        Stream<String> size = Stream.of(args).anyMatch(a -> a.startsWith("--size=")) ? Stream.of() : Stream.of("--size=4M");
        // Tests measure behaviour, not speed: no JIT warm-up unless the test is about it.
        Stream<String> warmup = Stream.of(args).anyMatch(a -> a.startsWith("--jit_warmup")) ? Stream.of()
                : Stream.of("--jit_warmup=0");
        String[] all = Stream.of(Stream.of("fio", "--directory=" + dir), size, warmup, Stream.of(args))
                .flatMap(s -> s).toArray(String[]::new);
        int exit = cl.execute(all);
        return new Result(exit, out.toString(), err.toString());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object root, String path) {
        return (Map<String, Object>) JsonReader.at(root, path);
    }

    @Test
    void jsonHasFiosLayoutAndFieldNames() throws IOException {
        Result r = run("--ioengine=psync", "--runtime=1", "--output-format=json");
        assertEquals(0, r.exit(), r.err());
        Object json = JsonReader.parse(r.out());
        assertTrue(((String) JsonReader.at(json, "fio version")).startsWith("jring-fio"));
        assertEquals("jring", JsonReader.at(json, "jobs.0.jobname"));
        assertEquals(0.0, JsonReader.number(json, "jobs.0.error"));
        assertTrue(JsonReader.number(json, "jobs.0.read.iops") > 0, r.out());
        assertTrue(JsonReader.number(json, "jobs.0.read.total_ios") > 0);
        assertTrue(JsonReader.number(json, "jobs.0.read.io_bytes") > 0);
        assertEquals(JsonReader.number(json, "jobs.0.read.total_ios"), JsonReader.number(json, "jobs.0.read.clat_ns.N"));
        Map<String, Object> percentile = map(json, "jobs.0.read.clat_ns");
        percentile = (Map<String, Object>) (Object) percentile.get("percentile");
        assertEquals(List.of("1.000000", "5.000000", "10.000000", "20.000000", "30.000000", "40.000000", "50.000000",
                "60.000000", "70.000000", "80.000000", "90.000000", "95.000000", "99.000000", "99.500000", "99.900000",
                "99.950000", "99.990000"), List.copyOf(percentile.keySet()));
        assertTrue((Double) percentile.get("99.000000") >= (Double) percentile.get("50.000000"));
        assertEquals(0.0, JsonReader.number(json, "jobs.0.read.slat_ns.N"), "a sync engine has no slat, as in fio");
        assertEquals(0.0, JsonReader.number(json, "jobs.0.write.total_ios"));
        assertEquals("psync", JsonReader.at(json, "jobs.0.job options.ioengine"));
        assertEquals(List.of("jring.0.0"), filesIn(dir), "fio's file name for job jring, kept as fio keeps it");
    }

    /**
     * The JIT warm-up runs the engine before the clock: the run takes longer than its
     * runtime, the report covers the runtime only, and the normal report says so; with
     * --jit_warmup=0 there is none.
     */
    @Test
    void theJitWarmUpRunsBeforeTheClockAndIsNotMeasured() throws IOException {
        long t0 = System.nanoTime();
        Result r = run("--rw=randread", "--time_based", "--runtime=300ms", "--jit_warmup=700ms", "--output-format=json");
        long wallMillis = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(0, r.exit(), r.err());
        Object json = JsonReader.parse(r.out());
        double runtimeMillis = JsonReader.number(json, "jobs.0.read.runtime");
        assertTrue(runtimeMillis >= 290 && runtimeMillis < 450, "measured " + runtimeMillis + " ms");
        assertTrue(wallMillis >= runtimeMillis + FioRun.WARMUP_MIN_NANOS / 1_000_000, "wall " + wallMillis + " ms");
        Result normal = run("--time_based", "--runtime=200ms", "--jit_warmup=500ms");
        assertEquals(0, normal.exit(), normal.err());
        assertTrue(normal.out().contains("JIT warm-up before the clock"), normal.out());
        assertTrue(!run("--runtime=200ms").out().contains("JIT warm-up"), "--jit_warmup=0: none");
    }

    @Test
    void theWarmUpJobRunsForItsOwnTimeWithoutRampOrWarmUp() {
        JobSpec spec = FioOptionsTest.parse("--ramp_time=2", "--runtime=5", "--jit_warmup=3", "--time_based=0", "--size=4M");
        JobSpec warm = spec.forJitWarmup(spec.jitWarmupNanos());
        assertEquals(3_000_000_000L, warm.runtimeNanos());
        assertEquals(0L, warm.rampNanos());
        assertEquals(0L, warm.jitWarmupNanos());
        assertTrue(warm.timeBased());
        assertEquals(List.of(spec.rw(), spec.bs(), spec.iodepth(), spec.size(), spec.direct(), spec.ioengine(), spec.invalidate()),
                List.of(warm.rw(), warm.bs(), warm.iodepth(), warm.size(), warm.direct(), warm.ioengine(), warm.invalidate()));
    }

    /** lat_percentiles=1: the total latency gets percentiles too, in JSON and in the normal report, as fio's. */
    @Test
    void latPercentilesReportTheTotalLatencyDistribution() throws IOException {
        Result plain = run("--runtime=300ms", "--output-format=json");
        assertEquals(0, plain.exit(), plain.err());
        assertNull(JsonReader.at(JsonReader.parse(plain.out()), "jobs.0.read.lat_ns.percentile"),
                "no lat percentiles unless asked, as fio");
        Result r = run("--runtime=300ms", "--iodepth=4", "--lat_percentiles=1", "--output-format=json");
        assertEquals(0, r.exit(), r.err());
        Object json = JsonReader.parse(r.out());
        Map<String, Object> lat = map(json, "jobs.0.read.lat_ns.percentile");
        Map<String, Object> clat = map(json, "jobs.0.read.clat_ns.percentile");
        assertEquals(List.copyOf(clat.keySet()), List.copyOf(lat.keySet()));
        double p99 = (Double) lat.get("99.000000");
        assertTrue(p99 >= (Double) lat.get("50.000000") && p99 <= JsonReader.number(json, "jobs.0.read.lat_ns.max") * 1.01,
                r.out());
        Result normal = run("--runtime=300ms", "--lat_percentiles=1");
        assertEquals(0, normal.exit(), normal.err());
        assertTrue(normal.out().contains("\n    clat percentiles (") && normal.out().contains("\n    lat percentiles ("),
                normal.out());
    }

    @Test
    void jsonCarriesEveryFieldFioHasForAJob() throws IOException {
        Result r = run("--ioengine=filechannel", "--runtime=300ms", "--output-format=json");
        assertEquals(0, r.exit(), r.err());
        Object ours = JsonReader.at(JsonReader.parse(r.out()), "jobs.0");
        String fioOutput;
        try (var in = getClass().getResourceAsStream("fio-3.33-randread-psync.json")) {
            fioOutput = new String(in.readAllBytes());
        }
        Object theirs = JsonReader.at(JsonReader.parse(fioOutput), "jobs.0");
        for (String key : List.of("read", "write", "trim")) {
            assertEquals(keysOf(theirs, key), keysOf(ours, key), key + " fields and their order");
            for (String lat : List.of("slat_ns", "clat_ns", "lat_ns")) {
                assertEquals(keysOf(theirs, key + "." + lat), keysOf(ours, key + "." + lat), key + "." + lat);
            }
        }
        assertEquals(keysOf(theirs, "read.clat_ns.percentile"), keysOf(ours, "read.clat_ns.percentile"));
        for (String key : List.of("sync", "iodepth_level", "iodepth_submit", "iodepth_complete", "latency_ns", "latency_us", "latency_ms")) {
            assertEquals(keysOf(theirs, key), keysOf(ours, key), key);
        }
        for (String key : List.of("jobname", "groupid", "error", "job_runtime", "usr_cpu", "sys_cpu", "ctx", "majf", "minf",
                "latency_depth", "latency_target", "latency_percentile", "latency_window")) {
            assertTrue(((Map<?, ?>) ours).containsKey(key), key);
        }
    }

    private static List<String> keysOf(Object root, String path) {
        Object v = JsonReader.at(root, path);
        assertTrue(v instanceof Map, path + " is an object");
        return ((Map<?, ?>) v).keySet().stream().map(Object::toString).toList();
    }

    @Test
    void normalReportHasTheIopsLinePercentilesAndGroupStatus() throws IOException {
        Result r = run("--ioengine=psync", "--rw=randread", "--runtime=300ms", "--name=small");
        assertEquals(0, r.exit(), r.err());
        String out = r.out();
        assertTrue(out.startsWith("small: (g=0): rw=randread, bs=(R) 4096B-4096B"), out);
        assertTrue(out.contains("small: Laying out IO file (1 file / 4MiB)"), out);
        assertTrue(out.matches("(?s).*small: \\(groupid=0, jobs=1\\): err= 0: pid=\\d+: .*"), out);
        assertTrue(out.matches("(?s).*\n  read: IOPS=[0-9.]+k?, BW=[0-9.]+[KMG]iB/s \\([0-9.]+[kMG]B/s\\)\\([0-9.]+[KMG]iB/\\d+msec\\)\n.*"), out);
        assertTrue(out.matches("(?s).*\n    clat \\((nsec|usec|msec)\\): min=\\S+, max=\\S+, avg= *[0-9.]+, stdev= *[0-9.]+\n.*"), out);
        assertTrue(out.contains("    clat percentiles ("), out);
        assertTrue(out.matches("(?s).*\\|  1\\.00th=\\[ *\\d+\\],  5\\.00th=\\[.*"), out);
        assertTrue(out.contains("99.99th=["), out);
        assertTrue(out.contains("  IO depths    : 1=100.0%"), out);
        assertTrue(out.contains("\nRun status group 0 (all jobs):\n   READ: bw="), out);
        assertEquals(List.of("small.0.0"), filesIn(dir));
    }

    @Test
    void jringEngineRunsRandomReadsAtDepth() {
        Result r = run("--ioengine=jring", "--rw=randread", "--iodepth=8", "--runtime=300ms", "--output-format=json");
        assertEquals(0, r.exit(), r.err() + r.out());
        Object json = JsonReader.parse(r.out());
        assertEquals(0.0, JsonReader.number(json, "jobs.0.error"), r.err());
        assertTrue(JsonReader.number(json, "jobs.0.read.iops") > 0);
        assertTrue(JsonReader.number(json, "jobs.0.read.slat_ns.N") > 0, "the ring's submission is timed");
        assertEquals(0.0, JsonReader.number(json, "jobs.0.read.short_ios"));
    }

    @Test
    void jringEngineWithFixedBuffersAndFilesAndBatches() {
        Result r = run("--ioengine=jring", "--iodepth=16", "--iodepth_batch_submit=8", "--iodepth_batch_complete=4",
                "--fixedbufs", "--registerfiles", "--runtime=300ms", "--output-format=json");
        assertEquals(0, r.exit(), r.err() + r.out());
        Object json = JsonReader.parse(r.out());
        assertTrue(JsonReader.number(json, "jobs.0.read.iops") > 0);
    }

    @Test
    void afcEngineKeepsItsDepthInFlight() {
        Result r = run("--ioengine=afc", "--iodepth=4", "--runtime=300ms", "--output-format=json");
        assertEquals(0, r.exit(), r.err());
        Object json = JsonReader.parse(r.out());
        assertTrue(JsonReader.number(json, "jobs.0.read.iops") > 0);
        assertTrue(JsonReader.number(json, "jobs.0.iodepth_level.4") > 0, r.out());
    }

    @Test
    void mixedWritesWithFsyncOnTwoJobs() {
        Result r = run("--ioengine=psync", "--rw=randrw", "--rwmixread=50", "--fsync=8", "--numjobs=2",
                "--runtime=300ms", "--output-format=json");
        assertEquals(0, r.exit(), r.err());
        Object json = JsonReader.parse(r.out());
        for (int job = 0; job < 2; job++) {
            assertTrue(JsonReader.number(json, "jobs." + job + ".read.iops") > 0);
            assertTrue(JsonReader.number(json, "jobs." + job + ".write.iops") > 0);
            assertTrue(JsonReader.number(json, "jobs." + job + ".sync.total_ios") > 0);
        }
    }

    @Test
    void sizeBoundRunDoesExactlyTheFile() throws IOException {
        Path file = dir.resolve("given");
        Result r = run("--filename=" + file, "--ioengine=psync", "--rw=read", "--time_based=0", "--runtime=0", "--output-format=json");
        assertEquals(0, r.exit(), r.err());
        assertEquals((double) (4 << 20), JsonReader.number(JsonReader.parse(r.out()), "jobs.0.read.io_bytes"));
        assertTrue(Files.exists(file), "a --filename is kept");
    }

    @Test
    void aFailedReadIsTheJobsErrorLikeFio() throws IOException {
        // A directory opens fine for reading, and every read of it fails with EISDIR.
        Path notAFile = Files.createDirectory(dir.resolve("not-a-file"));
        long size = Files.size(notAFile);
        Assumptions.assumeTrue(size >= 512, "this file system gives directories a size of at least one block");
        for (String engine : List.of("jring", "psync")) {
            Result r = run("--filename=" + notAFile, "--size=" + size / 512 * 512, "--bs=512", "--invalidate=1",
                    "--ioengine=" + engine, "--runtime=200ms", "--output-format=json");
            assertEquals(1, r.exit(), engine + ": " + r.err());
            assertTrue(r.err().contains("jring-fio: io_u error on file " + notAFile + ": Is a directory: read offset="), r.err());
            assertEquals(21.0, JsonReader.number(JsonReader.parse(r.out()), "jobs.0.error"), engine);
        }
    }

    @Test
    void aFileThatCannotBeLaidOutIsReported() throws IOException {
        Path notAFile = Files.createDirectory(dir.resolve("dir"));
        Result r = run("--filename=" + notAFile, "--ioengine=psync", "--runtime=200ms");
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("jring-fio: cannot lay out " + notAFile), r.err());
    }

    /** fio reports a job's CPU over its own run time in msec, 0% when it ran for none: never more than all of the CPU. */
    @Test
    void aJobThatFailsToOpenItsFileReportsNoCpuBeyondItsRunTime() throws IOException {
        Path notAFile = Files.createDirectory(dir.resolve("d"));
        long size = Files.size(notAFile);
        Result r = run("--filename=" + notAFile, "--size=" + size, "--bs=" + size, "--rw=randwrite", "--ioengine=psync",
                "--invalidate=1", "--runtime=200ms");
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("cannot open " + notAFile + ": Is a directory"), r.err());
        Matcher cpu = Pattern.compile("cpu +: usr=([0-9.]+)%, sys=([0-9.]+)%").matcher(r.out());
        assertTrue(cpu.find(), r.out());
        assertTrue(Double.parseDouble(cpu.group(1)) + Double.parseDouble(cpu.group(2)) <= 100.0, r.out());
    }

    @Test
    void aFileThatCannotBeLaidOutSaysWhy() {
        Path missing = dir.resolve("no/such/dir/file");
        Result r = run("--filename=" + missing, "--ioengine=psync", "--runtime=200ms");
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("cannot lay out " + missing + ": No such file or directory"), r.err());
    }

    /**
     * With no job options the demo runs: the page cache, and its first line says so and which
     * options that means; its temp file is removed afterwards. (256 MiB for 5 s: the demo as is.)
     */
    @Test
    void theDemoSaysFirstWhatItMeasuresAndRemovesItsTempFile() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = JringCommand.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute("fio", "--jit_warmup=0", "--output-format=json", "--eta=never");
        assertEquals(0, exit, err.toString());
        assertEquals(FioJobs.demoLine(), err.toString().lines().findFirst().orElse(""), "JSON mode: the line goes to stderr");
        Object json = JsonReader.parse(out.toString());
        assertTrue(JsonReader.number(json, "jobs.0.read.iops") > 0);
        assertEquals("0", JsonReader.at(json, "jobs.0.job options.invalidate"));
        Path temp = Path.of(System.getProperty("java.io.tmpdir"), "jring-fio.jring." + ProcessHandle.current().pid() + ".0.0");
        assertTrue(!Files.exists(temp), temp + " removed");
    }

    @Test
    void badOptionValuesAreOneLineErrors() {
        Result r = run("--ioengine=libaio");
        assertEquals(2, r.exit());
        assertEquals("jring fio: the command line: ioengine=libaio is not a jring engine: use one of jring, psync, filechannel, "
                + "afc (fio's io_uring is jring's ring: io_uring or jring)\n", r.err());
    }

    /** fio: "unrecognized option" and "Did you mean"; jring says both on one line, without a usage dump. */
    @Test
    void anUnknownOptionIsOneLineNamingTheNearestKnownOne() {
        Result r = run("--bsize=4k");
        assertEquals(2, r.exit());
        assertEquals("jring fio: unknown option '--bsize' (nearest: --size)\n", r.err());
        assertEquals("", r.out());
        assertEquals("jring fio: unknown option '--outptu' (nearest: --output)\n", run("--outptu=x").err());
    }

    @Test
    void aRepeatedOptionTheLastOneWins() {
        Result r = run("--ioengine=psync", "--bs=8k", "--bs=16k", "--output-format=json");
        assertEquals(0, r.exit(), r.err());
        Object json = JsonReader.parse(r.out());
        assertEquals("16k", JsonReader.at(json, "jobs.0.job options.bs"));
        assertEquals(256.0, JsonReader.number(json, "jobs.0.read.total_ios"), "4 MiB in 16 KiB reads");
    }

    @Test
    void outputWritesTheReportToTheFile() throws IOException {
        Path report = dir.resolve("report.json");
        Result r = run("--ioengine=psync", "--output-format=json", "--output=" + report);
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.out());
        assertTrue(JsonReader.number(JsonReader.parse(Files.readString(report)), "jobs.0.read.total_ios") > 0);
    }

    @Test
    void percentileListIsWhatTheReportsShow() throws IOException {
        Result json = run("--ioengine=psync", "--percentile_list=50:99.5", "--output-format=json");
        assertEquals(0, json.exit(), json.err());
        assertEquals(List.of("50.000000", "99.500000"), keysOf(JsonReader.at(JsonReader.parse(json.out()), "jobs.0"),
                "read.clat_ns.percentile"));
        Result normal = run("--ioengine=psync", "--percentile_list=50:99.5");
        assertTrue(normal.out().matches("(?s).*\n     \\| 50\\.0th=\\[ *\\d+\\], 99\\.5th=\\[ *\\d+\\]\n.*"), normal.out());
    }

    @Test
    void groupReportingShowsAGroupAsOneJobWithItsJobsSummed() {
        Result r = run("--name=g", "--ioengine=psync", "--numjobs=3", "--group_reporting", "--output-format=json");
        assertEquals(0, r.exit(), r.err());
        Object json = JsonReader.parse(r.out());
        assertEquals(1, ((List<?>) JsonReader.at(json, "jobs")).size());
        assertEquals(3.0 * 1024, JsonReader.number(json, "jobs.0.read.total_ios"), "three clones of 4 MiB in 4 KiB reads");
        Result normal = run("--name=g", "--ioengine=psync", "--numjobs=3", "--group_reporting");
        assertTrue(normal.out().contains("g: (groupid=0, jobs=3): err= 0"), normal.out());
        assertTrue(normal.out().startsWith("g: (g=0): rw=read, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, "
                + "ioengine=psync, iodepth=1\n...\n"), normal.out());
    }

    private static List<String> filesIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }
}

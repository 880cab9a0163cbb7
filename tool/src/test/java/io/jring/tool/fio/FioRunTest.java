package io.jring.tool.fio;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link FioRun} and {@link Job} with fio's semantics that shape numbers, seen through the
 * advice a run gives its files (a recording {@link Fadvise}) and the bytes it does: fio's
 * invalidate and fadvise_hint at every open of every pass, time based wraps, loops and
 * io_size passes, file naming, stonewall phases and groups.
 */
class FioRunTest {

    @TempDir
    Path dir;

    /** One posix_fadvise call. */
    record Advice(long offset, long len, int advice) {
        @Override
        public String toString() {
            return Fadvise.name(advice) + "(" + offset + "+" + len + ")";
        }
    }

    /** Records the advice (the file's descriptor aside: each open has its own), and gives it for real. */
    static final class Recording implements Fadvise {
        final List<Advice> calls = Collections.synchronizedList(new ArrayList<>());

        @Override
        public int advise(int fd, long offset, long len, int advice) {
            calls.add(new Advice(offset, len, advice));
            return Fadvise.POSIX.advise(fd, offset, len, advice);
        }
    }

    private JobSpec spec(String... args) {
        List<String> all = new ArrayList<>(List.of("--directory=" + dir, "--jit_warmup=0"));
        all.addAll(List.of(args));
        return new JobDefinition("t", all, Map.of(), "test").resolve(false, w -> { });
    }

    private static FioRun run(Fadvise fadvise, JobSpec... specs) throws Exception {
        FioRun run = new FioRun(List.of(specs), fadvise);
        run.execute(line -> { }, phase -> null);
        for (Job j : run.jobs()) {
            assertEquals(0, j.stats.error, j.stats.errorText);
        }
        return run;
    }

    private static List<Advice> repeat(int times, Advice... each) {
        List<Advice> out = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            out.addAll(List.of(each));
        }
        return out;
    }

    @Test
    void invalidateDropsTheCacheThenGivesTheHintAtEveryOpenOfEveryPass() throws Exception {
        for (String engine : List.of("jring", "psync")) {
            Recording fadvise = new Recording();
            Path file = Files.write(dir.resolve(engine), new byte[256 << 10]);
            FioRun run = run(fadvise, spec("--filename=" + file, "--size=128k", "--offset=64k", "--rw=randread",
                    "--loops=3", "--ioengine=" + engine, "--iodepth=4"));
            assertEquals(repeat(3, new Advice(65536, 131072, Fadvise.DONTNEED), new Advice(65536, 131072, Fadvise.RANDOM)),
                    fadvise.calls, engine);
            assertEquals(3L * 131072, run.jobs().getFirst().stats.read.bytes, engine + ": three passes over the region");
            assertEquals(3, run.jobs().getFirst().passes());
        }
    }

    @Test
    void aSequentialJobIsAdvisedSequentialAndInvalidateZeroOnlyAdvises() throws Exception {
        Recording fadvise = new Recording();
        Path file = Files.write(dir.resolve("f"), new byte[64 << 10]);
        run(fadvise, spec("--filename=" + file, "--rw=read", "--invalidate=0", "--ioengine=psync"));
        assertEquals(List.of(new Advice(0, 65536, Fadvise.SEQUENTIAL)), fadvise.calls);
        fadvise.calls.clear();
        run(fadvise, spec("--filename=" + file, "--rw=read", "--invalidate=0", "--fadvise_hint=0", "--ioengine=psync"));
        assertEquals(List.of(), fadvise.calls, "fadvise_hint=0: no advice at all");
    }

    @Test
    void theJdkEnginesAreInvalidatedThroughADescriptorOfTheirOwnButGetNoHint() throws Exception {
        for (String engine : List.of("filechannel", "afc")) {
            Recording fadvise = new Recording();
            Path file = Files.write(dir.resolve(engine), new byte[64 << 10]);
            run(fadvise, spec("--filename=" + file, "--rw=randread", "--loops=2", "--ioengine=" + engine));
            assertEquals(repeat(2, new Advice(0, 65536, Fadvise.DONTNEED)), fadvise.calls, engine);
        }
    }

    @Test
    void aTimeBasedBufferedJobInvalidatesAgainAtEveryWrapButADirectOneDoesNot() throws Exception {
        Recording fadvise = new Recording();
        Path file = Files.write(dir.resolve("f"), new byte[16 << 10]);
        FioRun run = run(fadvise, spec("--filename=" + file, "--rw=randread", "--ioengine=psync", "--time_based",
                "--runtime=300ms", "--fadvise_hint=0"));
        long reads = run.jobs().getFirst().stats.read.ios;
        long drops = fadvise.calls.stream().filter(a -> a.advice() == Fadvise.DONTNEED).count();
        assertTrue(reads > 8, "reads " + reads);
        assertEquals(1 + (reads - 1) / 4, drops, "the open's, then one per wrap of the 4-block region");
        fadvise.calls.clear();
        Path direct = Files.write(dir.resolve("d"), new byte[16 << 10]);
        run(fadvise, spec("--filename=" + direct, "--rw=randread", "--ioengine=psync", "--time_based", "--runtime=200ms",
                "--fadvise_hint=0", "--direct=1"));
        assertEquals(List.of(new Advice(0, 16384, Fadvise.DONTNEED)), fadvise.calls, "direct: the open's only, as fio");
    }

    @Test
    void aNewFileIsDroppedFromTheCacheAfterItIsLaidOutAsFioDoes() throws Exception {
        Recording fadvise = new Recording();
        run(fadvise, spec("--name=x", "--size=64k", "--rw=read", "--invalidate=0", "--fadvise_hint=0", "--ioengine=psync"));
        assertEquals(List.of(new Advice(0, 65536, Fadvise.DONTNEED)), fadvise.calls);
    }

    @Test
    void ioSizeBeyondTheRegionMakesMorePassesAndBelowItStopsEarly() throws Exception {
        Path file = Files.write(dir.resolve("f"), new byte[64 << 10]);
        FioRun more = run(Fadvise.POSIX, spec("--filename=" + file, "--rw=randread", "--io_size=160k", "--ioengine=psync"));
        assertEquals(160 << 10, more.jobs().getFirst().stats.read.bytes);
        assertEquals(3, more.jobs().getFirst().passes());
        FioRun less = run(Fadvise.POSIX, spec("--filename=" + file, "--rw=read", "--io_size=16k", "--ioengine=psync"));
        assertEquals(16 << 10, less.jobs().getFirst().stats.read.bytes);
        assertEquals(1, less.jobs().getFirst().passes());
    }

    @Test
    void numberIosStopsTheJobOnceThatManyTimesLoopsWereDone() throws Exception {
        Path file = Files.write(dir.resolve("f"), new byte[64 << 10]);
        FioRun one = run(Fadvise.POSIX, spec("--filename=" + file, "--rw=randread", "--number_ios=5", "--ioengine=psync"));
        assertEquals(5, one.jobs().getFirst().stats.read.ios);
        FioRun two = run(Fadvise.POSIX, spec("--filename=" + file, "--rw=read", "--number_ios=3", "--loops=2",
                "--ioengine=jring", "--iodepth=1"));
        assertEquals(6, two.jobs().getFirst().stats.read.ios, "number_ios times loops, as fio's exceeds_number_ios");
        FioRun bigger = run(Fadvise.POSIX, spec("--filename=" + file, "--rw=read", "--number_ios=1000", "--ioengine=psync"));
        assertEquals(16, bigger.jobs().getFirst().stats.read.ios, "the size ends the job first");
    }

    @Test
    void endFsyncSyncsAWritingJobAndStartdelayHoldsItsStart() throws Exception {
        Path file = dir.resolve("w");
        long before = System.nanoTime();
        FioRun run = run(Fadvise.POSIX, spec("--filename=" + file, "--size=64k", "--rw=write", "--end_fsync=1",
                "--startdelay=200ms", "--ioengine=psync"));
        Job job = run.jobs().getFirst();
        assertEquals(64 << 10, job.stats.write.bytes);
        assertTrue(job.begunNanos() - before >= 200_000_000L, "the job began after its start delay");
        assertTrue(job.stats.runtimeNanos > 0, "the fsync counts in the run time");
    }

    @Test
    void fdatasyncSyncsAfterEveryNWritesOnEveryEngine() throws Exception {
        for (String engine : List.of("jring", "psync", "filechannel", "afc")) {
            FioRun run = run(Fadvise.POSIX, spec("--filename=" + dir.resolve("d-" + engine), "--size=64k", "--rw=write",
                    "--fdatasync=4", "--ioengine=" + engine, "--iodepth=4"));
            Job job = run.jobs().getFirst();
            assertEquals(16, job.stats.write.ios, engine);
            // After writes 4, 8 and 12; the 16th ends the job's bytes, so no I/O follows it (fio's do_io loop).
            assertEquals(3, job.stats.syncLat.samples(), engine + ": one fdatasync after every 4 writes");
            assertEquals(0, job.stats.syncIos, engine + ": fio's sync total_ios counts fsyncs only");
        }
    }

    @Test
    void clonesGetFiosFileNamesUnlessAFilenameIsGiven() throws Exception {
        FioRun run = run(Fadvise.POSIX, spec("--size=16k", "--numjobs=3", "--ioengine=psync"));
        assertEquals(List.of(dir.resolve("t.0.0"), dir.resolve("t.1.0"), dir.resolve("t.2.0")),
                run.jobs().stream().map(j -> j.file).toList());
        for (Job j : run.jobs()) {
            assertTrue(Files.size(j.file) == 16 << 10, j.file + " laid out and kept");
        }
        FioRun shared = new FioRun(List.of(spec("--size=16k", "--numjobs=2", "--filename=one")), Fadvise.POSIX);
        assertEquals(List.of(dir.resolve("one"), dir.resolve("one")), shared.jobs().stream().map(j -> j.file).toList());
    }

    @Test
    void stonewallStartsAPhaseAndAGroupNewGroupOnlyAGroup() {
        FioRun run = new FioRun(List.of(spec("--size=16k", "--numjobs=2"), spec("--size=16k", "--new_group"),
                spec("--size=16k", "--stonewall"), spec("--size=16k")), Fadvise.POSIX);
        assertEquals(List.of(0, 0, 1, 2, 2), run.jobs().stream().map(j -> j.groupId).toList());
        assertEquals(List.of(3, 2), run.phases().stream().map(List::size).toList());
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), run.jobs().stream().map(j -> j.threadNumber).toList());
    }

    @Test
    void aStonewalledPhaseStartsOnlyAfterTheOneBeforeEnded() throws Exception {
        FioRun run = run(Fadvise.POSIX, spec("--name=first", "--size=64k", "--ioengine=psync", "--numjobs=2"),
                spec("--name=second", "--size=64k", "--ioengine=psync", "--stonewall"));
        List<Job> jobs = run.jobs();
        long firstEnded = Math.max(jobs.get(0).endedNanos(), jobs.get(1).endedNanos());
        assertTrue(jobs.get(2).begunNanos() >= firstEnded, "the second phase began after the first ended");
    }
}

package io.jring.tool.fio;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link FioOptions} and {@link JobResolver}: fio's option names, syntax and defaults, and the resolved {@link JobSpec}. */
class FioOptionsTest {

    static JobSpec parse(String... args) {
        return new JobDefinition("t", List.of(args), Map.of(), "test").resolve(false, w -> { });
    }

    private static String message(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> parse(args)).getMessage();
    }

    @Test
    void defaultsAreFiosWithTheJringEngine() {
        JobSpec s = parse("--size=1m");
        assertEquals("t", s.name());
        assertEquals("t", s.jobName());
        assertNull(s.filename());
        assertEquals(Rw.READ, s.rw());
        assertEquals(BlockSizes.DEFAULT, s.bs());
        assertEquals(1, s.iodepth());
        assertEquals(1, s.batchSubmit());
        assertEquals(1, s.batchCompleteMin());
        assertEquals(1, s.batchCompleteMax(), "fio reaps one completion per call unless told otherwise");
        assertEquals(0, s.runtimeNanos());
        assertFalse(s.timeBased());
        assertTrue(s.invalidate(), "fio drops the cache at every open by default");
        assertEquals(FadviseHint.TYPE, s.fadviseHint());
        assertFalse(s.preRead());
        assertFalse(s.direct());
        assertEquals("jring", s.ioengine());
        assertEquals(1, s.numjobs());
        assertEquals(1, s.loops());
        assertEquals(0, s.offset());
        assertTrue(s.randomMap());
        assertTrue(s.randRepeat());
        assertEquals(JobResolver.DEFAULT_SEED, s.randSeed());
        assertArrayEquals(LatencyStat.PERCENTILES, s.percentiles());
        assertEquals(10_000_000_000L, s.jitWarmupNanos(), "JIT warm-up at most 10 s by default");
        assertEquals(io.jring.IoUring.DEFAULT_WAIT_SPIN.toNanos(), s.waitSpinNanos(), "the ring's default spin");
        assertFalse(s.stonewall() || s.newGroup() || s.groupReporting() || s.unlink() || s.temporary());
    }

    @Test
    void fioSyntaxWithEqualsAndSizes() {
        JobSpec s = parse("--name=shown", "--filename=/tmp/x", "--size=16M", "--rw=randwrite", "--bs=64k", "--iodepth=8",
                "--runtime=1", "--time_based", "--direct=1", "--numjobs=2", "--fsync=4", "--ramp_time=500ms");
        assertEquals("shown", s.name(), "name= is the reported name");
        assertEquals("t", s.jobName(), "the section still names the files");
        assertEquals("/tmp/x", s.filename());
        assertEquals(16L << 20, s.size());
        assertEquals(Rw.RANDWRITE, s.rw());
        assertEquals(65536, s.maxBs());
        assertEquals(8, s.iodepth());
        assertEquals(1_000_000_000L, s.runtimeNanos());
        assertEquals(500_000_000L, s.rampNanos());
        assertTrue(s.direct());
        assertEquals(2, s.numjobs());
        assertEquals(4, s.fsync());
    }

    @Test
    void aRepeatedOptionTheLastOneWinsAsInFio() {
        JobSpec s = parse("--size=1m", "--bs=8k", "--iodepth=4", "--bs=16k", "--rw=write", "--rw=randread", "--iodepth=2");
        assertEquals(16384, s.maxBs());
        assertEquals(Rw.RANDREAD, s.rw());
        assertEquals(2, s.iodepth());
    }

    @Test
    void everyRwModeParses() {
        assertEquals(Rw.READ, parse("--size=1m", "--rw=read").rw());
        assertEquals(Rw.WRITE, parse("--size=1m", "--rw=write").rw());
        assertEquals(Rw.RANDREAD, parse("--size=1m", "--rw=randread").rw());
        assertEquals(Rw.RANDWRITE, parse("--size=1m", "--readwrite=randwrite").rw());
        assertEquals(Rw.RW, parse("--size=1m", "--rw=readwrite").rw());
        JobSpec mixed = parse("--size=1m", "--rw=randrw", "--rwmixread=70");
        assertEquals(Rw.RANDRW, mixed.rw());
        assertEquals(70, mixed.rwmixread());
        assertEquals(30, parse("--size=1m", "--rw=randrw", "--rwmixwrite=70").rwmixread());
        assertEquals(50, parse("--size=1m", "--rw=randrw").rwmixread());
        assertTrue(message("--size=1m", "--rw=sideways").contains("sideways"));
    }

    @Test
    void blockSizesPerDirectionAndRangesAsFio() {
        assertEquals(new BlockSizes(8192, 8192, 32768, 32768), parse("--size=1m", "--bs=8k,32k").bs());
        assertEquals(new BlockSizes(4096, 4096, 8192, 8192), parse("--size=1m", "--bs=,8k").bs(), "empty: fio's default");
        assertEquals(new BlockSizes(1024, 4096, 2048, 8192), parse("--size=1m", "--bsrange=1k-4k,2k-8k").bs());
        assertEquals(new BlockSizes(4096, 16384, 4096, 16384), parse("--size=1m", "--bs=4k-16k").bs(), "bs=min-max is a range");
        assertEquals(new BlockSizes(4096, 16384, 4096, 16384), parse("--size=1m", "--bs=512", "--bsrange=4k-16k").bs(),
                "bsrange wins over bs");
        assertFalse(parse("--size=1m", "--bs=4k-16k").bs().fixed(Rw.READ));
        assertEquals("(R) 4096B-16.0KiB, (W) 4096B-16.0KiB, (T) 4096B-16.0KiB", parse("--size=1m", "--bsrange=4k-16k").bs().describe());
        assertTrue(message("--size=1m", "--direct=1", "--bsrange=1000-4k").contains("multiples of 512"));
    }

    @Test
    void ioUringIsJringsRingAndOtherEnginesAreNamed() {
        assertEquals("jring", parse("--size=1m", "--ioengine=io_uring").ioengine());
        assertEquals("psync", parse("--size=1m", "--ioengine=psync").ioengine());
        assertEquals("test: ioengine=libaio is not a jring engine: use one of jring, psync, filechannel, afc "
                + "(fio's io_uring is jring's ring: io_uring or jring)", message("--size=1m", "--ioengine=libaio"));
    }

    @Test
    void batchSizesResolveAsFioDoes() {
        JobSpec s = parse("--size=1m", "--iodepth=16", "--iodepth_batch_submit=0", "--iodepth_batch_complete=4",
                "--iodepth_batch_complete_max=8");
        assertEquals(16, s.batchSubmit());
        assertEquals(4, s.batchCompleteMin());
        assertEquals(8, s.batchCompleteMax());
        assertEquals(16, parse("--size=1m", "--iodepth=16", "--iodepth_batch=64").batchSubmit());
        assertEquals(4, parse("--size=1m", "--iodepth=16", "--iodepth_batch_complete=4", "--iodepth_batch_complete_max=2")
                .batchCompleteMax(), "a max below the min is raised to it");
        JobSpec polling = parse("--size=1m", "--iodepth=16", "--iodepth_batch_complete_min=0", "--iodepth_batch_complete_max=0");
        assertEquals(0, polling.batchCompleteMin());
        assertEquals(1, polling.batchCompleteMax(), "a full queue still reaps one");
    }

    @Test
    void syncEnginesRunAtDepthOne() {
        JobSpec s = parse("--size=1m", "--ioengine=psync", "--iodepth=32");
        assertEquals(1, s.iodepth());
        assertEquals(32, s.requestedIodepth());
        assertEquals(32, parse("--size=1m", "--ioengine=afc", "--iodepth=32").iodepth());
    }

    @Test
    void preReadTurnsInvalidateOffAsFioDoes() {
        JobSpec s = parse("--size=1m", "--pre_read=1");
        assertTrue(s.preRead());
        assertFalse(s.invalidate());
        assertFalse(parse("--size=1m", "--invalidate=0").invalidate());
    }

    @Test
    void bufferedZeroIsDirectAndTimeoutIsRuntime() {
        assertTrue(parse("--size=1m", "--buffered=0").direct());
        assertFalse(parse("--size=1m", "--direct=1", "--buffered=1").direct());
        assertEquals(60_000_000_000L, parse("--size=1m", "--timeout=60").runtimeNanos());
    }

    @Test
    void timeBasedWithoutRuntimeIsAWarningAndRunsUntilTheIoIsDone() {
        List<String> warnings = new ArrayList<>();
        JobSpec s = new JobDefinition("t", List.of("--size=1m", "--time_based"), Map.of(), "test").resolve(false, warnings::add);
        assertFalse(s.timeBased());
        assertEquals(List.of("t: time_based needs a runtime; running until the I/O is done, as fio does"), warnings);
    }

    @Test
    void fadviseHintTakesFiosValues() {
        assertEquals(FadviseHint.NONE, parse("--size=1m", "--fadvise_hint=0").fadviseHint());
        assertEquals(FadviseHint.RANDOM, parse("--size=1m", "--fadvise_hint=random").fadviseHint());
        assertEquals(FadviseHint.SEQUENTIAL, parse("--size=1m", "--fadvise_hint=sequential").fadviseHint());
        assertEquals(Fadvise.RANDOM, FadviseHint.TYPE.advice(Rw.RANDREAD));
        assertEquals(Fadvise.SEQUENTIAL, FadviseHint.TYPE.advice(Rw.READ));
        assertEquals(-1, FadviseHint.NONE.advice(Rw.RANDREAD));
        assertTrue(message("--size=1m", "--fadvise_hint=maybe").contains("fadvise_hint"));
    }

    @Test
    void percentileListIsSortedAndChecked() {
        assertArrayEquals(new double[] {50, 99.5}, parse("--size=1m", "--percentile_list=99.5:50").percentiles());
        assertTrue(message("--size=1m", "--percentile_list=0:50").contains("(0,100]"));
    }

    @Test
    void randrepeatZeroDrawsASeedUnlessRandseedIsGiven() {
        assertEquals(42, parse("--size=1m", "--randrepeat=0", "--randseed=42").randSeed());
        assertFalse(parse("--size=1m", "--randrepeat=0").randRepeat());
        assertNotEquals(parse("--size=1m", "--randrepeat=0").randSeed(), parse("--size=1m", "--randrepeat=0").randSeed(),
                "the system's randomness");
    }

    @Test
    void withoutSizeTheFilesSizeAfterTheOffsetAsFio(@TempDir Path dir) throws IOException {
        Path f = Files.write(dir.resolve("f"), new byte[64 << 10]);
        JobSpec s = parse("--filename=" + f, "--offset=16k");
        assertEquals(48 << 10, s.size());
        assertEquals("test: you need to specify size= (as fio: no file of that size exists yet)", message("--rw=read"));
    }

    @Test
    void aSizeInPercentIsThatShareOfTheFileAfterTheOffsetInWholeBlocksAsFio(@TempDir Path dir) throws IOException {
        Path f = Files.write(dir.resolve("f"), new byte[100 << 10]);
        assertEquals(48 << 10, parse("--filename=" + f, "--size=50%").size(), "51200 bytes, down to whole 4k blocks");
        assertEquals(36 << 10, parse("--filename=" + f, "--size=50%", "--offset=64k").size(), "no more than after the offset");
        assertEquals(100 << 10, parse("--filename=" + f, "--size=100%").size());
        assertTrue(message("--filename=" + dir.resolve("none"), "--size=10%").contains("needs an existing file"));
        assertTrue(message("--filename=" + f, "--size=0%").contains("not a percentage"));
    }

    @Test
    void invalidValuesSayWhichOption() {
        assertTrue(message("--size=1m", "--iodepth=0").startsWith("test: iodepth must be between 1 and 4096"));
        assertTrue(message("--size=1k", "--bs=4k").contains("smaller than the block size"));
        assertTrue(message("--size=1m", "--bs=4q").contains("not a size"));
        assertTrue(message("--size=1m", "--loops=0").contains("loops must be at least 1"));
        assertTrue(message("--size=1m", "--filename=a:b").contains("one file per job"));
    }

    @Test
    void waitSpinTakesATimeWithUnitsAndRejectsOutOfRange() {
        assertEquals(0L, parse("--size=1m", "--wait_spin=0").waitSpinNanos());
        assertEquals(20_000L, parse("--size=1m", "--wait_spin=20us").waitSpinNanos());
        assertTrue(message("--size=1m", "--wait_spin=2s").contains("wait_spin"));
    }
}

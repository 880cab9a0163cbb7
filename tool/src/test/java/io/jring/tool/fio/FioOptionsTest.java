package io.jring.tool.fio;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link FioOptions}: fio's option names and syntax, jring's defaults, and the resolved {@link JobSpec}. */
class FioOptionsTest {

    private static JobSpec parse(String... args) {
        FioCommand command = new FioCommand();
        CommandLine cl = new CommandLine(command);
        ParseResult parsed = cl.parseArgs(args);
        return command.options.toSpec(parsed);
    }

    @Test
    void defaultsAreFourKRandomReadsAtDepth32ForFiveSecondsOnTheJringEngine() {
        JobSpec s = parse();
        assertEquals("jring", s.name());
        assertNull(s.filename());
        assertEquals(256L << 20, s.size());
        assertEquals(Rw.RANDREAD, s.rw());
        assertEquals(4096, s.bs());
        assertEquals(32, s.iodepth());
        assertEquals(1, s.batchSubmit());
        assertEquals(1, s.batchCompleteMin());
        assertEquals(1, s.batchCompleteMax(), "fio reaps one completion per call unless told otherwise");
        assertEquals(5_000_000_000L, s.runtimeNanos());
        assertEquals(10_000_000_000L, s.jitWarmupNanos(), "JIT warm-up at most 10 s by default");
        assertEquals(io.jring.IoUring.DEFAULT_WAIT_SPIN.toNanos(), s.waitSpinNanos(), "the ring's default spin");
        assertFalse(s.latPercentiles());
        assertTrue(s.timeBased());
        assertFalse(s.direct());
        assertFalse(s.invalidate());
        assertTrue(s.warm());
        assertEquals("jring", s.ioengine());
        assertEquals(1, s.numjobs());
        assertTrue(s.givenOptions().isEmpty());
    }

    @Test
    void fioSyntaxWithEqualsAndSizes() {
        JobSpec s = parse("--name=t", "--filename=/tmp/x", "--size=16M", "--rw=randwrite", "--bs=64k", "--iodepth=8",
                "--runtime=1", "--time_based", "--direct=1", "--numjobs=2", "--fsync=4", "--ramp_time=500ms");
        assertEquals("t", s.name());
        assertEquals("/tmp/x", s.filename());
        assertEquals(16L << 20, s.size());
        assertEquals(Rw.RANDWRITE, s.rw());
        assertEquals(65536, s.bs());
        assertEquals(8, s.iodepth());
        assertEquals(1_000_000_000L, s.runtimeNanos());
        assertEquals(500_000_000L, s.rampNanos());
        assertTrue(s.direct());
        assertFalse(s.warm());
        assertEquals(2, s.numjobs());
        assertEquals(4, s.fsync());
        assertEquals("16M", s.givenOptions().get("size"));
        assertEquals("randwrite", s.givenOptions().get("rw"));
    }

    @Test
    void everyRwModeParses() {
        assertEquals(Rw.READ, parse("--rw=read").rw());
        assertEquals(Rw.WRITE, parse("--rw=write").rw());
        assertEquals(Rw.RANDREAD, parse("--rw=randread").rw());
        assertEquals(Rw.RANDWRITE, parse("--rw=randwrite").rw());
        assertEquals(Rw.RW, parse("--rw=readwrite").rw());
        JobSpec mixed = parse("--rw=randrw", "--rwmixread=70");
        assertEquals(Rw.RANDRW, mixed.rw());
        assertEquals(70, mixed.rwmixread());
        assertEquals(30, parse("--rw=randrw", "--rwmixwrite=70").rwmixread());
        assertEquals(50, parse("--rw=randrw").rwmixread());
        assertThrows(CommandLine.ParameterException.class, () -> parse("--rw=sideways"));
    }

    @Test
    void batchSizesResolveAsFioDoes() {
        JobSpec s = parse("--iodepth=16", "--iodepth_batch_submit=0", "--iodepth_batch_complete=4", "--iodepth_batch_complete_max=8");
        assertEquals(16, s.batchSubmit());
        assertEquals(4, s.batchCompleteMin());
        assertEquals(8, s.batchCompleteMax());
        assertEquals(16, parse("--iodepth=16", "--iodepth_batch=64").batchSubmit());
    }

    @Test
    void theMostCompletionsPerReapFollowFiosFixup() {
        assertEquals(4, parse("--iodepth=16", "--iodepth_batch_complete=4").batchCompleteMax(), "max defaults to min");
        assertEquals(4, parse("--iodepth=16", "--iodepth_batch_complete=4", "--iodepth_batch_complete_max=2").batchCompleteMax(),
                "a max below the min is raised to it");
        assertEquals(16, parse("--iodepth=16", "--iodepth_batch_complete_max=64").batchCompleteMax(), "at most iodepth");
        JobSpec polling = parse("--iodepth=16", "--iodepth_batch_complete_min=0", "--iodepth_batch_complete_max=0");
        assertEquals(0, polling.batchCompleteMin());
        assertEquals(1, polling.batchCompleteMax(), "a full queue still reaps one");
    }

    @Test
    void syncEnginesRunAtDepthOne() {
        JobSpec s = parse("--ioengine=psync", "--iodepth=32");
        assertEquals(1, s.iodepth());
        assertEquals(32, s.requestedIodepth());
        assertEquals(1, parse("--ioengine=filechannel").iodepth());
        assertEquals(32, parse("--ioengine=afc").iodepth());
    }

    @Test
    void timeBasedCanBeTurnedOffForSizeBoundRuns() {
        JobSpec s = parse("--time_based=0", "--runtime=0", "--size=1m");
        assertFalse(s.timeBased());
        assertEquals(0, s.runtimeNanos());
        assertEquals(1L << 20, s.ioLimit());
    }

    @Test
    void invalidCombinationsSayWhatToDo() {
        assertEquals("--ioengine=io_uring is not a jring engine: use one of jring, psync, filechannel, afc (fio's io_uring is 'jring' here)",
                assertThrows(IllegalArgumentException.class, () -> parse("--ioengine=io_uring")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> parse("--runtime=0"));
        assertThrows(IllegalArgumentException.class, () -> parse("--direct=1", "--bs=1000"));
        assertThrows(IllegalArgumentException.class, () -> parse("--size=1k", "--bs=4k"));
        assertThrows(IllegalArgumentException.class, () -> parse("--iodepth=0"));
        assertThrows(CommandLine.ParameterException.class, () -> parse("--bs=4q"));
    }

    @Test
    void waitSpinTakesATimeWithUnitsAndRejectsOutOfRange() {
        assertEquals(0L, parse("--wait_spin=0").waitSpinNanos());
        assertEquals(20_000L, parse("--wait_spin=20us").waitSpinNanos());
        assertEquals(2_000_000L, parse("--wait_spin=2ms").waitSpinNanos());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("--wait_spin=2s")).getMessage()
                .contains("--wait_spin"));
    }
}

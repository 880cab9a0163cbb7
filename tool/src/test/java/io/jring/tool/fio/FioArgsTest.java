package io.jring.tool.fio;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link FioArgs}: fio's command line, read as fio's parse_cmd_line reads it. */
class FioArgsTest {

    private static FioArgs read(String... words) {
        return FioArgs.read(List.of(words), List.of("output-format", "output"));
    }

    @Test
    void optionsBeforeTheFirstNameAreGlobalAndEachNameStartsAJob() {
        FioArgs a = read("--size=1m", "--name=a", "--bs=8k", "--name=b", "--rw=write", "j.fio");
        assertEquals(List.of("--size=1m"), a.globalArgs());
        assertEquals(List.of("a", "b"), a.jobs().stream().map(JobDefinition::name).toList());
        assertEquals(List.of("--size=1m", "--bs=8k"), a.jobs().get(0).args());
        assertEquals(List.of("--size=1m", "--rw=write"), a.jobs().get(1).args());
        assertEquals(Map.of("name", "a", "bs", "8k"), a.jobs().get(0).ownOptions());
        assertEquals(List.of("j.fio"), a.jobFiles());
    }

    @Test
    void aValueMayFollowAsTheNextWordAndOneDashWorksAsInFio() {
        FioArgs a = read("--bs", "8k", "-size=1m", "--time_based", "--runtime", "3");
        assertEquals(List.of("--bs=8k", "--size=1m", "--time_based", "--runtime=3"), a.globalArgs());
        assertEquals(List.of(), a.jobFiles(), "time_based takes no next word");
    }

    @Test
    void nameGlobalGoesBackToTheGlobalOptions() {
        FioArgs a = read("--name=a", "--bs=8k", "--name=global", "--size=1m", "--name=b");
        assertEquals(List.of("--size=1m"), a.globalArgs());
        assertEquals(List.of("--bs=8k"), a.jobs().get(0).args());
        assertEquals(List.of("--size=1m"), a.jobs().get(1).args());
    }

    @Test
    void anUnknownOptionNamesTheNearestKnownOneTheCommandsOwnIncluded() {
        assertEquals("unknown option '--bsize' (nearest: --size)",
                assertThrows(IllegalArgumentException.class, () -> read("--bsize=4k")).getMessage());
        assertEquals("unknown option '--output-fromat' (nearest: --output-format)",
                assertThrows(IllegalArgumentException.class, () -> read("--output-fromat=json")).getMessage());
        assertEquals("option --bs needs a value (--bs=...)",
                assertThrows(IllegalArgumentException.class, () -> read("--bs")).getMessage());
    }

    @Test
    void aFioOptionJringDoesNotSupportIsNamedAsSuch() {
        assertEquals("fio option '--thinktime' is not supported by jring fio (docs/BENCHMARKS.md lists what is not)",
                assertThrows(IllegalArgumentException.class, () -> read("--thinktime=10")).getMessage());
        assertEquals("fio option '--rate_iops' is not supported by jring fio (docs/BENCHMARKS.md lists what is not)",
                assertThrows(IllegalArgumentException.class, () -> read("--name=a", "--rate_iops", "100")).getMessage());
    }

    @Test
    void onlyJringsOwnTuningOptionsStillMeanTheDemo() {
        assertTrue(read().isEmpty());
        assertTrue(read("--jit_warmup=0", "--wait_spin=0").isEmpty());
        assertFalse(read("--jit_warmup=0", "--iodepth=1").isEmpty());
        assertFalse(read("j.fio").isEmpty());
    }

    @Test
    void theDemoIsThePageCacheJobItsFirstLineNames() throws Exception {
        FioJobs demo = FioJobs.of(read("--jit_warmup=0"), java.util.Set.of(), w -> { });
        assertTrue(demo.demo());
        JobSpec s = demo.specs().getFirst();
        assertEquals(List.of(Rw.RANDREAD, 4096, 32, 256L << 20, true, 5_000_000_000L, false, true, true, 0L),
                List.of(s.rw(), s.maxBs(), s.iodepth(), s.size(), s.timeBased(), s.runtimeNanos(), s.invalidate(),
                        s.preRead(), s.temporary(), s.jitWarmupNanos()));
        assertEquals("jring fio: no job options given, so this is the page-cache demo: jring fio --name=jring --rw=randread "
                + "--bs=4k --iodepth=32 --size=256m --time_based --runtime=5 --invalidate=0 --pre_read=1 on a temp file; "
                + "give any job option and fio's defaults apply (invalidate=1: a cold cache).", FioJobs.demoLine());
    }
}

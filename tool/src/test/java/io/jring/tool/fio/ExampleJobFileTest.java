package io.jring.tool.fio;

import io.jring.Fds;
import io.jring.IoUringException;
import io.jring.OpenFlags;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A job file from fio's examples/ directory, unchanged (tiobench-example.fio: [global] with
 * direct, size, bsrange, timeout and numjobs with a trailing comment, then four sections
 * behind stonewalls): it reads as fio reads it, and it runs, scaled down to a few MiB and
 * a fraction of a second so the suite stays quick (the full run is in BENCHMARKS.md).
 */
class ExampleJobFileTest {

    @TempDir
    Path dir;

    private static Path example() throws URISyntaxException {
        return Path.of(ExampleJobFileTest.class.getResource("examples/tiobench-example.fio").toURI());
    }

    private FioJobs jobs() throws Exception {
        // As a fio user would run it elsewhere: fio --directory=... tiobench-example.fio
        FioArgs args = FioArgs.read(List.of("--directory=" + dir, "--jit_warmup=0", example().toString()), List.of());
        return FioJobs.of(args, Set.of(), w -> { });
    }

    @Test
    void tiobenchExampleReadsAsFioReadsIt() throws Exception {
        List<JobSpec> specs = jobs().specs();
        assertEquals(List.of("f1", "f2", "f3", "f4"), specs.stream().map(JobSpec::name).toList());
        assertEquals(List.of(Rw.WRITE, Rw.RANDWRITE, Rw.READ, Rw.RANDREAD), specs.stream().map(JobSpec::rw).toList());
        assertEquals(List.of(false, true, true, true), specs.stream().map(JobSpec::stonewall).toList());
        for (JobSpec s : specs) {
            assertTrue(s.direct());
            assertEquals(512L << 20, s.size());
            assertEquals(new BlockSizes(4096, 4096, 4096, 4096), s.bs());
            assertEquals(60_000_000_000L, s.runtimeNanos(), "timeout is runtime");
            assertEquals(4, s.numjobs(), "numjobs=4 despite the trailing comment");
            assertTrue(s.invalidate());
        }
        FioRun run = new FioRun(specs, Fadvise.POSIX);
        assertEquals(List.of(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3), run.jobs().stream().map(j -> j.groupId).toList());
        assertEquals(List.of(4, 4, 4, 4), run.phases().stream().map(List::size).toList());
        assertEquals(dir.resolve("f3.2.0"), run.jobs().get(10).file, "fio's jobname.N.0");
    }

    @Test
    void tiobenchExampleRunsScaledDown() throws Exception {
        Assumptions.assumeTrue(directIoWorksIn(dir), "O_DIRECT works on the temp directory's file system");
        List<JobSpec> scaled = new ArrayList<>();
        for (JobSpec s : jobs().specs()) {
            scaled.add(s.scaledTo(2L << 20, 500_000_000L));
        }
        FioRun run = new FioRun(scaled, Fadvise.POSIX);
        run.execute(line -> { }, phase -> null);
        for (Job j : run.jobs()) {
            assertEquals(0, j.stats.error, j.stats.errorText);
            DirStats d = j.spec.rw().hasWrites() ? j.stats.write : j.stats.read;
            assertTrue(d.ios > 0, j.spec.name() + "." + j.number + " did I/O");
            assertTrue(Files.isRegularFile(j.file));
        }
        List<ReportedJob> entries = ReportedJob.of(run.jobs());
        assertEquals(16, entries.size());
        assertEquals(4, ReportedJob.groups(entries));
    }

    private static boolean directIoWorksIn(Path dir) throws Exception {
        Path probe = Files.write(dir.resolve("probe"), new byte[4096]);
        try {
            Fds.close(Fds.open(probe, OpenFlags.RDONLY | OpenFlags.DIRECT, 0));
            return true;
        } catch (IoUringException e) {
            return false;
        } finally {
            Files.delete(probe);
        }
    }
}

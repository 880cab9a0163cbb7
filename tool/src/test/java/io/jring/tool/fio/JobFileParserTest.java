package io.jring.tool.fio;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link JobFileParser}: fio's job file syntax, [global], sections, comments, includes and errors (fio's parse_jobs_ini). */
class JobFileParserTest {

    @TempDir
    Path dir;

    private Path file(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private JobFileParser.Parsed parse(String text) throws IOException {
        return new JobFileParser(Map.of("BS", "16k")::get).parse(file("j.fio", text), List.of(), Set.of(), false);
    }

    private String error(String text) {
        return assertThrows(IllegalArgumentException.class, () -> parse(text)).getMessage();
    }

    private static JobSpec spec(JobDefinition d) {
        return d.resolve(false, w -> { });
    }

    @Test
    void eachSectionIsAJobAndGlobalAppliesToTheJobsAfterIt() throws IOException {
        JobFileParser.Parsed p = parse("[global]\nsize=1m\nbs=8k\n[a]\n[global]\nbs=16k\n[b]\nrw=randread\n");
        assertEquals(List.of("a", "b"), p.jobs().stream().map(JobDefinition::name).toList());
        assertEquals(8192, spec(p.jobs().get(0)).maxBs());
        assertEquals(16384, spec(p.jobs().get(1)).maxBs());
        assertEquals(Rw.RANDREAD, spec(p.jobs().get(1)).rw());
        assertEquals(Map.of("rw", "randread"), p.jobs().get(1).ownOptions());
        assertEquals("16k", p.globalOptions().get("bs"));
    }

    @Test
    void commentsBlanksAndValuelessOptionsAsFio() throws IOException {
        JobFileParser.Parsed p = parse("; a comment\n# another\n\n[a]   ; trailing\n  size = 1m  # trailing\n"
                + "numjobs=4\t; tab, then a comment\ntime_based\nruntime=1\nstonewall\n");
        JobSpec s = spec(p.jobs().getFirst());
        assertEquals(1L << 20, s.size());
        assertEquals(4, s.numjobs());
        assertTrue(s.timeBased());
        assertTrue(s.stonewall());
    }

    @Test
    void aRepeatedOptionTheLastOneWins() throws IOException {
        JobSpec s = spec(parse("[global]\nsize=1m\nbs=4k\n[a]\nbs=8k\nbs=64k\n").jobs().getFirst());
        assertEquals(65536, s.maxBs());
    }

    @Test
    void environmentVariablesAreExpandedInValues() throws IOException {
        assertEquals(16384, spec(parse("[a]\nsize=1m\nbs=${BS}\n").jobs().getFirst()).maxBs());
        assertEquals(4096, spec(parse("[a]\nsize=1m\nbs=4k${UNSET}\n").jobs().getFirst()).maxBs(), "unset: nothing");
    }

    @Test
    void anIncludedFileAddsItsOptionsToTheSection() throws IOException {
        file("common.fio", "size=1m\nbs=32k\n");
        assertEquals(32768, spec(parse("[a]\ninclude common.fio\n").jobs().getFirst()).maxBs());
    }

    @Test
    void sectionsKeepOnlyTheJobsNamedAndEveryGlobal() throws IOException {
        Path f = file("j.fio", "[global]\nsize=1m\n[a]\n[b]\nbs=8k\n[c]\n");
        JobFileParser.Parsed p = new JobFileParser().parse(f, List.of(), Set.of("b"), false);
        assertEquals(List.of("b"), p.jobs().stream().map(JobDefinition::name).toList());
        assertEquals(1L << 20, spec(p.jobs().getFirst()).size());
    }

    @Test
    void theCommandLinesOptionsAreDefaultsTheFileOverrides() throws IOException {
        Path f = file("j.fio", "[a]\nsize=1m\nbs=8k\n");
        JobSpec s = spec(new JobFileParser().parse(f, List.of("--bs=64k", "--iodepth=4"), Set.of(), false).jobs().getFirst());
        assertEquals(8192, s.maxBs(), "the job file wins, as in fio");
        assertEquals(4, s.iodepth());
    }

    @Test
    void aLaterJobFileStartsBehindAStonewall() throws IOException {
        Path f = file("j.fio", "[a]\nsize=1m\n[b]\nsize=1m\n");
        List<JobDefinition> jobs = new JobFileParser().parse(f, List.of(), Set.of(), true).jobs();
        assertTrue(spec(jobs.get(0)).stonewall());
        assertTrue(!spec(jobs.get(1)).stonewall());
    }

    @Test
    void errorsAreOneLineWithTheFileAndLine() {
        String at = dir.resolve("j.fio") + ":";
        assertEquals(at + "3: unknown option 'bsize' (nearest: size)", error("[a]\nsize=1m\nbsize=4k\n"));
        assertEquals(at + "2: fio option 'bssplit' is not supported by jring fio (docs/BENCHMARKS.md lists what is not)",
                error("[a]\nbssplit=4k/50:64k/50\n"));
        assertEquals(at + "1: option 'size=1m' outside of a [] job section", error("size=1m\n[a]\n"));
        assertEquals(at + "2: option 'bs' needs a value (bs=...)", error("[a]\nbs\n"));
        assertEquals(at + "2: '[a' is not a [section] header", error("[a]\n[a\n"));
    }

    @Test
    void aMissingJobFileSaysWhy() {
        IOException e = assertThrows(IOException.class,
                () -> new JobFileParser().parse(dir.resolve("none.fio"), List.of(), Set.of(), false));
        assertEquals("cannot read job file " + dir.resolve("none.fio") + ": No such file or directory", e.getMessage());
    }
}

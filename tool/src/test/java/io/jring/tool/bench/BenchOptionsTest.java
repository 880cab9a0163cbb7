package io.jring.tool.bench;

import io.jring.TaskWorkKind;
import io.jring.tool.JringCommand;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Parsing of the options of {@link NopBench} and {@link TwaddBench}, and the shared {@link BenchOptions}. */
class BenchOptionsTest {

    @SuppressWarnings("unchecked")
    private static <T> T parse(String... args) {
        ParseResult pr = JringCommand.commandLine().parseArgs(args);
        while (pr.hasSubcommand()) {
            pr = pr.subcommand();
        }
        return (T) pr.commandSpec().userObject();
    }

    @Test
    void nopDefaultsMatchTheIssue() {
        NopBench b = parse("bench", "nop");
        assertEquals(32, b.batch);
        assertEquals(5, b.seconds.value());
        assertEquals(2, b.warmup.value());
        assertEquals(RingFlags.single, b.flags);
        assertEquals(TaskWorkKind.MPSC, b.kind.single());
        assertEquals(OutputFormat.normal, b.output.format());
    }

    @Test
    void nopTakesEveryOption() {
        NopBench b = parse("bench", "nop", "--batch=16", "--seconds=2", "--warmup=0", "--flags=defer",
                "--kind=llist", "--reap=peek", "--output-format=json");
        assertEquals(16, b.batch);
        assertEquals(2, b.seconds.value());
        assertEquals(0, b.warmup.value());
        assertEquals(RingFlags.defer, b.flags);
        assertEquals(TaskWorkKind.LLIST, b.kind.single());
        assertEquals(NopLoop.Reap.peek, b.reap);
        assertEquals(OutputFormat.json, b.output.format());
    }

    @Test
    void nopRejectsUnknownFlagsValue() {
        assertThrows(CommandLine.ParameterException.class, () -> parse("bench", "nop", "--flags=sqpoll"));
    }

    @Test
    void twaddDefaults() {
        TwaddBench b = parse("bench", "twadd");
        assertArrayEquals(new int[] {2}, b.producers.values());
        assertEquals(List.of(TaskWorkKind.values()), b.kinds.kinds());
        assertEquals(3, b.seconds.value());
        assertEquals(3, b.rounds.value());
        assertEquals(1024, b.items);
    }

    @Test
    void twaddProducersTakeListsAndRanges() {
        TwaddBench b = parse("bench", "twadd", "--producers=1,2,4", "--kind=MPSC,locked", "--seconds=1");
        assertArrayEquals(new int[] {1, 2, 4}, b.producers.values());
        assertEquals(List.of(TaskWorkKind.LOCKED, TaskWorkKind.MPSC), b.kinds.kinds());
        TwaddBench r = parse("bench", "twadd", "--producers=1..4", "--kind=all");
        assertArrayEquals(new int[] {1, 2, 3, 4}, r.producers.values());
        assertEquals(4, r.kinds.kinds().size());
    }

    @Test
    void twaddRejectsBadCountsAndKinds() {
        assertThrows(CommandLine.ParameterException.class, () -> parse("bench", "twadd", "--producers=0"));
        assertThrows(CommandLine.ParameterException.class, () -> parse("bench", "twadd", "--producers=4..1"));
        assertThrows(CommandLine.ParameterException.class, () -> parse("bench", "twadd", "--producers=x"));
        assertThrows(CommandLine.ParameterException.class, () -> parse("bench", "twadd", "--kind=FIFO"));
    }

    /** Runs a command that must be refused before measuring anything; returns its error output. */
    private static String refused(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cl = JringCommand.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        assertEquals(2, cl.execute(args), String.join(" ", args) + ": " + err);
        return err.toString();
    }

    @Test
    void nopRefusesAnUnknownAnchor() {
        assertThrows(CommandLine.ParameterException.class, () -> parse("bench", "nop", "--anchor=maybe"));
    }

    @Test
    void everyBenchRefusesTheSameOutOfRangeValueWithTheSameLine() {
        for (String bench : List.of("nop", "msgring", "twadd", "diowrite", "heavytw", "echo")) {
            assertTrue(refused("bench", bench, "--seconds=0").contains("--seconds must be >= 1, got 0"), bench);
        }
        for (String bench : List.of("nop", "msgring", "twadd", "diowrite", "echo")) {
            assertTrue(refused("bench", bench, "--warmup=-1").contains("--warmup must be >= 0, got -1"), bench);
        }
        for (String bench : List.of("twadd", "diowrite", "heavytw", "echo")) {
            assertTrue(refused("bench", bench, "--rounds=0").contains("--rounds must be >= 1, got 0"), bench);
        }
        assertTrue(refused("bench", "coldstart", "--rounds=2").contains("--rounds must be >= 3, got 2"));
    }

    @Test
    void aBenchOfOneRingTakesOneKindAndAComparingBenchAList() {
        assertTrue(refused("bench", "nop", "--kind=LOCKED,MPSC").contains("--kind must be one of"));
        assertTrue(refused("bench", "msgring", "--kind=all").contains("--kind must be one of"));
        assertTrue(refused("bench", "twadd", "--kind=,").contains("--kind selects no strategy"));
        HeavyTwBench heavy = parse("bench", "heavytw", "--kind=priority");
        assertEquals(List.of(TaskWorkKind.PRIORITY), heavy.kinds.kinds());
    }
}

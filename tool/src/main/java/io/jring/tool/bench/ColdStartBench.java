package io.jring.tool.bench;

import io.jring.tool.report.Figures;
import io.jring.tool.report.Rounds;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code jring bench coldstart} (issue 16, A6): the cost of jring in a fresh JVM. Runs
 * {@link ColdStartProbe} in {@code --rounds} fresh JVMs per mode, alternating a bare FFM
 * program (the JDK's floor: the first downcall with errno capture) and jring's first
 * {@code IoUring.open} plus its first 50 ms TIMEOUT, and prints the medians with their ranges:
 * open minus the floor (target: at most 30 ms) and the TIMEOUT from submit to CQE (target:
 * within 60 ms).
 */
@Command(name = "coldstart", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Start-up cost: how long a fresh JVM takes to make its first jring calls.",
            "It starts --rounds fresh JVMs for each of a bare FFM downcall, jring's first ring open and a first "
                    + "50 ms TIMEOUT, alternating, and prints medians and ranges against the targets: the open at most "
                    + "30 ms above the bare downcall, the TIMEOUT done within 60 ms."})
public final class ColdStartBench implements Callable<Integer> {
    private static final Pattern LINE = Pattern.compile("first_ms=([0-9.]+) timeout_ms=(-?[0-9.]+)");

    /** Fresh JVMs per mode; at least 3, for a median and a range. */
    @Mixin
    BenchOptions.Rounds rounds = new BenchOptions.Rounds(10, 3);

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException, InterruptedException {
        BenchOptions.validate(spec);
        int rounds = this.rounds.value();
        PrintWriter out = spec.commandLine().getOut();
        double[] bare = new double[rounds];
        double[] open = new double[rounds];
        double[] timeout = new double[rounds];
        double[] over = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            bare[i] = probe("bare")[0];
            double[] j = probe("jring");
            open[i] = j[0];
            timeout[i] = j[1];
            over[i] = open[i] - bare[i];
            out.printf("round %d: bare first downcall %s ms, jring open %s ms, first TIMEOUT(50 ms) %s ms%n",
                    i + 1, Figures.fixed(bare[i], 1), Figures.fixed(open[i], 1), Figures.fixed(timeout[i], 1));
            out.flush();
        }
        Rounds b = Rounds.of(bare);
        Rounds o = Rounds.of(open);
        Rounds d = Rounds.of(over);
        Rounds t = Rounds.of(timeout);
        out.printf("floor (bare FFM first downcall): median %s ms (%s-%s)%n", ms(b.median()), ms(b.min()), ms(b.max()));
        out.printf("jring first open:                median %s ms (%s-%s), over the floor %s ms (%s-%s; target <= 30)%n",
                ms(o.median()), ms(o.min()), ms(o.max()), ms(d.median()), ms(d.min()), ms(d.max()));
        out.printf("first TIMEOUT of 50 ms:          median %s ms (%s-%s; target <= 60)%n",
                ms(t.median()), ms(t.min()), ms(t.max()));
        out.flush();
        return 0;
    }

    private static String ms(double v) {
        return Figures.fixed(v, 1);
    }

    /** One fresh JVM of {@link ColdStartProbe} in {@code mode}: {first_ms, timeout_ms}. */
    private static double[] probe(String mode) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), ColdStartProbe.class.getName(), mode));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("cold-start probe '" + mode + "' failed: " + text.strip());
        }
        Matcher m = LINE.matcher(text);
        if (!m.find()) {
            throw new IOException("cold-start probe '" + mode + "' printed no result: " + text.strip());
        }
        return new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2))};
    }
}

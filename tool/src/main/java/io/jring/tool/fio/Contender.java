package io.jring.tool.fio;

import io.jring.tool.JringCommand;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One configuration {@code jring compare} measures: real fio with one of its engines, or
 * {@code jring fio} with one of jring's, at one depth. Both run as their own process with
 * the same fio options and JSON output, so each starts fresh (a new JVM for jring: no JIT
 * profile or heap carried over from another engine) and both are read the same way.
 *
 * @param fio    true for real fio, false for jring fio
 * @param engine the --ioengine value
 * @param depth  the --iodepth value (1 for the sync engines)
 */
record Contender(boolean fio, String engine, int depth) {

    /** fio's sync engine and jring's two: one call per I/O, depth 1 by definition. */
    boolean isSync() {
        return engine.equals("psync") || engine.equals("filechannel");
    }

    /** "fio io_uring", "jring", "jring afc", ... */
    String label() {
        if (fio) {
            return "fio " + engine;
        }
        return engine.equals("jring") ? "jring" : "jring " + engine;
    }

    /** The command line of one run. */
    List<String> command(String fioBinary, Path file, CompareCommand.Plan plan) {
        List<String> cmd = new ArrayList<>();
        if (fio) {
            cmd.add(fioBinary);
        } else {
            cmd.addAll(javaCommand());
            cmd.add("fio");
            cmd.add("--eta=never");
        }
        cmd.add("--name=compare");
        cmd.add("--filename=" + file);
        cmd.add("--size=" + plan.size());
        cmd.add("--rw=randread");
        cmd.add("--bs=" + plan.bs());
        cmd.add("--ioengine=" + engine);
        cmd.add("--iodepth=" + depth);
        cmd.add("--runtime=" + plan.runtimeSeconds());
        cmd.add("--ramp_time=" + plan.rampSeconds());
        cmd.add("--time_based");
        cmd.add("--invalidate=0");
        cmd.add("--direct=" + (plan.direct() ? 1 : 0));
        cmd.add("--lat_percentiles=1");
        cmd.add("--output-format=json");
        return cmd;
    }

    /** This JVM again (same java, flags and class path), running the jring command. */
    static List<String> javaCommand() {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!arg.startsWith("-agentlib") && !arg.startsWith("-javaagent") && !arg.startsWith("-Xrunjdwp")) {
                cmd.add(arg);
            }
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(JringCommand.class.getName());
        return cmd;
    }
}

package io.jring.tool.report;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** The processes a report runs (fio, a JVM running jring fio), one at a time; Ctrl-C ends the one running. */
final class ChildProcess {

    /** What a process printed and how it ended; exit -1 when it was ended for taking too long. */
    record Output(int exit, String stdout, String stderr) {}

    /** The process running now: written by the sweep's thread, read by the shutdown hook (volatile). */
    private volatile Process current;

    /** Runs {@code cmd} to its end, or ends it after {@code timeoutSeconds}. */
    Output run(List<String> cmd, long timeoutSeconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).start();
        current = p;
        try {
            p.getOutputStream().close();
            CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
            CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                return new Output(-1, "", "timed out after " + timeoutSeconds + " s");
            }
            return new Output(p.exitValue(), stdout.join(), stderr.join());
        } finally {
            current = null;
        }
    }

    /** Ends the process running now, if any (from the shutdown hook). */
    void destroy() {
        Process p = current;
        if (p != null) {
            p.destroyForcibly();
        }
    }

    /**
     * This JVM again, with its java, flags and class path, running {@code mainClass}: jring
     * fio runs as it does from bin/jring, each run in a fresh JVM as each fio run is a fresh process.
     */
    static List<String> javaCommand(String mainClass) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!arg.startsWith("-agentlib") && !arg.startsWith("-javaagent") && !arg.startsWith("-Xrunjdwp")) {
                cmd.add(arg);
            }
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass);
        return cmd;
    }

    /** The executable {@code name} (a path, or looked up on PATH), or null. */
    static String onPath(String name) {
        if (name.contains("/")) {
            return Files.isExecutable(Path.of(name)) ? name : null;
        }
        String path = System.getenv("PATH");
        for (String dir : path == null ? new String[0] : path.split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(p) && !Files.isDirectory(p)) {
                return p.toString();
            }
        }
        return null;
    }

    /** The first lines of {@code text}, joined: enough of an error to say what went wrong. */
    static String firstLines(String text) {
        String[] lines = text.strip().split("\n", 4);
        return String.join(" | ", List.of(lines).subList(0, Math.min(3, lines.length)));
    }

    private static String readAll(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}

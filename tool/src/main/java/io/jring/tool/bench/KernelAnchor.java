package io.jring.tool.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;

/**
 * The kernel's own io_uring measured on this machine in the same run: small C programs in
 * {@code tool/anchors/} (shipped in the jar), built with {@code gcc -O2 ... -luring} into a
 * cache directory the first time, and run as child processes. Absent gcc or liburing
 * (or with the kernel's io_uring disabled) the anchor is reported as unavailable, with the
 * reason, and benches fall back to the figure in BENCHMARKS.md.
 */
public final class KernelAnchor {
    private static final Path CACHE = Path.of(System.getProperty("java.io.tmpdir"),
            "jring-anchors-" + System.getProperty("user.name", "user"));

    private KernelAnchor() {}

    /** The result of one anchor run: a rate, or why there is none. */
    public record Run(OptionalDouble opsPerSec, String problem) {
        static Run failed(String why) {
            return new Run(OptionalDouble.empty(), why);
        }
    }

    /** Runs anchor {@code name} (e.g. "nop") with {@code args}; parses its ops_per_sec line. */
    public static Run run(String name, String... args) {
        Path exe;
        try {
            exe = build(name);
        } catch (IOException | InterruptedException e) {
            return Run.failed(e.getMessage());
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(exe.toString());
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
                return Run.failed("kernel anchor '" + name + "' failed: " + out.strip());
            }
            for (String line : out.split("\n")) {
                if (line.startsWith("ops_per_sec=")) {
                    return new Run(OptionalDouble.of(Double.parseDouble(line.substring(12).strip())), null);
                }
            }
            return Run.failed("kernel anchor '" + name + "' printed no rate: " + out.strip());
        } catch (IOException | InterruptedException | NumberFormatException e) {
            return Run.failed("kernel anchor '" + name + "' could not run: " + e.getMessage());
        }
    }

    private static synchronized Path build(String name) throws IOException, InterruptedException {
        Files.createDirectories(CACHE);
        Path src = CACHE.resolve(name + ".c");
        Path exe = CACHE.resolve(name);
        try (InputStream in = KernelAnchor.class.getResourceAsStream("/anchors/" + name + ".c")) {
            if (in == null) {
                throw new IOException("anchor source anchors/" + name + ".c is not in the jar");
            }
            byte[] code = in.readAllBytes();
            if (Files.exists(exe) && Files.exists(src) && java.util.Arrays.equals(code, Files.readAllBytes(src))) {
                return exe;
            }
            Files.write(src, code);
        }
        Process cc;
        try {
            cc = new ProcessBuilder("gcc", "-O2", "-o", exe.toString(), src.toString(), "-luring")
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException("no kernel anchor: gcc not found (apt-get install gcc liburing-dev)");
        }
        String out = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!cc.waitFor(2, TimeUnit.MINUTES) || cc.exitValue() != 0) {
            Files.deleteIfExists(src);
            throw new IOException("no kernel anchor: building " + name + ".c failed (liburing missing? "
                    + "apt-get install liburing-dev): " + out.lines().findFirst().orElse(""));
        }
        Files.setPosixFilePermissions(exe, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        return exe;
    }

    /** Kernel setup mode of the anchor programs for jring's ring flags. */
    static String modeOf(RingFlags flags) {
        return switch (flags) {
            case none -> "0";
            case single -> "1";
            case defer -> "2";
        };
    }

    /**
     * Prints the anchor line of a bench's human output: the kernel's rate measured in the
     * same run and jring's ratio to it, or why the kernel was not measured. Nothing if the
     * anchor was not run ({@code kernel} null).
     */
    public static void printComparison(java.io.PrintWriter out, Run kernel, String what, String anchorFile,
                                       String unit, double jringRate) {
        if (kernel == null) {
            return;
        }
        if (kernel.opsPerSec().isPresent()) {
            double k = kernel.opsPerSec().getAsDouble();
            out.printf("  kernel io_uring %s on this machine, same run (tool/anchors/%s): %s %s -> jring = %sx kernel%n",
                    what, anchorFile, io.jring.tool.report.Figures.si(k), unit,
                    io.jring.tool.report.Figures.fixed(jringRate / k, 2));
        } else {
            out.println("  kernel anchor not measured: " + kernel.problem());
        }
    }

    /** Rethrows what a bench's loop thread failed with (unchecked as it was, else wrapped). */
    static void rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        if (t != null) {
            throw new IllegalStateException(t);
        }
    }
}

package io.jring.module;

import io.jring.IoUring;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Module io.jring (core's module-info) as a user sees it: the engine's packages are not
 * visible to a module that requires io.jring, and a program using the API compiles and runs
 * on the module path and on the class path. Compiles small consumers with the system
 * compiler against core's compiled classes (an exploded module) and runs them in a new JVM.
 */
class ModulePathTest {
    private static final String MAIN = """
            package consumer;

            import io.jring.Cqe;
            import io.jring.Fds;
            import io.jring.IoUring;

            public final class Main {
                public static void main(String[] args) {
                    try (IoUring ring = IoUring.open(8)) {
                        ring.getSqe().prepNop().userData(42);
                        ring.submitAndWait(1);
                        Cqe cqe = ring.waitCqe();
                        System.out.println("nop userData=" + cqe.userData() + " res=" + cqe.res());
                        ring.cqeSeen(cqe);
                    }
                    int[] pipe = Fds.pipe();
                    Fds.write(pipe[1], new byte[] {'o', 'k'});
                    byte[] got = new byte[2];
                    Fds.read(pipe[0], got);
                    Fds.close(pipe[0]);
                    Fds.close(pipe[1]);
                    System.out.println("pipe " + new String(got, java.nio.charset.StandardCharsets.US_ASCII));
                }
            }
            """;

    @TempDir
    Path dir;

    @Test
    void engineInternalsDoNotCompileOnTheModulePath() throws IOException {
        Path src = write("bad", "consumer/Bad.java", """
                package consumer;

                import io.jring.core.RingContext;

                public final class Bad {
                    RingContext ctx;
                }
                """);
        write("bad", "module-info.java", "module consumer { requires io.jring; }");
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        boolean ok = compile(src.getParent().getParent(), dir.resolve("bad-out"),
                List.of("--module-path", coreClasses().toString(), "--class-path", emptyDir()), diagnostics);
        assertFalse(ok, "a class importing io.jring.core compiled on the module path");
        String messages = diagnostics.getDiagnostics().toString();
        assertTrue(messages.contains("package io.jring.core is not visible")
                && messages.contains("does not export it"), messages);
    }

    @Test
    void apiProgramRunsOnTheModulePath() throws Exception {
        write("mod", "consumer/Main.java", MAIN);
        write("mod", "module-info.java", "module consumer { requires io.jring; }");
        Path out = dir.resolve("mod-out");
        assertCompiles(dir.resolve("mod"), out, List.of("--module-path", coreClasses().toString(), "--class-path", emptyDir()));
        Result r = run("--enable-native-access=io.jring",
                "--module-path", coreClasses() + File.pathSeparator + out, "-m", "consumer/consumer.Main");
        assertEquals(0, r.exit, r.output);
        assertEquals("nop userData=42 res=0\npipe ok", r.output.strip());
    }

    @Test
    void apiProgramRunsOnTheClassPath() throws Exception {
        write("cp", "consumer/Main.java", MAIN);
        Path out = dir.resolve("cp-out");
        assertCompiles(dir.resolve("cp"), out, List.of("--class-path", coreClasses().toString()));
        Result r = run("--enable-native-access=ALL-UNNAMED",
                "--class-path", coreClasses() + File.pathSeparator + out, "consumer.Main");
        assertEquals(0, r.exit, r.output);
        assertEquals("nop userData=42 res=0\npipe ok", r.output.strip());
    }

    /** What README says happens without the flag: JDK 25 warns once, naming the module, and runs on. */
    @Test
    void withoutTheFlagTheJdkWarnsAndRuns() throws Exception {
        write("warn", "consumer/Main.java", MAIN);
        write("warn", "module-info.java", "module consumer { requires io.jring; }");
        Path out = dir.resolve("warn-out");
        assertCompiles(dir.resolve("warn"), out, List.of("--module-path", coreClasses().toString(), "--class-path", emptyDir()));
        Result r = run("--module-path", coreClasses() + File.pathSeparator + out, "-m", "consumer/consumer.Main");
        assertEquals(0, r.exit, r.output);
        assertTrue(r.output.contains("WARNING: A restricted method")
                && r.output.contains("--enable-native-access=io.jring"), r.output);
        assertTrue(r.output.contains("pipe ok"), r.output);
    }

    private Path write(String root, String file, String text) throws IOException {
        Path p = dir.resolve(root).resolve(file);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    private void assertCompiles(Path srcRoot, Path out, List<String> options) throws IOException {
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        assertTrue(compile(srcRoot, out, options, diagnostics), diagnostics.getDiagnostics().toString());
    }

    private static boolean compile(Path srcRoot, Path out, List<String> options,
                                   DiagnosticCollector<JavaFileObject> diagnostics) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<Path> sources;
        try (var files = Files.walk(srcRoot)) {
            sources = files.filter(p -> p.toString().endsWith(".java")).toList();
        }
        Files.createDirectories(out);
        List<String> args = new ArrayList<>(options);
        args.addAll(List.of("-d", out.toString()));
        try (StandardJavaFileManager fm = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            return javac.getTask(null, fm, diagnostics, args, null, fm.getJavaFileObjectsFromPaths(sources)).call();
        }
    }

    /** javac in this JVM defaults to this JVM's class path; a module's compile gets none. */
    private String emptyDir() throws IOException {
        return Files.createDirectories(dir.resolve("empty")).toString();
    }

    private record Result(int exit, String output) {}

    private static Result run(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] output = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "consumer did not exit");
        return new Result(p.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    /** Core's compiled classes, module-info.class included: an exploded module io.jring. */
    private static Path coreClasses() {
        try {
            Path p = Path.of(IoUring.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            assertTrue(Files.exists(p.resolve("module-info.class")), p + " has no module-info.class");
            return p;
        } catch (URISyntaxException e) {
            throw new AssertionError(e);
        }
    }
}

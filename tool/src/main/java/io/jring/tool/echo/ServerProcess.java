package io.jring.tool.echo;

import io.jring.tool.JringCommand;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code jring echo-server} in a child JVM, so the server has a process (and a core) of its
 * own: same java binary and class path as this JVM, bin/jring's JVM flags. The child is
 * never left behind: {@link #close()} ends it, a shutdown hook ends it if this JVM exits
 * first, and its stdin is a pipe from this JVM, so even if this JVM is killed the child
 * sees end of file and stops.
 */
final class ServerProcess implements AutoCloseable {

    /**
     * bin/jring's JVM flags, which the engine is tuned for (see bin/jring), and the export
     * the nio2-jdk server needs to open the JDK's own provider (as the tool jar's manifest has it).
     */
    static final List<String> JVM_FLAGS = List.of("--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC",
            "-Xms512m", Nio2EchoServer.JDK_PROVIDER_FLAG);
    static final long START_TIMEOUT_SECONDS = 30;
    static final long STOP_TIMEOUT_SECONDS = 5;
    /** Lines of the child's output kept to explain a failure: its first (the error, usually) and its last. */
    static final int HEAD_LINES = 10;
    static final int TAIL_LINES = 20;

    private final Process process;
    private final InetSocketAddress address;
    private final Transcript output;
    private final Thread hook;

    private ServerProcess(Process process, InetSocketAddress address, Transcript output, Thread hook) {
        this.process = process;
        this.address = address;
        this.output = output;
        this.hook = hook;
    }

    /** Starts {@code jring <serverArgs>} and waits for its listening line. */
    static ServerProcess start(List<String> serverArgs, List<String> extraJvmOptions)
            throws IOException, InterruptedException {
        List<String> command = command(javaBinary(), System.getProperty("java.class.path"), extraJvmOptions, serverArgs);
        Process p = new ProcessBuilder(command).start();
        Thread hook = new Thread(() -> stop(p), "jring-echo-server-reaper");
        Runtime.getRuntime().addShutdownHook(hook);
        Transcript output = new Transcript();
        CompletableFuture<InetSocketAddress> listening = new CompletableFuture<>();
        List<Thread> drains = List.of(drain(p.getInputStream(), "stdout", output, listening),
                drain(p.getErrorStream(), "stderr", output, null));
        ServerProcess server = null;
        try {
            InetSocketAddress address = awaitListening(p, listening, output, drains);
            server = new ServerProcess(p, address, output, hook);
            return server;
        } finally {
            if (server == null) {
                stop(p);
                removeHook(hook);
            }
        }
    }

    /** The child's command line: java, JVM flags, class path, main class, server arguments. */
    static List<String> command(String java, String classPath, List<String> extraJvmOptions, List<String> serverArgs) {
        List<String> c = new ArrayList<>();
        c.add(java);
        c.addAll(JVM_FLAGS);
        c.addAll(extraJvmOptions);
        c.add("-cp");
        c.add(classPath);
        c.add(JringCommand.class.getName());
        c.addAll(serverArgs);
        return c;
    }

    /** {@code --server-java-opts} split into options, at whitespace. */
    static List<String> splitOptions(String options) {
        return options == null || options.isBlank() ? List.of() : Arrays.asList(options.trim().split("\\s+"));
    }

    static String javaBinary() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    private static InetSocketAddress awaitListening(Process p, CompletableFuture<InetSocketAddress> listening,
                                                    Transcript output, List<Thread> drains)
            throws IOException, InterruptedException {
        p.onExit().thenRun(() -> listening.completeExceptionally(
                new IOException("the server exited with status " + p.exitValue() + " before listening")));
        try {
            return listening.get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new IOException("the server printed no '" + ListeningLine.PREFIX.trim() + "' line within "
                    + START_TIMEOUT_SECONDS + " s" + output);
        } catch (ExecutionException e) {
            // The child exited: its pipes end, so the drains finish with its last words.
            for (Thread t : drains) {
                t.join(TimeUnit.SECONDS.toMillis(1));
            }
            throw new IOException(e.getCause().getMessage() + output, e.getCause());
        }
    }

    /** Reads a child stream to its end on a daemon thread, keeping its last lines; the first listening line completes {@code listening}. */
    private static Thread drain(InputStream in, String name, Transcript output,
                                CompletableFuture<InetSocketAddress> listening) {
        return Thread.ofPlatform().daemon().name("jring-echo-server-" + name).start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    InetSocketAddress a = listening == null ? null : ListeningLine.parse(line);
                    if (a != null && !listening.isDone()) {
                        listening.complete(a);
                    } else {
                        output.add(name + ": " + line);
                    }
                }
            } catch (IOException e) {
                // The child is gone; what it said is in the transcript already.
            }
        });
    }

    InetSocketAddress address() {
        return address;
    }

    long pid() {
        return process.pid();
    }

    /** CPU time the child has used so far, all its threads; -1 if the OS does not tell. */
    long cpuNanos() {
        return process.toHandle().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Whether the child is still running, and what it printed last: to explain a failed run. */
    String diagnostics() {
        String state = process.isAlive() ? "the server (pid " + process.pid() + ") is running"
                : "the server (pid " + process.pid() + ") exited with status " + process.exitValue();
        return state + output;
    }

    /** Stops the child (SIGTERM, then SIGKILL after {@value #STOP_TIMEOUT_SECONDS} s) and waits for it. */
    @Override
    public void close() {
        stop(process);
        removeHook(hook);
    }

    private static void stop(Process p) {
        if (!p.isAlive()) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook runs now and stops the child.
        }
    }

    /**
     * What the child printed, as far as a failure report needs it: the first lines (where
     * the error usually is) and the last ones. Written by the drain threads, read by anyone.
     */
    static final class Transcript {
        private final List<String> head = new ArrayList<>();
        private final Deque<String> tail = new ArrayDeque<>();
        private long dropped;

        synchronized void add(String line) {
            if (head.size() < HEAD_LINES) {
                head.add(line);
                return;
            }
            if (tail.size() == TAIL_LINES) {
                tail.removeFirst();
                dropped++;
            }
            tail.addLast(line);
        }

        /** "; its output:" and the lines, or " (it printed nothing)". */
        @Override
        public synchronized String toString() {
            if (head.isEmpty()) {
                return " (it printed nothing)";
            }
            List<String> lines = new ArrayList<>(head);
            if (dropped > 0) {
                lines.add("... " + dropped + " more lines ...");
            }
            lines.addAll(tail);
            return "; its output:\n  " + String.join("\n  ", lines);
        }
    }
}

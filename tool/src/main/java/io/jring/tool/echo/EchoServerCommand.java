package io.jring.tool.echo;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * {@code jring echo-server}: a TCP echo server on jring, on Netty or on NIO.2, running until stopped.
 * When it is ready it prints exactly one line, {@code listening on <host>:<port>}, so a
 * parent ({@code jring bench echo}) can learn the port.
 */
@Command(name = "echo-server", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "TCP echo server on jring, on Netty 4.2's epoll or io_uring transport, or on NIO.2 (the JDK's or jring's"
                    + " provider), for 'jring bench echo'.",
            "jring: one ring on one thread; multishot accept, recv with provided buffers, send."
                    + " Prints 'listening on <host>:<port>' when ready, then runs until SIGTERM, Ctrl-C or end of"
                    + " file on stdin (so it stops when the parent that started it goes away)."})
public final class EchoServerCommand implements Callable<Integer> {

    @Option(names = "--port", defaultValue = "0", description = "Port to bind; 0 picks a free one (default ${DEFAULT-VALUE}).")
    int port;

    @Mixin
    EchoServerOptions server = new EchoServerOptions();

    @Option(names = "--ignore-stdin",
            description = "Keep running at end of file on stdin (to run in the background: jring echo-server --ignore-stdin &).")
    boolean ignoreStdin;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        server.validate(spec.commandLine());
        if (port < 0 || port > 65535) {
            throw new ParameterException(spec.commandLine(), "--port must be 0..65535, got " + port);
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        EchoServer echo;
        try {
            echo = EchoServer.start(server.config(server.impl(), port));
        } catch (Exception e) {
            // Netty rethrows a failed bind's checked exception undeclared, so catch them all.
            err.println("jring echo-server: cannot start the " + server.impl() + " server: " + e.getMessage());
            err.flush();
            return 1;
        }
        Thread hook = new Thread(echo::close, "jring-echo-server-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            out.println(ListeningLine.format(echo.address()));
            out.flush();
            if (!ignoreStdin) {
                Thread.ofPlatform().daemon().name("jring-echo-stdin").start(() -> closeAtEndOfInput(System.in, echo));
            }
            Throwable failure = echo.awaitStopped();
            if (failure != null) {
                err.println("jring echo-server: the " + server.impl() + " server failed: " + failure);
                err.flush();
                return 1;
            }
            return 0;
        } finally {
            echo.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running or has run: it closes the server, nothing left to undo.
            }
        }
    }

    private static void closeAtEndOfInput(InputStream in, EchoServer echo) {
        byte[] sink = new byte[256];
        try {
            while (in.read(sink) >= 0) {
                // Input is ignored; only its end matters.
            }
        } catch (IOException e) {
            // An unreadable stdin counts as closed.
        }
        echo.close();
    }
}

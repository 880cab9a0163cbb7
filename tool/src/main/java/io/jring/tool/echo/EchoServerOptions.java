package io.jring.tool.echo;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.util.ArrayList;
import java.util.List;

/**
 * The server options {@code jring echo-server} takes and {@code jring bench echo} passes
 * through to the server it starts. A picocli mixin.
 */
public final class EchoServerOptions {

    @Option(names = "--host", defaultValue = "127.0.0.1",
            description = "Address to bind (server) or connect to (client); an IP literal (default ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--impl", defaultValue = "jring", paramLabel = "IMPL",
            converter = EchoImpl.Converter.class,
            description = "Echo server: jring, jring-multishot, netty-epoll, netty-io_uring, nio2-jdk or nio2-jring."
                    + " jring's engine (jring: a recv per message into classic provided buffers;"
                    + " jring-multishot: one multishot recv per connection into a buffer ring), Netty 4.2 on its"
                    + " epoll or io_uring transport, or one NIO.2 AsynchronousSocketChannel server on the JDK's"
                    + " provider (nio2-jdk) or on jring's (nio2-jring) (default ${DEFAULT-VALUE}).")
    EchoImpl impl;

    @Option(names = "--async",
            description = "jring: recv with SqeFlags.ASYNC (an io-wq worker issues it; async hybrid: it arms poll on EAGAIN).")
    boolean async;

    @Option(names = "--legacy-async",
            description = "jring: ASYNC recvs the old way, before the async hybrid: the io-wq worker blocks in recv (implies --async).")
    boolean legacyAsync;

    @Option(names = "--max-unbound", defaultValue = "0", paramLabel = "N",
            description = "jring: cap on io-wq unbound workers (registerIoWqMaxWorkers(0, N)); 0 keeps the default.")
    int maxUnbound;

    @Option(names = "--threads", defaultValue = "1", paramLabel = "N",
            description = "Netty: event-loop threads of the server; NIO.2: threads of its channel group"
                    + " (default ${DEFAULT-VALUE}, like jring's one ring on one thread).")
    int threads;

    public EchoImpl impl() {
        return impl;
    }

    public String host() {
        return host;
    }

    void validate(CommandLine cl) {
        if (maxUnbound < 0) {
            throw new ParameterException(cl, "--max-unbound must be >= 0, got " + maxUnbound);
        }
        if (threads < 1) {
            throw new ParameterException(cl, "--threads must be >= 1, got " + threads);
        }
        if (!looksLikeIpLiteral(host)) {
            throw new ParameterException(cl, "--host must be an IP address such as 127.0.0.1 or ::1, got '" + host + "'");
        }
    }

    /** The configuration of a server of {@code which} on {@code port}, with these options. */
    public EchoServerConfig config(EchoImpl which, int port) {
        return new EchoServerConfig(host, port, which, async || legacyAsync, legacyAsync, maxUnbound, threads);
    }

    /** The arguments of {@code jring echo-server} for a server of {@code which} on a free port. */
    public List<String> serverArgs(EchoImpl which) {
        List<String> args = new ArrayList<>(List.of("echo-server", "--host=" + host, "--port=0", "--impl=" + which.label()));
        args.addAll(passedThrough());
        return args;
    }

    /** The options a bench passes through to the servers it starts. */
    public List<String> passedThrough() {
        List<String> args = new ArrayList<>(List.of("--threads=" + threads));
        if (async) {
            args.add("--async");
        }
        if (legacyAsync) {
            args.add("--legacy-async");
        }
        if (maxUnbound > 0) {
            args.add("--max-unbound=" + maxUnbound);
        }
        return args;
    }

    /** Jring's Fds helpers take resolved addresses only, so names are refused up front. */
    private static boolean looksLikeIpLiteral(String host) {
        return host.matches("\\d{1,3}(\\.\\d{1,3}){3}") || (host.indexOf(':') >= 0 && host.matches("[0-9a-fA-F:.]+"));
    }
}

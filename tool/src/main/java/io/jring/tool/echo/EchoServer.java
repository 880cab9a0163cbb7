package io.jring.tool.echo;

import java.io.IOException;
import java.net.InetSocketAddress;

/** A running TCP echo server: every byte received on a connection is sent back on it. */
public interface EchoServer extends AutoCloseable {

    /** Binds and starts serving; returns once connections are accepted. */
    static EchoServer start(EchoServerConfig config) throws InterruptedException, IOException {
        return switch (config.impl()) {
            case JRING -> JringEchoServer.start(config);
            case JRING_MULTISHOT -> JringMultishotEchoServer.start(config);
            case NETTY_EPOLL -> NettyEchoServer.start(config, NettyTransport.EPOLL);
            case NETTY_IO_URING -> NettyEchoServer.start(config, NettyTransport.IO_URING);
            case NIO2_JDK, NIO2_JRING -> Nio2EchoServer.start(config);
        };
    }

    /** The address bound (with the port chosen when asked for port 0). */
    InetSocketAddress address();

    /**
     * Blocks until the server has stopped; returns why: null after {@link #close()}, else
     * the failure that stopped it.
     */
    Throwable awaitStopped() throws InterruptedException;

    /** Stops accepting, closes every connection and releases the server's threads. Idempotent. */
    @Override
    void close();
}

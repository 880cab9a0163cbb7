package io.jring.tool.echo;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Netty 4.2's echo server on its epoll or io_uring transport: the peers jring's echo server
 * is compared with. One event-loop group accepts and serves, so {@code --threads=1} matches
 * jring's one thread owning one ring.
 */
final class NettyEchoServer implements EchoServer {

    /** Listen backlog; the kernel caps it at net.core.somaxconn. */
    static final int BACKLOG = 4096;

    private final EventLoopGroup group;
    private final Channel listener;
    /** Every accepted connection, so close() can close them before the event loop goes. */
    private final ChannelGroup connections;

    private NettyEchoServer(EventLoopGroup group, Channel listener, ChannelGroup connections) {
        this.group = group;
        this.listener = listener;
        this.connections = connections;
    }

    static NettyEchoServer start(EchoServerConfig config, NettyTransport transport) throws InterruptedException {
        transport.ensureAvailable();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(config.threads(), transport.ioHandlerFactory());
        ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
        try {
            Channel listener = new ServerBootstrap()
                    .group(group)
                    .channel(transport.serverChannel())
                    .option(ChannelOption.SO_BACKLOG, BACKLOG)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .childHandler(new Echo(connections))
                    .bind(config.host(), config.port()).sync().channel();
            return new NettyEchoServer(group, listener, connections);
        } catch (RuntimeException | InterruptedException e) {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
    }

    @Override
    public InetSocketAddress address() {
        return (InetSocketAddress) listener.localAddress();
    }

    @Override
    public Throwable awaitStopped() throws InterruptedException {
        group.terminationFuture().await();
        return null;
    }

    @Override
    public void close() {
        listener.close().awaitUninterruptibly();
        connections.close().awaitUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    /** Writes back what it reads; flushes once per read burst, as Netty's own echo example does. */
    @Sharable
    static final class Echo extends ChannelInboundHandlerAdapter {
        private final ChannelGroup connections;

        Echo(ChannelGroup connections) {
            this.connections = connections;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            connections.add(ctx.channel());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg, ctx.voidPromise());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A peer's reset is the client's business (the bench counts it); drop the connection.
            ctx.close();
        }
    }
}

package io.jring.tool.echo;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;

/** Netty's two native Linux transports, the peers of the echo benchmark. */
public enum NettyTransport {
    EPOLL,
    IO_URING;

    public IoHandlerFactory ioHandlerFactory() {
        return this == EPOLL ? EpollIoHandler.newFactory() : IoUringIoHandler.newFactory();
    }

    public Class<? extends ServerChannel> serverChannel() {
        return this == EPOLL ? EpollServerSocketChannel.class : IoUringServerSocketChannel.class;
    }

    public Class<? extends SocketChannel> socketChannel() {
        return this == EPOLL ? EpollSocketChannel.class : IoUringSocketChannel.class;
    }

    public boolean isAvailable() {
        return this == EPOLL ? Epoll.isAvailable() : IoUring.isAvailable();
    }

    /** Why the transport cannot be used here (its native library or the kernel), or null. */
    public Throwable unavailabilityCause() {
        return this == EPOLL ? Epoll.unavailabilityCause() : IoUring.unavailabilityCause();
    }

    /** Throws, with Netty's reason, if the transport cannot run on this machine. */
    public void ensureAvailable() {
        if (!isAvailable()) {
            throw new IllegalStateException("Netty's " + name().toLowerCase() + " transport is unavailable: "
                    + unavailabilityCause(), unavailabilityCause());
        }
    }
}

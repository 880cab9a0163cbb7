package io.jring.nio;

import io.jring.channel.ChannelState;
import io.jring.channel.Completions;
import io.jring.channel.GroupRing;
import io.jring.channel.NetSockets;
import io.jring.channel.OpFuture;
import io.jring.channel.PendingGate;
import io.jring.channel.SocketAcceptOp;
import io.jring.channel.SocketOpts;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.nio.channels.AcceptPendingException;
import java.nio.channels.AlreadyBoundException;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.NotYetBoundException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * An {@link AsynchronousServerSocketChannel} on a jring ring: each accept is one ACCEPT
 * request on the ring the channel was opened on, and the accepted connection's channel
 * ({@link JringAsynchronousSocketChannel}) lives on the same ring, in the same group. As
 * {@code AsynchronousServerSocketChannel} says: one accept outstanding at a time
 * ({@link AcceptPendingException}); {@link NotYetBoundException} before {@link #bind};
 * {@link #close()} fails a pending accept with {@link java.nio.channels.AsynchronousCloseException};
 * after a cancelled accept Future no further accept is allowed, and {@code cancel(true)} closes
 * the channel. A backlog below 1 means 50; SO_REUSEADDR is on from the start, as in the JDK.
 */
public final class JringAsynchronousServerSocketChannel extends AsynchronousServerSocketChannel {
    private final JringAsynchronousChannelGroup group;
    private final GroupRing ring;
    private final ChannelState state;
    private final ExecutorService executor;
    private final PendingGate accepts = new PendingGate();
    /** Written once by bind under this channel's monitor; volatile for accept's check. */
    private volatile InetSocketAddress localAddress;

    private JringAsynchronousServerSocketChannel(JringAsynchronousChannelGroup group, int fd) {
        super(group.provider());
        this.group = group;
        this.state = new ChannelState(fd);
        this.executor = group.executor();
        try {
            group.bind(this);
        } catch (RuntimeException e) {
            state.close();
            state.end();
            throw e;
        }
        this.ring = group.pick();
    }

    /**
     * Opens an unbound listening channel in {@code group}.
     *
     * @param group the group
     * @return the channel
     * @throws IOException if no socket can be made
     * @throws java.nio.channels.ShutdownChannelGroupException if the group is shut down
     */
    public static JringAsynchronousServerSocketChannel open(JringAsynchronousChannelGroup group) throws IOException {
        Objects.requireNonNull(group, "group");
        int fd = NetSockets.openStream();
        try {
            SocketOpts.set(fd, StandardSocketOptions.SO_REUSEADDR, true);   // as the JDK's listeners
        } catch (IOException e) {
            io.jring.sys.FsCalls.close(io.jring.sys.SysCallContext.current(), fd);
            throw e;
        }
        return new JringAsynchronousServerSocketChannel(group, fd);
    }

    /**
     * Opens an unbound listening channel in jring's default group.
     *
     * @return the channel
     * @throws IOException if no socket can be made
     */
    public static JringAsynchronousServerSocketChannel open() throws IOException {
        return open(JringAsynchronousChannelProvider.instance().defaultGroup());
    }

    @Override
    public JringAsynchronousServerSocketChannel bind(SocketAddress local, int backlog) throws IOException {
        InetSocketAddress isa = local == null ? new InetSocketAddress(0) : NetSockets.check(local);
        synchronized (this) {
            ensureOpen();
            if (localAddress != null) {
                throw new AlreadyBoundException();
            }
            NetSockets.bind(state.fd(), isa);
            NetSockets.listen(state.fd(), backlog);
            localAddress = NetSockets.localAddress(state.fd());
        }
        return this;
    }

    @Override
    public <T> JringAsynchronousServerSocketChannel setOption(SocketOption<T> name, T value) throws IOException {
        SocketOpts.checkSet(SocketOpts.LISTENER, name, value);
        ensureOpen();
        SocketOpts.set(state.fd(), name, value);
        return this;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getOption(SocketOption<T> name) throws IOException {
        SocketOpts.checkName(SocketOpts.LISTENER, name);
        ensureOpen();
        return (T) SocketOpts.get(state.fd(), name);
    }

    @Override
    public Set<SocketOption<?>> supportedOptions() {
        return SocketOpts.LISTENER;
    }

    @Override
    public SocketAddress getLocalAddress() throws IOException {
        ensureOpen();
        return localAddress;
    }

    @Override
    public <A> void accept(A attachment, CompletionHandler<AsynchronousSocketChannel, ? super A> handler) {
        Objects.requireNonNull(handler, "'handler' is null");
        startAccept(null, handler, attachment);
    }

    @Override
    public Future<AsynchronousSocketChannel> accept() {
        OpFuture<AsynchronousSocketChannel> f = new OpFuture<>();
        startAccept(f, null, null);
        return f;
    }

    private <A> void startAccept(OpFuture<AsynchronousSocketChannel> future,
                                 CompletionHandler<AsynchronousSocketChannel, ? super A> handler, A attachment) {
        if (!isOpen()) {
            Completions.later(ring, executor, future, handler, attachment, null, new ClosedChannelException());
            return;
        }
        if (localAddress == null) {
            throw new NotYetBoundException();
        }
        int g = accepts.tryStart();
        if (g == PendingGate.KILLED) {
            throw new IllegalStateException("Accept not allowed due cancellation");
        }
        if (g == PendingGate.PENDING) {
            throw new AcceptPendingException();
        }
        SocketAcceptOp<A> op = new SocketAcceptOp<>(state, accepts, executor, future, handler, attachment,
                this::acceptedChannel);
        if (!state.begin()) {
            accepts.finish();
            Completions.later(ring, executor, future, handler, attachment, null, new ClosedChannelException());
            return;
        }
        if (future != null) {
            future.onCancel(() -> op.cancelOn(ring), this::closeQuietly);
        }
        ring.start(op);
    }

    /** The ring thread: the channel of an accepted descriptor (its constructor closes fd if it fails). */
    private AsynchronousSocketChannel acceptedChannel(int fd) throws IOException {
        return JringAsynchronousSocketChannel.accepted(group, fd);
    }

    @Override
    public boolean isOpen() {
        return state.isOpen();
    }

    @Override
    public void close() throws IOException {
        if (!state.close()) {
            return;
        }
        // Cancels what is in flight, then lets go of close()'s pin; the last of it and the
        // operations closes the socket.
        ring.cancelAllAndUnpin(state);
        // Only now: the last channel's unbind stops a shut-down group's rings, and the ring
        // must take the cancel above before that stop.
        group.unbind(this);
        if (!group.isGroupThread()) {
            state.awaitReleasedUninterruptibly();
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (IOException ignored) {
            // a forceful cancel closes the channel as best it can, as the JDK's does
        }
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!state.isOpen()) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(getClass().getName()).append('[');
        if (!isOpen()) {
            sb.append("closed");
        } else {
            sb.append(localAddress == null ? "unbound" : localAddress.toString());
        }
        return sb.append(']').toString();
    }
}

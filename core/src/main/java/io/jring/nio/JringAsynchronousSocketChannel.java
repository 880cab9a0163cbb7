package io.jring.nio;

import io.jring.channel.BufferArrays;
import io.jring.channel.ChannelState;
import io.jring.channel.Completions;
import io.jring.channel.GroupRing;
import io.jring.channel.NetSockets;
import io.jring.channel.OpFuture;
import io.jring.channel.SocketConnectOp;
import io.jring.channel.SocketOpts;
import io.jring.channel.SocketStream;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.ByteBuffer;
import java.nio.channels.AlreadyBoundException;
import java.nio.channels.AlreadyConnectedException;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.ConnectionPendingException;
import java.nio.channels.NotYetConnectedException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * An {@link AsynchronousSocketChannel} on a jring ring: each read and write is one RECV or
 * SEND request (READV or WRITEV for the scattering and gathering forms), the connect one
 * CONNECT request, on the ring of the channel's group that the channel was opened on (the
 * opening thread's own ring if it is one of the group's threads, else the next round robin;
 * an accepted channel stays on its listener's ring). The behaviour is
 * {@code AsynchronousSocketChannel}'s:
 * <ul>
 * <li>At most one read and one write outstanding ({@link java.nio.channels.ReadPendingException},
 *     {@link java.nio.channels.WritePendingException}); a handler may start the next one.</li>
 * <li>A read or write with a timeout is linked to a LINK_TIMEOUT request; when it fires the
 *     operation fails with {@link java.nio.channels.InterruptedByTimeoutException} and
 *     further operations in that direction throw {@code IllegalStateException}, as after a
 *     Future cancelled with {@code cancel(false)} (bytes may have been lost); {@code cancel(true)}
 *     closes the channel, as the JDK's does.</li>
 * <li>A read after {@link #shutdownInput} gives -1; a write after {@link #shutdownOutput}
 *     fails with {@link ClosedChannelException}; a failed connect closes the channel.</li>
 * <li>{@link #close()} fails every pending operation with
 *     {@link java.nio.channels.AsynchronousCloseException}; from a thread outside the group
 *     it returns once the socket itself is closed.</li>
 * <li>The socket is IPv6 dual stack where IPv6 works (IPv4 with {@code -Djava.net.preferIPv4Stack=true});
 *     IPv4-mapped addresses are reported as IPv4.</li>
 * </ul>
 * Reads, connects and accepts wait for the peer, so they do not count against the group's
 * bound on operations in flight; writes do.
 */
public final class JringAsynchronousSocketChannel extends AsynchronousSocketChannel {
    private static final int UNCONNECTED = 0;
    private static final int CONNECTING = 1;
    private static final int CONNECTED = 2;

    private final JringAsynchronousChannelGroup group;
    private final GroupRing ring;
    private final ChannelState state;
    private final ExecutorService executor;
    private final SocketStream stream;
    /** Guards the connection state's transitions (bind, connect, its completion). */
    private final Object stateLock = new Object();
    /** Written under stateLock (by callers and the ring thread), volatile for lock-free readers. */
    private volatile int connection;
    private volatile InetSocketAddress localAddress;
    private volatile InetSocketAddress remoteAddress;

    private JringAsynchronousSocketChannel(JringAsynchronousChannelGroup group, int fd, boolean connected)
            throws IOException {
        super(group.provider());
        this.group = group;
        this.state = new ChannelState(fd);
        this.executor = group.executor();
        try {
            group.bind(this);
            if (connected) {
                localAddress = NetSockets.localAddress(fd);
                remoteAddress = NetSockets.remoteAddress(fd);
                connection = CONNECTED;
            }
        } catch (IOException | RuntimeException e) {
            group.unbind(this);
            state.close();
            state.end();
            throw e;
        }
        this.ring = group.pick();
        this.stream = new SocketStream(state, ring, executor, group.budget(), this::closeQuietly);
    }

    /**
     * Opens an unbound, unconnected socket channel in {@code group}.
     *
     * @param group the group
     * @return the channel
     * @throws IOException if no socket can be made
     * @throws java.nio.channels.ShutdownChannelGroupException if the group is shut down
     */
    public static JringAsynchronousSocketChannel open(JringAsynchronousChannelGroup group) throws IOException {
        Objects.requireNonNull(group, "group");
        return new JringAsynchronousSocketChannel(group, NetSockets.openStream(), false);
    }

    /**
     * Opens an unbound, unconnected socket channel in jring's default group.
     *
     * @return the channel
     * @throws IOException if no socket can be made
     */
    public static JringAsynchronousSocketChannel open() throws IOException {
        return open(JringAsynchronousChannelProvider.instance().defaultGroup());
    }

    /** The channel of a connection accepted on a ring of {@code group}; owns {@code fd} (closed if this throws). */
    static JringAsynchronousSocketChannel accepted(JringAsynchronousChannelGroup group, int fd) throws IOException {
        return new JringAsynchronousSocketChannel(group, fd, true);
    }

    // ---------------------------------------------------------------- bind, options, addresses

    @Override
    public JringAsynchronousSocketChannel bind(SocketAddress local) throws IOException {
        InetSocketAddress isa = local == null ? new InetSocketAddress(0) : NetSockets.check(local);
        synchronized (stateLock) {
            ensureOpen();
            if (connection == CONNECTING) {
                throw new ConnectionPendingException();
            }
            if (localAddress != null) {
                throw new AlreadyBoundException();
            }
            NetSockets.bind(state.fd(), isa);
            localAddress = NetSockets.localAddress(state.fd());
        }
        return this;
    }

    @Override
    public <T> JringAsynchronousSocketChannel setOption(SocketOption<T> name, T value) throws IOException {
        SocketOpts.checkSet(SocketOpts.STREAM, name, value);
        ensureOpen();
        SocketOpts.set(state.fd(), name, value);
        return this;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getOption(SocketOption<T> name) throws IOException {
        SocketOpts.checkName(SocketOpts.STREAM, name);
        ensureOpen();
        return (T) SocketOpts.get(state.fd(), name);
    }

    @Override
    public Set<SocketOption<?>> supportedOptions() {
        return SocketOpts.STREAM;
    }

    @Override
    public JringAsynchronousSocketChannel shutdownInput() throws IOException {
        ensureOpen();
        if (remoteAddress == null) {
            throw new NotYetConnectedException();
        }
        stream.shutdownInput();
        return this;
    }

    @Override
    public JringAsynchronousSocketChannel shutdownOutput() throws IOException {
        ensureOpen();
        if (remoteAddress == null) {
            throw new NotYetConnectedException();
        }
        stream.shutdownOutput();
        return this;
    }

    @Override
    public SocketAddress getRemoteAddress() throws IOException {
        ensureOpen();
        return remoteAddress;
    }

    @Override
    public SocketAddress getLocalAddress() throws IOException {
        ensureOpen();
        return localAddress;
    }

    // ---------------------------------------------------------------- connect

    @Override
    public <A> void connect(SocketAddress remote, A attachment, CompletionHandler<Void, ? super A> handler) {
        Objects.requireNonNull(handler, "'handler' is null");
        startConnect(remote, null, handler, attachment);
    }

    @Override
    public Future<Void> connect(SocketAddress remote) {
        OpFuture<Void> f = new OpFuture<>();
        startConnect(remote, f, null, null);
        return f;
    }

    private <A> void startConnect(SocketAddress remote, OpFuture<Void> future,
                                  CompletionHandler<Void, ? super A> handler, A attachment) {
        if (!isOpen()) {
            Completions.later(ring, executor, future, handler, attachment, null, new ClosedChannelException());
            return;
        }
        InetSocketAddress isa = NetSockets.check(remote);
        synchronized (stateLock) {
            if (connection == CONNECTED) {
                throw new AlreadyConnectedException();
            }
            if (connection == CONNECTING) {
                throw new ConnectionPendingException();
            }
            connection = CONNECTING;
        }
        SocketConnectOp<A> op = new SocketConnectOp<>(state, executor, future, handler, attachment, isa,
                res -> connected(res, isa));
        if (future != null) {
            future.onCancel(() -> op.cancelOn(ring), this::closeQuietly);
        }
        if (!state.begin()) {
            connected(-io.jring.Errno.ECANCELED, isa);
            Completions.later(ring, executor, future, handler, attachment, null, new ClosedChannelException());
            return;
        }
        ring.start(op);
    }

    /** The ring thread: the connect's result; the failure to report, or null. A failed connect closes the channel. */
    private Throwable connected(int res, InetSocketAddress remote) {
        if (res == 0) {
            try {
                InetSocketAddress local = NetSockets.localAddress(state.fd());
                synchronized (stateLock) {
                    localAddress = local;
                    remoteAddress = remote;
                    connection = CONNECTED;
                }
                return null;
            } catch (IOException e) {
                res = -io.jring.Errno.EBADF;
            }
        }
        synchronized (stateLock) {
            connection = UNCONNECTED;
        }
        IOException failure = NetSockets.connectError(-res);
        try {
            close();
        } catch (IOException suppressed) {
            failure.addSuppressed(suppressed);
        }
        return failure;
    }

    // ---------------------------------------------------------------- read

    @Override
    public <A> void read(ByteBuffer dst, long timeout, TimeUnit unit, A attachment,
                         CompletionHandler<Integer, ? super A> handler) {
        Objects.requireNonNull(handler, "'handler' is null");
        checkWritable(Objects.requireNonNull(dst, "dst"));
        startRead(false, new ByteBuffer[] {dst}, timeout, unit, null, handler, attachment);
    }

    @Override
    public Future<Integer> read(ByteBuffer dst) {
        checkWritable(Objects.requireNonNull(dst, "dst"));
        OpFuture<Integer> f = new OpFuture<>();
        startRead(false, new ByteBuffer[] {dst}, 0, TimeUnit.MILLISECONDS, f, null, null);
        return f;
    }

    @Override
    public <A> void read(ByteBuffer[] dsts, int offset, int length, long timeout, TimeUnit unit, A attachment,
                         CompletionHandler<Long, ? super A> handler) {
        Objects.requireNonNull(handler, "'handler' is null");
        ByteBuffer[] bufs = BufferArrays.subsequence(dsts, offset, length);
        for (ByteBuffer b : bufs) {
            checkWritable(b);
        }
        startRead(true, bufs, timeout, unit, null, handler, attachment);
    }

    private static void checkWritable(ByteBuffer b) {
        if (b.isReadOnly()) {
            throw new IllegalArgumentException("Read-only buffer");
        }
    }

    private <V, A> void startRead(boolean vectored, ByteBuffer[] bufs, long timeout, TimeUnit unit,
                                  OpFuture<V> future, CompletionHandler<V, ? super A> handler, A attachment) {
        if (!isOpen()) {
            Completions.later(ring, executor, future, handler, attachment, null, new ClosedChannelException());
            return;
        }
        if (remoteAddress == null) {
            throw new NotYetConnectedException();
        }
        stream.read(vectored, bufs, timeout, unit, future, handler, attachment);
    }

    // ---------------------------------------------------------------- write

    @Override
    public <A> void write(ByteBuffer src, long timeout, TimeUnit unit, A attachment,
                          CompletionHandler<Integer, ? super A> handler) {
        Objects.requireNonNull(handler, "'handler' is null");
        startWrite(false, new ByteBuffer[] {Objects.requireNonNull(src, "src")}, timeout, unit, null, handler,
                attachment);
    }

    @Override
    public Future<Integer> write(ByteBuffer src) {
        OpFuture<Integer> f = new OpFuture<>();
        startWrite(false, new ByteBuffer[] {Objects.requireNonNull(src, "src")}, 0, TimeUnit.MILLISECONDS, f,
                null, null);
        return f;
    }

    @Override
    public <A> void write(ByteBuffer[] srcs, int offset, int length, long timeout, TimeUnit unit, A attachment,
                          CompletionHandler<Long, ? super A> handler) {
        Objects.requireNonNull(handler, "'handler' is null");
        startWrite(true, BufferArrays.subsequence(srcs, offset, length), timeout, unit, null, handler, attachment);
    }

    private <V, A> void startWrite(boolean vectored, ByteBuffer[] bufs, long timeout, TimeUnit unit,
                                   OpFuture<V> future, CompletionHandler<V, ? super A> handler, A attachment) {
        if (isOpen() && remoteAddress == null) {
            throw new NotYetConnectedException();
        }
        stream.write(vectored, bufs, timeout, unit, future, handler, attachment);
    }

    // ---------------------------------------------------------------- close

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
            sb.append(switch (connection) {
                case CONNECTING -> "connection-pending";
                case CONNECTED -> "connected";
                default -> "unconnected";
            });
            if (stream.inputShut()) {
                sb.append(" ishut");
            }
            if (stream.outputShut()) {
                sb.append(" oshut");
            }
            if (localAddress != null) {
                sb.append(" local=").append(localAddress);
            }
            if (remoteAddress != null) {
                sb.append(" remote=").append(remoteAddress);
            }
        }
        return sb.append(']').toString();
    }
}

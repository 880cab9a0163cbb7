package io.jring.nio;

import io.jring.Fds;
import io.jring.IoUringException;
import io.jring.channel.ChannelState;
import io.jring.channel.Completions;
import io.jring.channel.FileLockTable;
import io.jring.channel.FileOpening;
import io.jring.channel.FileRwOp;
import io.jring.channel.GroupRing;
import io.jring.channel.IoErrors;
import io.jring.channel.LockOp;
import io.jring.channel.OpFuture;
import io.jring.channel.RingFileLock;
import io.jring.channel.RingOp;
import io.jring.sys.FsCalls;
import io.jring.sys.OfdLocks;
import io.jring.sys.SysCallContext;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileLock;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * An {@link AsynchronousFileChannel} on jring rings: each read and write is one READ or
 * WRITE request on a ring of the channel's group (the starting thread's own ring if it is
 * one of the group's threads, else the next ring round robin), completed on that ring's
 * thread. The behaviour is {@code AsynchronousFileChannel}'s:
 * <ul>
 * <li>Handlers run on the group's ring threads, or on the executor given to
 *     {@link #open(Path, Set, ExecutorService, FileAttribute[])}; Futures complete there.</li>
 * <li>A heap buffer's bytes pass through a pooled native bounce buffer; a direct buffer is
 *     read and written in place. The buffer's position moves by the bytes transferred,
 *     which may be fewer than remaining; a read at or past the end of the file gives -1.</li>
 * <li>{@link #close()} makes every operation still pending complete with
 *     {@link java.nio.channels.AsynchronousCloseException}; an operation started after it
 *     fails with {@link ClosedChannelException}. From a thread outside the channel's group
 *     close waits until those operations have finished and the file is closed.</li>
 * <li>{@code Future.cancel} (either argument) cancels the request and leaves the channel
 *     open; the buffer's content is then undefined, its position unchanged.</li>
 * <li>Locks are open file description locks (Linux's {@code F_OFD_SETLK}): between
 *     processes they behave as the JDK's; within the JVM a lock overlapping one held (or
 *     being waited for) through any jring file channel on the same file throws
 *     {@link java.nio.channels.OverlappingFileLockException}. A {@code lock} that waits for
 *     another process retries on a ring timer (1 ms doubling to 64 ms), never blocking a
 *     ring thread. Locks become invalid when the channel closes.</li>
 * <li>{@code com.sun.nio.file.ExtendedOpenOption.DIRECT} opens the file with O_DIRECT, whose
 *     requests take jring's device path (native AIO); buffers, positions and sizes must
 *     then be aligned as the device requires, else the operation fails with an
 *     {@code IOException} (EINVAL). Heap buffers' bounce buffers are 4 KiB aligned.</li>
 * </ul>
 * {@link #size}, {@link #truncate}, {@link #force} and {@link #tryLock} run in the calling
 * thread, as the JDK's do.
 */
public final class JringAsynchronousFileChannel extends AsynchronousFileChannel {
    private final ChannelState state;
    private final FileOpening file;
    private final JringAsynchronousChannelGroup group;
    /** Where handlers run: the channel's executor, the group's executor, or null for its ring thread. */
    private final ExecutorService executor;
    /** This channel's valid locks: added by lock takers, removed at release; read by close. */
    private final Set<RingFileLock> locks = ConcurrentHashMap.newKeySet();

    private JringAsynchronousFileChannel(FileOpening file, JringAsynchronousChannelGroup group,
                                         ExecutorService executor) {
        this.file = file;
        this.state = new ChannelState(file.fd());
        this.group = group;
        this.executor = executor != null ? executor : group.executor();
        try {
            group.bind(this);
        } catch (RuntimeException e) {
            state.close();
            state.end();
            throw e;
        }
    }

    /**
     * Opens or creates a file, as {@link AsynchronousFileChannel#open(Path, Set, ExecutorService, FileAttribute[])}.
     *
     * @param file the file
     * @param options the open options (READ, WRITE, CREATE, CREATE_NEW, TRUNCATE_EXISTING,
     *                DELETE_ON_CLOSE, SPARSE, SYNC, DSYNC, NOFOLLOW_LINKS, ExtendedOpenOption.DIRECT)
     * @param executor where handlers run, or null: on the default group's ring threads
     * @param attrs attributes for a new file ({@code posix:permissions} only)
     * @return the channel, on jring's default group
     * @throws IOException if the file cannot be opened (a {@code FileSystemException} naming it)
     * @throws UnsupportedOperationException for APPEND, another unsupported option or attribute
     */
    public static JringAsynchronousFileChannel open(Path file, Set<? extends OpenOption> options,
                                                    ExecutorService executor, FileAttribute<?>... attrs)
            throws IOException {
        JringAsynchronousChannelGroup g = JringAsynchronousChannelProvider.instance().defaultGroup();
        return new JringAsynchronousFileChannel(FileOpening.open(file, options, attrs), g, executor);
    }

    /**
     * Opens or creates a file whose operations run on {@code group}'s rings.
     *
     * @param file the file
     * @param options the open options, as {@link #open(Path, Set, ExecutorService, FileAttribute[])}
     * @param group the group
     * @param attrs attributes for a new file
     * @return the channel
     * @throws IOException if the file cannot be opened
     * @throws java.nio.channels.ShutdownChannelGroupException if the group is shut down
     */
    public static JringAsynchronousFileChannel open(Path file, Set<? extends OpenOption> options,
                                                    JringAsynchronousChannelGroup group, FileAttribute<?>... attrs)
            throws IOException {
        Objects.requireNonNull(group, "group");
        return new JringAsynchronousFileChannel(FileOpening.open(file, options, attrs), group, null);
    }

    /**
     * Opens or creates a file, as {@link AsynchronousFileChannel#open(Path, OpenOption...)}.
     *
     * @param file the file
     * @param options the open options
     * @return the channel, on jring's default group
     * @throws IOException if the file cannot be opened
     */
    public static JringAsynchronousFileChannel open(Path file, OpenOption... options) throws IOException {
        return open(file, Set.of(options), (ExecutorService) null);
    }

    // ---------------------------------------------------------------- read, write

    @Override
    public <A> void read(ByteBuffer dst, long position, A attachment, CompletionHandler<Integer, ? super A> handler) {
        Objects.requireNonNull(handler, "handler");
        startRw(dst, position, false, null, handler, attachment);
    }

    @Override
    public Future<Integer> read(ByteBuffer dst, long position) {
        OpFuture<Integer> f = new OpFuture<>();
        startRw(dst, position, false, f, null, null);
        return f;
    }

    @Override
    public <A> void write(ByteBuffer src, long position, A attachment, CompletionHandler<Integer, ? super A> handler) {
        Objects.requireNonNull(handler, "handler");
        startRw(src, position, true, null, handler, attachment);
    }

    @Override
    public Future<Integer> write(ByteBuffer src, long position) {
        OpFuture<Integer> f = new OpFuture<>();
        startRw(src, position, true, f, null, null);
        return f;
    }

    private <A> void startRw(ByteBuffer buf, long position, boolean write, OpFuture<Integer> future,
                             CompletionHandler<Integer, ? super A> handler, A attachment) {
        Objects.requireNonNull(buf, write ? "src" : "dst");
        if (position < 0) {
            throw new IllegalArgumentException("Negative position");
        }
        if (write && !file.writable()) {
            throw new NonWritableChannelException();
        }
        if (!write && !file.readable()) {
            throw new NonReadableChannelException();
        }
        if (!write && buf.isReadOnly()) {
            throw new IllegalArgumentException("Read-only buffer");
        }
        FileRwOp<A> op = new FileRwOp<>(state, executor, future, handler, attachment, buf, position, write);
        GroupRing ring = group.pick();
        if (future != null) {
            future.onCancel(() -> op.cancelOn(ring));
        }
        startOp(ring, op, future, handler, attachment);
    }

    /** Admits {@code op} (permit, descriptor) and starts it, or fails it with ClosedChannelException. */
    private <V, A> void startOp(GroupRing ring, RingOp op, OpFuture<V> future,
                                CompletionHandler<V, ? super A> handler, A attachment) {
        boolean permitted = group.budget().acquire(ring.isOwner());
        if (!state.begin()) {
            if (permitted) {
                group.budget().release();
            }
            failClosed(future, handler, attachment);
            return;
        }
        op.setPermitted(permitted);
        ring.start(op);
    }

    private <V, A> void failClosed(OpFuture<V> future, CompletionHandler<V, ? super A> handler, A attachment) {
        // A handler runs on a group thread (or the executor), never in the caller's call.
        Completions.later(group.pick(), executor, future, handler, attachment, null, new ClosedChannelException());
    }

    // ---------------------------------------------------------------- size, truncate, force

    @Override
    public long size() throws IOException {
        ensureOpen();
        long s = FsCalls.fileSize(SysCallContext.current(), state.fd());
        if (s < 0) {
            throw IoErrors.io((int) -s);
        }
        return s;
    }

    @Override
    public AsynchronousFileChannel truncate(long size) throws IOException {
        if (size < 0) {
            throw new IllegalArgumentException("Negative size");
        }
        ensureOpen();
        if (!file.writable()) {
            throw new NonWritableChannelException();
        }
        if (size < size()) {
            try {
                Fds.truncate(state.fd(), size);
            } catch (IoUringException e) {
                throw IoErrors.io(e.errno());
            }
        }
        return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        ensureOpen();
        try {
            Fds.fsync(state.fd(), !metaData);
        } catch (IoUringException e) {
            throw IoErrors.io(e.errno());
        }
    }

    // ---------------------------------------------------------------- locks

    @Override
    public <A> void lock(long position, long size, boolean shared, A attachment,
                         CompletionHandler<FileLock, ? super A> handler) {
        Objects.requireNonNull(handler, "handler");
        startLock(position, size, shared, null, handler, attachment);
    }

    @Override
    public Future<FileLock> lock(long position, long size, boolean shared) {
        OpFuture<FileLock> f = new OpFuture<>();
        startLock(position, size, shared, f, null, null);
        return f;
    }

    private <A> void startLock(long position, long size, boolean shared, OpFuture<FileLock> future,
                               CompletionHandler<FileLock, ? super A> handler, A attachment) {
        checkLock(position, size, shared);
        if (!state.isOpen()) {
            failClosed(future, handler, attachment);
            return;
        }
        FileLockTable.Range range = FileLockTable.reserve(file.key(), position, size);
        LockOp<A> op = new LockOp<>(this, state, file.key(), range, shared, locks, executor, future, handler, attachment);
        GroupRing ring = group.pick();
        boolean permitted = group.budget().acquire(ring.isOwner());
        if (!state.begin()) {
            if (permitted) {
                group.budget().release();
            }
            FileLockTable.remove(file.key(), range);
            failClosed(future, handler, attachment);
            return;
        }
        op.setPermitted(permitted);
        ring.start(op);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        checkLock(position, size, shared);
        ensureOpen();
        FileLockTable.Range range = FileLockTable.reserve(file.key(), position, size);
        if (!state.begin()) {
            FileLockTable.remove(file.key(), range);
            throw new ClosedChannelException();
        }
        try {
            long len = size == Long.MAX_VALUE ? 0 : size;
            int r = OfdLocks.tryLock(SysCallContext.current(), state.fd(), position, len, shared);
            if (r < 0) {
                FileLockTable.remove(file.key(), range);
                if (r == -io.jring.Errno.EAGAIN || r == -io.jring.Errno.EACCES) {
                    return null;
                }
                throw IoErrors.io(-r);
            }
            RingFileLock lock = new RingFileLock(this, state, file.key(), range, shared, locks);
            if (!state.isOpen()) {
                lock.invalidate();
            }
            return lock;
        } finally {
            state.end();
        }
    }

    private void checkLock(long position, long size, boolean shared) {
        if (position < 0 || size < 0) {
            throw new IllegalArgumentException("Negative position or size");
        }
        if (shared && !file.readable()) {
            throw new NonReadableChannelException();
        }
        if (!shared && !file.writable()) {
            throw new NonWritableChannelException();
        }
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
        for (RingFileLock l : locks.toArray(new RingFileLock[0])) {
            l.invalidate();
        }
        boolean mayWait = !group.isGroupThread();
        GroupRing[] rings = group.allRings();
        for (int i = 1; i < rings.length; i++) {
            state.pin();   // one pin per ring's cancel; close() took the first
        }
        for (GroupRing ring : rings) {
            ring.cancelAllAndUnpin(state);   // each pending operation fails with AsynchronousCloseException
        }
        group.unbind(this);
        if (mayWait) {
            state.awaitReleasedUninterruptibly();
        }
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!state.isOpen()) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public String toString() {
        return "JringAsynchronousFileChannel[fd=" + state.fd() + (state.isOpen() ? "" : " closed") + "]";
    }
}

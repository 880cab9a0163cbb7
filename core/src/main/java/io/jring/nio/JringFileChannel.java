package io.jring.nio;

import io.jring.Fds;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link FileChannel} whose I/O runs through jring (issue 22): made for virtual threads,
 * which it never pins and whose carrier it never holds while a read waits for the device.
 *
 * <p>A read or write first tries once on the calling thread without blocking
 * ({@code preadv2}/{@code pwritev2} with {@code RWF_NOWAIT}), so a page-cache hit costs
 * what a plain {@code pread} costs. When that would block (a page-cache miss), and always for
 * O_DIRECT files ({@code ExtendedOpenOption.DIRECT}), {@link #force} and {@link #truncate},
 * the operation goes to a ring owned by one of a few jring threads, and the caller parks until
 * its completion: a virtual thread unmounts and its carrier runs other virtual threads; a
 * platform thread blocks. {@link #size} is an {@code fstat} on the caller.
 *
 * <p>{@link #map}, {@link #lock} and {@link #tryLock} go through a platform channel on the
 * same file, opened on first use; {@link #transferTo} and {@link #transferFrom} copy
 * through this channel's reads and writes.
 *
 * <p>Behaviour follows {@link FileChannel}'s contract as the JDK's own channel implements it:
 * {@link NonReadableChannelException}, {@link NonWritableChannelException},
 * {@link ClosedChannelException}; an interrupt closes the channel and the interrupted thread
 * gets {@link java.nio.channels.ClosedByInterruptException}; a close by another thread during
 * an operation gives {@link java.nio.channels.AsynchronousCloseException}. An operation that
 * reached the ring is always waited for to its completion (its buffers are in use until
 * then), and the descriptor is closed only after the last one finished. In append mode every
 * write goes to the end of the file and {@link #position()} is the size. Thread-safe:
 * relative reads and writes and position changes are serialised; positional ones run
 * concurrently.
 */
public final class JringFileChannel extends FileChannel {
    private final int fd;
    private final boolean readable;
    private final boolean writable;
    private final boolean append;
    private final boolean direct;
    /** Serialises relative reads and writes and position updates. */
    private final ReentrantLock positionLock = new ReentrantLock();
    /** Written under {@link #positionLock}; volatile so position() reads it without the lock. */
    private volatile long position;
    /**
     * References to the descriptor: 1 for the open channel plus one per operation using it;
     * CAS by any thread. The thread that takes it to 0 closes the descriptor.
     */
    private final AtomicInteger users = new AtomicInteger(1);
    /** The platform channel for map and locks; created and closed under {@link #platformLock}. */
    private FileChannel platform;
    private final Object platformLock = new Object();

    private JringFileChannel(NioOpen.Opened o) {
        this.fd = o.fd();
        this.readable = o.read();
        this.writable = o.write();
        this.append = o.append();
        this.direct = o.direct();
    }

    /**
     * Opens or creates a file, as {@link FileChannel#open(Path, Set, FileAttribute[])} does
     * with the default file system (the same options, attributes and exceptions; the path is
     * taken as a Linux path name).
     *
     * @param path the file
     * @param options {@link java.nio.file.StandardOpenOption}s, {@link java.nio.file.LinkOption#NOFOLLOW_LINKS},
     *        {@code com.sun.nio.file.ExtendedOpenOption.DIRECT}
     * @param attrs at most a {@code posix:permissions} attribute for a file it creates
     * @return the new channel
     * @throws IllegalArgumentException for an invalid combination of options
     * @throws UnsupportedOperationException for an option or attribute not supported
     * @throws java.nio.file.FileAlreadyExistsException with CREATE_NEW when the file exists
     * @throws java.nio.file.NoSuchFileException when the file (or a directory on its path) does not exist
     * @throws java.nio.file.AccessDeniedException when permission is denied
     * @throws IOException for another failure of open(2)
     */
    public static JringFileChannel open(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        return new JringFileChannel(NioOpen.open(path, options, attrs));
    }

    /**
     * Opens or creates a file with the given options, as {@link FileChannel#open(Path, OpenOption...)}.
     *
     * @param path the file
     * @param options the open options
     * @return the new channel
     * @throws IOException as {@link #open(Path, Set, FileAttribute[])}
     */
    public static JringFileChannel open(Path path, OpenOption... options) throws IOException {
        return open(path, Set.of(options));
    }

    // ---------------------------------------------------------------- reads and writes

    @Override
    public int read(ByteBuffer dst) throws IOException {
        Objects.requireNonNull(dst);
        return (int) read(new ByteBuffer[] {dst}, 0, 1);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, dsts.length);
        ensureOpen();
        if (!readable) {
            throw new NonReadableChannelException();
        }
        checkWritableBuffers(dsts, offset, length);
        positionLock.lock();
        try {
            long n = transfer(false, dsts, offset, length, position);
            if (n > 0) {
                position += n;
            }
            return n;
        } finally {
            positionLock.unlock();
        }
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        Objects.requireNonNull(dst);
        if (position < 0) {
            throw new IllegalArgumentException("Negative position");
        }
        ensureOpen();
        if (!readable) {
            throw new NonReadableChannelException();
        }
        ByteBuffer[] one = {dst};
        checkWritableBuffers(one, 0, 1);
        return (int) transfer(false, one, 0, 1, position);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        Objects.requireNonNull(src);
        return (int) write(new ByteBuffer[] {src}, 0, 1);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, srcs.length);
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
        positionLock.lock();
        try {
            long n = transfer(true, srcs, offset, length, append ? -1L : position);
            if (append) {
                position = FileIo.size(fd);
            } else if (n > 0) {
                position += n;
            }
            return n;
        } finally {
            positionLock.unlock();
        }
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        Objects.requireNonNull(src);
        if (position < 0) {
            throw new IllegalArgumentException("Negative position");
        }
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
        return (int) transfer(true, new ByteBuffer[] {src}, 0, 1, position);
    }

    private static void checkWritableBuffers(ByteBuffer[] dsts, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            if (dsts[i].isReadOnly()) {
                throw new IllegalArgumentException("Read-only buffer");
            }
        }
    }

    /**
     * One read or write at {@code offset} (-1: the end, append mode) between begin() and
     * end(): an interrupt or an asynchronous close is reported as the contract says. A read
     * returns -1 at the end of the file.
     */
    private long transfer(boolean write, ByteBuffer[] bufs, int off, int len, long offset) throws IOException {
        Transfer t = Transfer.of(bufs, off, len, write);
        if (t == null) {
            return 0;
        }
        long n = -1;
        boolean entered = false;
        try {
            begin();
            if (!acquire()) {
                return 0;   // closed (by an interrupt, or another thread): end() reports it
            }
            entered = true;
            n = FileIo.transfer(fd, direct, write, t.segments(), offset);
            t.done(n, !write);
            return n == 0 && !write ? -1 : n;
        } finally {
            t.release();
            if (entered) {
                releaseFd();
            }
            end(n > 0);
        }
    }

    // ---------------------------------------------------------------- position, size, truncate, force

    @Override
    public long position() throws IOException {
        ensureOpen();
        return append ? size() : position;
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("Negative position");
        }
        positionLock.lock();
        try {
            position = newPosition;
        } finally {
            positionLock.unlock();
        }
        return this;
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return FileIo.size(fd);
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        ensureOpen();
        if (size < 0) {
            throw new IllegalArgumentException("Negative size");
        }
        if (!writable) {
            throw new NonWritableChannelException();
        }
        positionLock.lock();
        try {
            blocking(() -> {
                if (size < FileIo.size(fd)) {
                    FileIo.truncate(fd, size);
                }
                return 0L;
            });
            if (position > size) {
                position = size;
            }
        } finally {
            positionLock.unlock();
        }
        return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        ensureOpen();
        blocking(() -> {
            FileIo.force(fd, metaData);
            return 0L;
        });
    }

    private interface Io {
        long run() throws IOException;
    }

    /** An operation on the descriptor between begin() and end(). */
    private long blocking(Io io) throws IOException {
        boolean completed = false;
        boolean entered = false;
        try {
            begin();
            if (!acquire()) {
                return 0;
            }
            entered = true;
            long r = io.run();
            completed = true;
            return r;
        } finally {
            if (entered) {
                releaseFd();
            }
            end(completed);
        }
    }

    // ---------------------------------------------------------------- transfers, map, locks

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        ensureOpen();
        if (!target.isOpen()) {
            throw new ClosedChannelException();
        }
        if (!readable) {
            throw new NonReadableChannelException();
        }
        if (position < 0 || count < 0) {
            throw new IllegalArgumentException("Negative position or count");
        }
        return ChannelCopy.to(this, position, Math.min(count, Math.max(0, size() - position)), target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        ensureOpen();
        if (!src.isOpen()) {
            throw new ClosedChannelException();
        }
        if (!writable) {
            throw new NonWritableChannelException();
        }
        if (position < 0 || count < 0) {
            throw new IllegalArgumentException("Negative position or count");
        }
        return position > size() ? 0 : ChannelCopy.from(src, this, position, count);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        ensureOpen();
        Objects.requireNonNull(mode, "Mode is null");
        return platform().map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        ensureOpen();
        FileChannel p = platform();
        boolean completed = false;
        try {
            begin();
            FileLock l = new JringFileLock(this, p.lock(position, size, shared));
            completed = true;
            return l;
        } finally {
            end(completed);
        }
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        ensureOpen();
        FileLock l = platform().tryLock(position, size, shared);
        return l == null ? null : new JringFileLock(this, l);
    }

    /** The platform channel on the same file (through /proc/self/fd), with this channel's modes. */
    private FileChannel platform() throws IOException {
        synchronized (platformLock) {
            ensureOpen();
            if (platform == null) {
                String name = "/proc/self/fd/" + fd;
                platform = readable && writable ? new RandomAccessFile(name, "rw").getChannel()
                        : readable ? new FileInputStream(name).getChannel()
                        : new FileOutputStream(name, true).getChannel();
            }
            return platform;
        }
    }

    // ---------------------------------------------------------------- open and close

    private void ensureOpen() throws ClosedChannelException {
        if (!isOpen()) {
            throw new ClosedChannelException();
        }
    }

    /** One more user of the descriptor; false if it is being closed. */
    private boolean acquire() {
        for (;;) {
            int u = users.get();
            if (u == 0 || !isOpen()) {
                return false;
            }
            if (users.compareAndSet(u, u + 1)) {
                return true;
            }
        }
    }

    private void releaseFd() {
        if (users.decrementAndGet() == 0) {
            Fds.close(fd);
        }
    }

    /** Closes the platform channel and lets go of the descriptor, which closes when its last operation ends. */
    @Override
    protected void implCloseChannel() throws IOException {
        synchronized (platformLock) {
            if (platform != null) {
                platform.close();
            }
        }
        releaseFd();
    }

    @Override
    public String toString() {
        return "JringFileChannel[fd=" + fd + (readable ? " read" : "") + (writable ? " write" : "")
                + (append ? " append" : "") + (direct ? " direct" : "") + (isOpen() ? "" : " closed") + "]";
    }
}

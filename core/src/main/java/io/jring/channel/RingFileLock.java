package io.jring.channel;

import io.jring.sys.OfdLocks;
import io.jring.sys.SysCallContext;

import java.io.IOException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileLock;
import java.util.Set;

/**
 * A lock on a region of a jring {@code AsynchronousFileChannel}'s file: an open file
 * description lock plus its entry in the JVM's {@link FileLockTable}. Valid until released
 * or until its channel is closed (which drops the OS lock with the descriptor).
 */
public final class RingFileLock extends FileLock {
    private final ChannelState state;
    private final FileLockTable.FileKey key;
    private final FileLockTable.Range range;
    private final Set<RingFileLock> held;

    /** True until released or invalidated; written under this lock's monitor, read volatile. */
    private volatile boolean valid = true;

    /**
     * A lock already taken from the OS (and reserved in the table).
     *
     * @param channel the channel
     * @param state its descriptor
     * @param key the file
     * @param range the reservation
     * @param shared whether it is a shared lock
     * @param held the channel's set of valid locks, which this lock joins
     */
    public RingFileLock(AsynchronousFileChannel channel, ChannelState state, FileLockTable.FileKey key,
                        FileLockTable.Range range, boolean shared, Set<RingFileLock> held) {
        super(channel, range.position(), range.size(), shared);
        this.state = state;
        this.key = key;
        this.range = range;
        this.held = held;
        held.add(this);
    }

    @Override
    public boolean isValid() {
        return valid && state.isOpen();
    }

    @Override
    public synchronized void release() throws IOException {
        if (!state.isOpen()) {
            throw new ClosedChannelException();
        }
        if (!valid) {
            return;
        }
        int r = OfdLocks.unlock(SysCallContext.current(), state.fd(), range.position(), range.osLength());
        invalidate();
        if (r < 0) {
            throw IoErrors.io(-r);
        }
    }

    /** The channel closes (the OS lock goes with its descriptor) or the lock is released. */
    public synchronized void invalidate() {
        if (valid) {
            valid = false;
            FileLockTable.remove(key, range);
            held.remove(this);
        }
    }
}

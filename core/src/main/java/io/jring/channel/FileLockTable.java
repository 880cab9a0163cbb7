package io.jring.channel;

import java.nio.channels.OverlappingFileLockException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The locks this JVM holds or is waiting for, per file (device and inode), across all of
 * jring's file channels: {@code FileLock} says a lock overlapping one the JVM already holds,
 * or is waiting for, is an {@link OverlappingFileLockException}, whatever channel asks.
 * The OS locks (open file description locks) only decide between processes and between
 * different files' openings of the same file outside this table.
 *
 * <p>Any thread: a file's list is changed and read under its own monitor.
 */
public final class FileLockTable {
    private FileLockTable() {}

    /** A file's identity: {@code st_dev} and {@code st_ino}. */
    public record FileKey(long dev, long ino) {}

    /** A locked or reserved range: {@code [position, position + size)}. */
    public record Range(long position, long size) {
        boolean overlaps(long p, long s) {
            return p < end(position, size) && position < end(p, s);
        }

        /** The length for fcntl: Long.MAX_VALUE (a whole file, however large) is 0, "to the end". */
        long osLength() {
            return size == Long.MAX_VALUE ? 0 : size;
        }

        private static long end(long p, long s) {
            long e = p + s;
            return e < 0 ? Long.MAX_VALUE : e;   // saturate: a lock past 2^63 covers the rest
        }
    }

    private static final ConcurrentHashMap<FileKey, List<Range>> LOCKS = new ConcurrentHashMap<>();

    /**
     * Reserves {@code [position, position + size)} of {@code key}'s file for a lock.
     *
     * @param key the file
     * @param position the first byte
     * @param size the bytes
     * @return the reservation, to {@link #remove} when the lock is released or not taken
     * @throws OverlappingFileLockException if it overlaps a lock or reservation of this JVM
     */
    public static Range reserve(FileKey key, long position, long size) {
        Range r = new Range(position, size);
        for (;;) {
            List<Range> list = LOCKS.computeIfAbsent(key, k -> new ArrayList<>());
            synchronized (list) {
                // remove() drops an emptied list from the map under its monitor: a list no
                // longer mapped is dead, take the new one.
                if (LOCKS.get(key) != list) {
                    continue;
                }
                for (Range held : list) {
                    if (held.overlaps(position, size)) {
                        throw new OverlappingFileLockException();
                    }
                }
                list.add(r);
                return r;
            }
        }
    }

    /**
     * Drops a reservation (a released, invalidated or never-taken lock).
     *
     * @param key the file
     * @param r what {@link #reserve} returned
     */
    public static void remove(FileKey key, Range r) {
        List<Range> list = LOCKS.get(key);
        if (list == null) {
            return;
        }
        synchronized (list) {
            list.removeIf(x -> x == r);
            if (list.isEmpty()) {
                LOCKS.remove(key, list);
            }
        }
    }
}

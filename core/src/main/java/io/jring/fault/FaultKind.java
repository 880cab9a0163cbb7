package io.jring.fault;

/**
 * What the fault seam can do to a syscall the engine makes for a request ({@link Faults}).
 * Each kind stands for something Linux may really do to that call, or for something an
 * application or the JVM may do meanwhile.
 */
public enum FaultKind {
    /** A non-blocking attempt finds the file not ready (only NOWAIT/MSG_DONTWAIT attempts). */
    EAGAIN,
    /** A read, write, recv or send moves fewer bytes than asked (at least one). */
    SHORT,
    /** A signal interrupts the call before it moved anything. */
    EINTR,
    /** The device reports an I/O error (reads, writes, fsync). */
    EIO,
    /** The file system is full (writes, fsync). */
    ENOSPC,
    /**
     * The application closes the descriptor while the request is in flight, just before
     * this call. The number is then held by a descriptor every I/O call refuses with EBADF
     * (an O_PATH one), so no other file can take the number while requests still use it.
     */
    CLOSE,
    /** The io-wq worker making the call dies (an Error escapes its item); only on workers. */
    WORKER_DEATH,
    /** A thread that owns rings exits with requests in flight: driven by the test or soak ({@link Faults#ownerExitDue}). */
    OWNER_EXIT,
    /**
     * An io-wq worker's thread cannot be created: its start throws the OutOfMemoryError the JDK
     * throws when the system has no thread to give (asked by io-wq, {@link Faults#workerStartRefused}).
     */
    WORKER_START;

    static final FaultKind[] ALL = values();

    final int bit() {
        return 1 << ordinal();
    }
}

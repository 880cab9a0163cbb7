package io.jring.fault;

import static io.jring.fault.FaultKind.CLOSE;
import static io.jring.fault.FaultKind.EAGAIN;
import static io.jring.fault.FaultKind.EINTR;
import static io.jring.fault.FaultKind.EIO;
import static io.jring.fault.FaultKind.ENOSPC;
import static io.jring.fault.FaultKind.SHORT;
import static io.jring.fault.FaultKind.WORKER_DEATH;

/**
 * A syscall of the engine's request paths that carries the fault seam, with the kinds that
 * make sense for it: only a non-blocking attempt may answer EAGAIN (a blocking call on a
 * blocking file never does), only data transfers may be short, only writes and syncs fill
 * a disk, and sockets report no EIO.
 */
public enum FaultSite {
    READ_NOWAIT(EAGAIN, SHORT, EINTR, EIO, CLOSE, WORKER_DEATH),
    READ(SHORT, EINTR, EIO, CLOSE, WORKER_DEATH),
    WRITE_NOWAIT(EAGAIN, SHORT, EINTR, EIO, ENOSPC, CLOSE, WORKER_DEATH),
    WRITE(SHORT, EINTR, EIO, ENOSPC, CLOSE, WORKER_DEATH),
    RECV_NOWAIT(EAGAIN, SHORT, EINTR, CLOSE, WORKER_DEATH),
    RECV(SHORT, EINTR, CLOSE, WORKER_DEATH),
    SEND_NOWAIT(EAGAIN, SHORT, EINTR, CLOSE, WORKER_DEATH),
    SEND(SHORT, EINTR, CLOSE, WORKER_DEATH),
    /** fsync and fdatasync. */
    SYNC(EINTR, EIO, ENOSPC, CLOSE, WORKER_DEATH);

    /** Bit per {@link FaultKind} that may happen here. */
    final int kinds;

    FaultSite(FaultKind... kinds) {
        int m = 0;
        for (FaultKind k : kinds) {
            m |= k.bit();
        }
        this.kinds = m;
    }

    /** The site of a recv, non-blocking or not. */
    public static FaultSite recv(boolean nowait) {
        return nowait ? RECV_NOWAIT : RECV;
    }

    /** The site of a send, non-blocking or not. */
    public static FaultSite send(boolean nowait) {
        return nowait ? SEND_NOWAIT : SEND;
    }
}

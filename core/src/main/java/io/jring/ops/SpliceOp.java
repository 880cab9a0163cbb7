package io.jring.ops;

import io.jring.Errno;
import io.jring.Splice;
import io.jring.Sqe;
import io.jring.core.Request;
import io.jring.sys.FsCalls;
import io.jring.sys.SocketKinds;
import io.jring.sys.SpliceCalls;
import io.jring.sys.Structs;
import io.jring.sys.SysCallContext;

/**
 * SPLICE and TEE (Linux's io_uring/splice.c). The output is the SQE's file ({@code fd},
 * FIXED_FILE applies to it), the input {@code fileIndex} (the kernel's splice_fd_in; with
 * {@link Splice#F_FD_IN_FIXED} a fixed-file slot), {@code len} bytes (unsigned), SPLICE's
 * output offset in {@code off} and input offset in {@code addr2} (the kernel's splice_off_in,
 * which shares addr's place), -1 meaning the file position. As Linux 6.18, only unknown flags
 * fail at prep (and TEE's offsets); every request runs in io-wq, blocking unless
 * {@link Splice#F_NONBLOCK}; the result is the bytes moved (0 at EOF, and for a length of 0
 * without touching either file beyond its lookup); a result short of the length breaks a link.
 *
 * <p>jring's worker waits with poll(2) for both ends and then moves data with
 * SPLICE_F_NONBLOCK, in slices of {@link #WAIT_SLICE_MS}, so a cancel ends a waiting splice
 * as Linux's signalled worker does ({@link #ERESTARTSYS}) and a closing ring with -ECANCELED.
 */
final class SpliceOp extends OpDef {
    private static final int VALID_FLAGS = Splice.F_FD_IN_FIXED | Splice.F_MOVE | Splice.F_NONBLOCK
            | Splice.F_MORE | Splice.F_GIFT;
    private static final int WAIT_SLICE_MS = 100;
    /**
     * What a cancelled waiting splice completes with: Linux 6.18 signals the io-wq worker,
     * the pipe wait returns the kernel-internal -ERESTARTSYS and io_splice posts it as it is
     * (checked on the kernel: res -512).
     */
    private static final int ERESTARTSYS = 512;

    private final boolean tee;

    SpliceOp(boolean tee) {
        this.tee = tee;
    }

    @Override
    public boolean forceAsync(Request req) {
        return true;   // Linux's __io_splice_prep sets REQ_F_FORCE_ASYNC
    }

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if (tee && (req.addr2 != 0 || req.off != 0)) {
            return -Errno.EINVAL;
        }
        if ((req.opFlags & ~VALID_FLAGS) != 0) {
            return -Errno.EINVAL;
        }
        Files.resolveFd(req);
        return 0;
    }

    /**
     * On the submitting side, when the request is issued: a fixed input is looked up and kept
     * open (Linux looks it up under the submit lock when the splice runs); the output is
     * hashed by inode when it is a regular file, and a pipe or socket output runs on the
     * unbound account (Linux's hash_reg_file and unbound_nonreg_file).
     */
    @Override
    public void preparePunt(Request req) {
        if ((req.opFlags & Splice.F_FD_IN_FIXED) != 0) {
            int fd = req.ring.resources().useSecondFixedFile(req, req.fileIndex);
            req.fileIndex = fd < 0 ? Files.NO_FILE : fd;
            req.opFlags &= ~Splice.F_FD_IN_FIXED;   // fileIndex is the descriptor now
        }
        SysCallContext sc = SysCallContext.current();
        req.markSideState(Request.SIDE_IO);
        boolean regular = req.fd >= 0 && FsCalls.fileType(sc, req.fd) == Structs.Stat.S_IFREG;
        req.unbound = !regular;
        if (regular) {
            req.hashKey = Files.inodeHashKey(sc.stat());
        }
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        if (nonBlocking) {
            return -Errno.EAGAIN;   // never inline: forceAsync
        }
        SysCallContext sc = SysCallContext.current();
        int in = req.fileIndex;
        long len = Integer.toUnsignedLong(req.len);
        int inFlags = in < 0 ? -1 : FsCalls.getStatusFlags(sc, in);
        int outFlags = req.fd < 0 ? -1 : FsCalls.getStatusFlags(sc, req.fd);
        if (inFlags < 0 || outFlags < 0) {
            return -Errno.EBADF;   // both files are looked up before anything else
        }
        long r = len == 0 ? 0 : transfer(req, sc, in, inFlags, outFlags, len);
        if (r != len) {
            req.markSideState(Request.SIDE_IO);
            req.failed = true;   // Linux's req_set_fail when ret != len: a short splice breaks its link
        }
        return (int) r;
    }

    /**
     * The checks splice(2) and tee(2) make before they could wait (so a refused request never
     * waits here), then {@link #moveWhenReady}.
     */
    private long transfer(Request req, SysCallContext sc, int in, int inFlags, int outFlags, long len) {
        if (!readable(inFlags) || !writable(outFlags)) {
            return -Errno.EBADF;
        }
        int inType = FsCalls.fileType(sc, in);
        int outType = FsCalls.fileType(sc, req.fd);
        boolean inPipe = inType == Structs.Stat.S_IFIFO;
        boolean outPipe = outType == Structs.Stat.S_IFIFO;
        if (tee ? !inPipe || !outPipe : !inPipe && !outPipe) {
            return -Errno.EINVAL;
        }
        if ((inPipe && req.addr2 != -1 && !tee) || (outPipe && req.off != -1 && !tee)) {
            return -Errno.ESPIPE;
        }
        boolean gateIn = mayBlock(sc, in, inType, inFlags, true);
        boolean gateOut = mayBlock(sc, req.fd, outType, outFlags, false);
        return moveWhenReady(req, sc, in, len, gateIn, gateOut);
    }

    /**
     * A non-pipe end whose splice may block although the call has SPLICE_F_NONBLOCK (which
     * only the pipe side and an AF_UNIX stream input honour): a socket or device without
     * O_NONBLOCK. Its readiness is awaited first, so the worker never blocks in the call.
     */
    private static boolean mayBlock(SysCallContext sc, int fd, int type, int flags, boolean input) {
        if (type == Structs.Stat.S_IFIFO || type == Structs.Stat.S_IFREG || (flags & FsCalls.O_NONBLOCK) != 0) {
            return false;
        }
        return !(input && type == Structs.Stat.S_IFSOCK && SocketKinds.of(sc, fd) == SocketKinds.UNIX_STREAM);
    }

    /**
     * Moves data with SPLICE_F_NONBLOCK once every end that may block is ready; an empty or
     * full pipe (-EAGAIN) is the result with {@link Splice#F_NONBLOCK}, else the worker waits
     * for both ends and tries again, as Linux's blocking splice waits in its worker.
     */
    private long moveWhenReady(Request req, SysCallContext sc, int in, long len, boolean gateIn, boolean gateOut) {
        boolean nonblock = (req.opFlags & Splice.F_NONBLOCK) != 0;
        boolean gated = gateIn || gateOut;
        for (;;) {
            if (gated) {
                int ready = awaitEnds(req, sc, gateIn ? in : -1, gateOut ? req.fd : -1);
                if (ready != 0) {
                    return ready;
                }
            }
            long r = move(req, sc, in, len);
            if (r != -Errno.EAGAIN || nonblock) {
                return r;
            }
            int ready = awaitEnds(req, sc, in, req.fd);
            if (ready != 0) {
                return ready;
            }
        }
    }

    /** Waits (in slices) until both ends (-1: not waited for) are ready: 0, or how the wait ended. */
    private static int awaitEnds(Request req, SysCallContext sc, int in, int out) {
        for (;;) {
            if (req.isCancelRequested()) {
                return -ERESTARTSYS;
            }
            if (req.ring.isClosing()) {
                return -Errno.ECANCELED;
            }
            int r = SpliceCalls.awaitEnds(sc, in, out, WAIT_SLICE_MS);
            if (r > 0 || (r < 0 && r != -Errno.EINTR)) {
                return 0;   // ready, or poll(2) refused: the splice itself answers
            }
        }
    }

    private long move(Request req, SysCallContext sc, int in, long len) {
        int flags = req.opFlags | SpliceCalls.SPLICE_F_NONBLOCK;
        return tee ? SpliceCalls.tee(sc, in, req.fd, len, flags)
                : SpliceCalls.splice(sc, in, req.addr2, req.fd, req.off, len, flags);
    }

    private static final int O_ACCMODE = 3;
    private static final int O_RDONLY = 0;
    private static final int O_WRONLY = 1;
    private static final int O_PATH = 010000000;

    private static boolean readable(int flags) {
        return (flags & O_PATH) == 0 && (flags & O_ACCMODE) != O_WRONLY;
    }

    private static boolean writable(int flags) {
        return (flags & O_PATH) == 0 && (flags & O_ACCMODE) != O_RDONLY;
    }
}

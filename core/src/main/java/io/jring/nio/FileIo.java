package io.jring.nio;

import io.jring.Errno;
import io.jring.sys.FileCalls;
import io.jring.sys.FsCalls;
import io.jring.sys.Structs;
import io.jring.sys.SysCallContext;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * The I/O of a {@link JringFileChannel} on its descriptor: a read or write first tries
 * once without blocking on the calling thread (preadv2/pwritev2 with RWF_NOWAIT, as jring's
 * ring issues inline: a page-cache hit costs one syscall); if that would block, and always
 * for O_DIRECT files, fsync and ftruncate, the op goes to a ring ({@link RingService}) and
 * the caller parks until its CQE.
 */
final class FileIo {
    private FileIo() {}

    /** Bytes moved (0: end of file for a read), or throws the errno as an IOException. */
    static long transfer(int fd, boolean direct, boolean write, MemorySegment[] segs, long offset) throws IOException {
        if (!direct && segs.length <= SysCallContext.IOVEC_CAPACITY) {
            long r = inline(fd, write, segs, offset);
            if (r >= 0) {
                return r;
            }
            if (r != -Errno.EAGAIN && r != -Errno.EOPNOTSUPP) {
                throw error(r);
            }
        }
        int r = RingService.run(new FileOp(write ? FileOp.Kind.WRITEV : FileOp.Kind.READV, fd, segs, offset));
        if (r < 0) {
            throw error(r);
        }
        return r;
    }

    private static long inline(int fd, boolean write, MemorySegment[] segs, long offset) {
        SysCallContext sc = SysCallContext.current();
        MemorySegment iov = sc.iovecs();
        for (int i = 0; i < segs.length; i++) {
            Structs.Iovec.set(iov, i, segs[i].address(), segs[i].byteSize());
        }
        return write ? FileCalls.pwritev2Nowait(sc, fd, iov, segs.length, offset, 0)
                : FileCalls.preadv2Nowait(sc, fd, iov, segs.length, offset, 0);
    }

    /** fsync ({@code metaData}) or fdatasync through the ring. */
    static void force(int fd, boolean metaData) throws IOException {
        int r = RingService.run(new FileOp(metaData ? FileOp.Kind.FSYNC : FileOp.Kind.FDATASYNC, fd, null, 0));
        if (r < 0) {
            throw error(r);
        }
    }

    /** ftruncate through the ring (FTRUNCATE). */
    static void truncate(int fd, long size) throws IOException {
        int r = RingService.run(new FileOp(FileOp.Kind.FTRUNCATE, fd, null, size));
        if (r < 0) {
            throw error(r);
        }
    }

    /** The file's size (fstat on the caller: metadata in memory, it does not wait for a device). */
    static long size(int fd) throws IOException {
        long r = FsCalls.fileSize(SysCallContext.current(), fd);
        if (r < 0) {
            throw error(r);
        }
        return r;
    }

    static IOException error(long negErrno) {
        return new IOException(Errno.name((int) -negErrno));
    }
}

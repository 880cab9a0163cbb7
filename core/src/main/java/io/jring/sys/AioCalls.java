package io.jring.sys;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Linux native AIO (io_setup, io_submit, io_getevents, io_cancel, io_destroy) through
 * {@link RawSyscall}: the only truly asynchronous block-device path, used by DirectIo for
 * O_DIRECT files. Structs are {@link Structs.Iocb} and {@link Structs.IoEvent}. Results are
 * {@code >= 0} or {@code -errno}. The kernel gets raw addresses, so the caller keeps every
 * segment alive until the call returns, and iocbs and their buffers until their event arrives.
 */
public final class AioCalls {
    private AioCalls() {}

    private static final boolean X86_64 = Arch.CURRENT == Arch.X86_64;
    // x86_64 has its own table; aarch64 uses the asm-generic numbers.
    private static final long SYS_IO_SETUP = X86_64 ? 206 : 0;
    private static final long SYS_IO_DESTROY = X86_64 ? 207 : 1;
    private static final long SYS_IO_SUBMIT = X86_64 ? 209 : 2;
    private static final long SYS_IO_CANCEL = X86_64 ? 210 : 3;
    private static final long SYS_IO_GETEVENTS = X86_64 ? 208 : 4;

    /**
     * Creates a context for {@code maxEvents} in-flight iocbs; its id is written to
     * {@code ctxId} (8 bytes, zeroed here as the kernel requires). 0 or -errno.
     */
    public static int ioSetup(SysCallContext ctx, int maxEvents, MemorySegment ctxId) {
        int bad = Buffers.check(ctxId, 8);
        if (bad != 0) {
            return bad;
        }
        ctxId.set(JAVA_LONG, 0, 0L);   // cannot throw: check() saw it alive and ours
        return (int) RawSyscall.call(ctx, SYS_IO_SETUP, maxEvents, ctxId.address());
    }

    public static int ioDestroy(SysCallContext ctx, long aioContext) {
        return (int) RawSyscall.call(ctx, SYS_IO_DESTROY, aioContext);
    }

    /** Submits {@code nr} iocbs whose addresses are in the pointer array {@code iocbPtrs}: the count taken, or -errno. */
    public static int ioSubmit(SysCallContext ctx, long aioContext, int nr, MemorySegment iocbPtrs) {
        int bad = Buffers.check(iocbPtrs, nr * 8L);
        if (bad != 0) {
            return bad;
        }
        return (int) RawSyscall.call(ctx, SYS_IO_SUBMIT, aioContext, nr, iocbPtrs.address());
    }

    /**
     * Waits for at least {@code minNr} and at most {@code nr} completions into {@code events};
     * {@code timeout} is a {@code struct timespec} or null to wait forever. The count, or -errno.
     */
    public static int ioGetevents(SysCallContext ctx, long aioContext, int minNr, int nr,
                                  MemorySegment events, MemorySegment timeout) {
        int bad = Buffers.check(events, nr * Structs.IoEvent.SIZE);
        if (bad == 0 && timeout != null) {
            bad = Buffers.check(timeout, 16);
        }
        if (bad != 0) {
            return bad;
        }
        long timeoutAddress = timeout == null ? 0L : timeout.address();
        return (int) RawSyscall.call(ctx, SYS_IO_GETEVENTS, aioContext, minNr, nr, events.address(), timeoutAddress);
    }

    /** Cancels {@code iocb}; 0 (its event in {@code result}) or -errno (-EINPROGRESS/-EAGAIN as Linux). */
    public static int ioCancel(SysCallContext ctx, long aioContext, MemorySegment iocb, MemorySegment result) {
        int bad = Buffers.check(iocb, Structs.Iocb.SIZE);
        if (bad == 0) {
            bad = Buffers.check(result, Structs.IoEvent.SIZE);
        }
        if (bad != 0) {
            return bad;
        }
        return (int) RawSyscall.call(ctx, SYS_IO_CANCEL, aioContext, iocb.address(), result.address());
    }
}

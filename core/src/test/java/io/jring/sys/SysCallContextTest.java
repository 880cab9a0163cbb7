package io.jring.sys;

import io.jring.Errno;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Mirrors {@link SysCallContext}: ownership, closing, errno capture through critical handles. */
class SysCallContextTest {
    @Test
    void errnoIsCapturedThroughBothPlainAndCriticalHandles() {
        try (SysCallContext ctx = SysCallContext.confined()) {
            assertEquals(-Errno.EBADF, FsCalls.close(ctx, -1));                // plain handle
            assertEquals(-Errno.EBADF, FsCalls.getStatusFlags(ctx, 1 << 30));   // critical handle
            assertEquals(-Errno.EBADF, FileCalls.preadNowait(ctx, -1, ctx.scratch(), 8, 0));
            assertEquals(Errno.EBADF, ctx.lastErrno());
        }
    }

    @Test
    void closedContextFailsWithEfaultInsteadOfThrowing() {
        SysCallContext ctx = SysCallContext.confined();
        ctx.close();
        ctx.close();   // idempotent
        assertEquals(-Errno.EFAULT, FsCalls.close(ctx, -1));
    }

    @Test
    void confinedContextUsedFromAnotherThreadFailsWithEfault() throws Exception {
        try (SysCallContext ctx = SysCallContext.confined()) {
            int r = CompletableFuture.supplyAsync(() -> FsCalls.close(ctx, -1)).get(10, TimeUnit.SECONDS);
            assertEquals(-Errno.EFAULT, r);
        }
    }

    @Test
    void sharedContextMayBeHandedToAnotherThread() throws Exception {
        try (SysCallContext ctx = SysCallContext.shared()) {
            int r = CompletableFuture.supplyAsync(() -> FsCalls.close(ctx, -1)).get(10, TimeUnit.SECONDS);
            assertEquals(-Errno.EBADF, r);
        }
    }

    @Test
    void currentIsPerThreadAndSurvivesClose() throws Exception {
        SysCallContext mine = SysCallContext.current();
        mine.close();   // a no-op for the thread's own context
        assertSame(mine, SysCallContext.current());
        assertEquals(-Errno.EBADF, FsCalls.close(mine, -1));
        SysCallContext other = CompletableFuture.supplyAsync(SysCallContext::current).get(10, TimeUnit.SECONDS);
        assertEquals(false, other == mine);
    }
}

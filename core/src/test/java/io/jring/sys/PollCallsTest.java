package io.jring.sys;

import io.jring.Errno;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Mirrors {@link PollCalls}: epoll over an eventfd, the waiter's wakeup path. */
class PollCallsTest {
    private final SysCallContext ctx = SysCallContext.confined();

    @AfterEach
    void close() {
        ctx.close();
    }

    @Test
    void epollEventLayoutMatchesTheArchitecture() {
        long expected = Arch.CURRENT == Arch.X86_64 ? 12 : 16;
        assertEquals(expected, Structs.EpollEvent.SIZE);
        assertEquals(expected, Structs.EpollEvent.LAYOUT.byteSize());
    }

    @Test
    void epollWaitReportsAnEventfdAfterItIsWritten() {
        int ep = PollCalls.epollCreate(ctx, PollCalls.EPOLL_CLOEXEC);
        int efd = PollCalls.eventfd(ctx, 0, PollCalls.EFD_NONBLOCK | PollCalls.EFD_CLOEXEC);
        assertTrue(ep >= 0 && efd >= 0);
        try {
            long token = 0x1234_5678_9abc_def0L;
            assertEquals(0, PollCalls.epollCtl(ctx, ep, PollCalls.EPOLL_CTL_ADD, efd, PollCalls.EPOLLIN, token));
            assertEquals(0, PollCalls.epollPoll(ctx, ep, ctx.epollEvents(), SysCallContext.EPOLL_EVENTS_CAPACITY),
                    "nothing ready yet");
            assertEquals(-Errno.EAGAIN, PollCalls.eventfdRead(ctx, efd));

            assertEquals(0, PollCalls.eventfdWrite(ctx, efd, 3));
            assertEquals(0, PollCalls.eventfdWrite(ctx, efd, 4));
            int n = PollCalls.epollWait(ctx, ep, ctx.epollEvents(), SysCallContext.EPOLL_EVENTS_CAPACITY, 5000);
            assertEquals(1, n);
            assertEquals(token, Structs.EpollEvent.data(ctx.epollEvents(), 0));
            assertEquals(PollCalls.EPOLLIN, Structs.EpollEvent.events(ctx.epollEvents(), 0) & PollCalls.EPOLLIN);
            assertEquals(7, PollCalls.eventfdRead(ctx, efd));
            assertEquals(0, PollCalls.epollWait(ctx, ep, ctx.epollEvents(), 4, 0), "drained");

            assertEquals(0, PollCalls.epollCtl(ctx, ep, PollCalls.EPOLL_CTL_DEL, efd, 0, 0));
            assertEquals(-Errno.ENOENT, PollCalls.epollCtl(ctx, ep, PollCalls.EPOLL_CTL_DEL, efd, 0, 0));
        } finally {
            FsCalls.close(ctx, efd);
            FsCalls.close(ctx, ep);
        }
    }

    @Test
    void oneShotInterestFiresOnceUntilRearmed() {
        int ep = PollCalls.epollCreate(ctx, PollCalls.EPOLL_CLOEXEC);
        int efd = PollCalls.eventfd(ctx, 1, PollCalls.EFD_NONBLOCK);
        try {
            assertEquals(0, PollCalls.epollCtl(ctx, ep, PollCalls.EPOLL_CTL_ADD, efd,
                    PollCalls.EPOLLIN | PollCalls.EPOLLONESHOT, 9));
            assertEquals(1, PollCalls.epollPoll(ctx, ep, ctx.epollEvents(), 4));
            assertEquals(0, PollCalls.epollPoll(ctx, ep, ctx.epollEvents(), 4), "disarmed after one event");
            assertEquals(0, PollCalls.epollCtl(ctx, ep, PollCalls.EPOLL_CTL_MOD, efd,
                    PollCalls.EPOLLIN | PollCalls.EPOLLONESHOT, 10));
            assertEquals(1, PollCalls.epollPoll(ctx, ep, ctx.epollEvents(), 4));
            assertEquals(10, Structs.EpollEvent.data(ctx.epollEvents(), 0));
        } finally {
            FsCalls.close(ctx, efd);
            FsCalls.close(ctx, ep);
        }
    }

    @Test
    void epollWaitRejectsTooSmallEventArrays() {
        assertEquals(-Errno.EFAULT, PollCalls.epollWait(ctx, 0, ctx.scratch(), 2, 0));
        assertEquals(-Errno.EINVAL, PollCalls.epollPoll(ctx, 0, ctx.epollEvents(), 0));
    }
}

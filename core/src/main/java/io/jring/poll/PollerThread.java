package io.jring.poll;

import io.jring.TaskWorkKind;
import io.jring.sys.NativeMemory;
import io.jring.sys.PollCalls;
import io.jring.sys.Structs;
import io.jring.sys.SysCallContext;
import io.jring.tw.TaskWork;
import io.jring.tw.TaskWorkQueue;
import io.jring.tw.TaskWorkTarget;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;

/**
 * The poller-thread strategy (the alternative to the owner waiting in epoll itself): one
 * thread per {@link Poller} waits on the armed fds and hands each batch of readiness to the
 * owner as one task-work item, which dispatches it in the owner's task. Selected with
 * {@code -Djring.poller=thread}; it costs a second wakeup per batch, which is what the
 * echo benchmark measures.
 *
 * <p>Handshake: the thread fills its event buffer, publishes the count in {@link #batch}
 * (release) and queues this item; the owner reads the count (acquire), dispatches, sets it
 * back to 0 (release) and unparks the thread, which only then waits again. So the buffer
 * has one user at a time.
 */
final class PollerThread extends TaskWork implements TaskWorkTarget {
    private static final int MAX_EVENTS = 128;
    /** epoll_wait timeout: how soon the thread notices close(). */
    private static final int WAIT_MS = 100;

    private final Poller poller;
    private final TaskWorkQueue owner;
    private final int epfd;
    private final Arena arena = NativeMemory.shared();
    private final MemorySegment events;
    private final Thread thread;
    private volatile int batch;
    private volatile boolean stopping;

    PollerThread(Poller poller, TaskWorkQueue owner, int epfd) {
        this.poller = poller;
        this.owner = owner;
        this.epfd = epfd;
        this.events = arena.allocate(MAX_EVENTS * Structs.EpollEvent.SIZE, 8);
        this.thread = Thread.ofPlatform().daemon().name("jring-poller-" + owner.owner().getName()).unstarted(this::run);
    }

    void start() {
        thread.start();
    }

    private void run() {
        try (SysCallContext sc = SysCallContext.confined()) {
            while (!stopping) {
                int n = PollCalls.epollWait(sc, epfd, events, MAX_EVENTS, WAIT_MS);
                if (n <= 0 || stopping) {
                    continue;
                }
                batch = n;
                try {
                    owner.addTaskWork(this, TaskWorkKind.MPSC);
                } catch (Throwable t) {
                    // Queued before what threw (a wake, an event): wait for its dispatch as usual.
                }
                while (batch != 0 && !stopping) {
                    LockSupport.parkNanos(this, 10_000_000L);
                }
            }
        }
    }

    /**
     * The owner's task: dispatch the batch, then let the thread wait again. A gone owner's
     * batch is dispatched too: its requests end with -ECANCELED in their task work.
     */
    @Override
    public void runTaskWork(boolean cancel) {
        int n = batch;
        if (n > 0 && !poller.isClosed()) {
            poller.dispatch(events, n);
        }
        batch = 0;
        LockSupport.unpark(thread);
    }

    /** close(): stops the thread and waits for it. */
    void stop() {
        stopping = true;
        LockSupport.unpark(thread);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        arena.close();
    }

    @Override
    public TaskWorkTarget target() {
        return this;
    }

    @Override
    public void beginTaskRun() {
    }

    @Override
    public void endTaskRun(int items) {
    }
}

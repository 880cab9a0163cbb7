package io.jring.tool.udp;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;

/**
 * A UDP echo server for {@code jring bench udp}, run on one thread of its own: every datagram
 * goes back to its sender. Started, then closed by the controller thread; {@link #cpuNanos}
 * is the server thread's CPU time, read by the controller.
 */
abstract class UdpEchoServer implements AutoCloseable {
    /** Written by the server thread once at start; read by the controller. */
    private volatile long threadId = -1;
    /** Set by the controller; read by the server loop once per batch. */
    volatile boolean stop;
    /** What ended the loop early; written by the server thread, read by the controller after join. */
    volatile Throwable failure;
    private Thread thread;

    /** {@return the address it serves on} */
    abstract InetSocketAddress address();

    /** The loop: echo until {@link #stop}. */
    abstract void serve() throws Exception;

    /** Wakes a loop blocked in a receive, so it sees {@link #stop}. */
    abstract void wake();

    /** {@return what the server counted beyond echoes (failed operations), empty if nothing} */
    String diagnostics() {
        return "";
    }

    /** Releases the sockets and rings (after the loop has ended). */
    abstract void release();

    final void start(String name) {
        thread = Thread.ofPlatform().name(name).start(() -> {
            threadId = Thread.currentThread().threadId();
            try {
                serve();
            } catch (Throwable t) {
                if (!stop) {
                    failure = t;
                }
            }
        });
    }

    /** {@return the server thread's CPU time so far, or -1 if unknown} */
    final long cpuNanos() {
        long id = threadId;
        return id < 0 ? -1 : ManagementFactory.getThreadMXBean().getThreadCpuTime(id);
    }

    @Override
    public final void close() throws InterruptedException {
        stop = true;
        wake();
        thread.join(10_000);
        release();
    }
}

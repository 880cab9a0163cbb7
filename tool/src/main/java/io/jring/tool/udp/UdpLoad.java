package io.jring.tool.udp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;

/**
 * The load of {@code jring bench udp}, the same for every server: one thread, {@code clients}
 * non-blocking UDP sockets connected to the server, each with one datagram of {@code size}
 * bytes in flight (send, receive the echo, send again), numbered so that the echo of a
 * datagram sent twice counts once. A datagram lost on the way is sent again after 200 ms
 * (counted). Started and stopped by the controller.
 */
final class UdpLoad implements AutoCloseable {
    private static final long RESEND_NANOS = 200_000_000L;

    private final Selector selector;
    private final DatagramChannel[] channels;
    private final long[] sentAt;
    /** Per socket: the sequence number of its datagram in flight, in its first 8 bytes (load thread only). */
    private final long[] seq;
    private final int size;
    /** Echoes received; written by the load thread only, read by the controller (volatile: a plain counter per echo would be visible late). */
    private volatile long echoes;
    /** Datagrams sent again; load thread writes, controller reads after stop. */
    private volatile long resent;
    /** Set by the controller; read by the load loop each select. */
    private volatile boolean stop;
    /** What ended the loop early; written by the load thread, read by the controller after join. */
    private volatile Throwable failure;
    private Thread thread;

    UdpLoad(InetSocketAddress server, int clients, int size) throws IOException {
        this.size = size;
        selector = Selector.open();
        channels = new DatagramChannel[clients];
        sentAt = new long[clients];
        seq = new long[clients];
        for (int i = 0; i < clients; i++) {
            channels[i] = DatagramChannel.open();
            channels[i].connect(server);
            channels[i].configureBlocking(false);
            channels[i].register(selector, SelectionKey.OP_READ, i);
        }
    }

    void start() {
        thread = Thread.ofPlatform().name("jring-udp-load").start(this::run);
    }

    private void run() {
        try {
            ByteBuffer out = ByteBuffer.allocateDirect(size);
            ByteBuffer in = ByteBuffer.allocateDirect(Math.max(size, 2048));
            for (int i = 0; i < channels.length; i++) {
                send(i, out);
            }
            long lastScan = System.nanoTime();
            long count = 0;
            while (!stop) {
                selector.select(50);
                for (SelectionKey key : selector.selectedKeys()) {
                    int i = (Integer) key.attachment();
                    in.clear();
                    boolean answered = false;
                    while (channels[i].read(in) > 0) {
                        // An echo of a datagram sent again is a duplicate: one request in flight per socket.
                        answered |= size < 8 || in.getLong(0) == seq[i];
                        in.clear();
                    }
                    if (answered) {
                        seq[i]++;
                        count++;
                        send(i, out);
                    }
                }
                selector.selectedKeys().clear();
                echoes = count;
                long now = System.nanoTime();
                if (now - lastScan > RESEND_NANOS / 2) {
                    lastScan = now;
                    for (int i = 0; i < channels.length; i++) {
                        if (now - sentAt[i] > RESEND_NANOS) {
                            resent++;
                            send(i, out);
                        }
                    }
                }
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    private void send(int i, ByteBuffer out) throws IOException {
        out.clear();
        if (size >= 8) {
            out.putLong(0, seq[i]);
        }
        channels[i].write(out);
        sentAt[i] = System.nanoTime();
    }

    long echoes() {
        return echoes;
    }

    long resent() {
        return resent;
    }

    /** Stops the load; throws what ended it early, if anything did. */
    @Override
    public void close() throws IOException, InterruptedException {
        stop = true;
        if (thread != null) {
            thread.join(10_000);
        }
        for (DatagramChannel c : channels) {
            c.close();
        }
        selector.close();
        if (failure != null) {
            throw new IOException("the UDP load failed: " + failure, failure);
        }
    }
}

package io.jring.nio;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 1,000 connections at once through one group: a server whose handlers accept and echo
 * (each handler starting the next operation), and 1,000 clients started from a thread outside
 * the group, each writing a numbered message and reading it back, many rounds. Every
 * completion arrives exactly once (no handler call lost or doubled), every byte comes back,
 * and closing everything leaves the group able to terminate.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ThousandSocketsTest {
    private static final int CONNECTIONS = 1000;
    private static final int ROUNDS = 20;
    private static final int SIZE = 64;

    /** The server side of one connection: read, then write back what was read, until EOF. */
    private static final class Echo implements CompletionHandler<Integer, Void> {
        private final AsynchronousSocketChannel ch;
        private final ByteBuffer buf = ByteBuffer.allocateDirect(SIZE);
        private boolean writing;

        Echo(AsynchronousSocketChannel ch) {
            this.ch = ch;
        }

        void start() {
            ch.read(buf, null, this);
        }

        @Override
        public void completed(Integer n, Void v) {
            if (!writing && n < 0) {
                close();
                return;
            }
            if (!writing) {
                buf.flip();
                writing = true;
                ch.write(buf, null, this);
            } else if (buf.hasRemaining()) {
                ch.write(buf, null, this);
            } else {
                buf.clear();
                writing = false;
                ch.read(buf, null, this);
            }
        }

        @Override
        public void failed(Throwable exc, Void v) {
            close();
        }

        private void close() {
            try {
                ch.close();
            } catch (IOException ignored) {
                // the test's own checks report what went wrong
            }
        }
    }

    /** One client: ROUNDS times write a message naming (id, round), read it back whole, check it. */
    private static final class Client implements CompletionHandler<Integer, Void> {
        final int id;
        final AsynchronousSocketChannel ch;
        final ByteBuffer out = ByteBuffer.allocate(SIZE);
        final ByteBuffer in = ByteBuffer.allocate(SIZE);
        final AtomicIntegerArray calls;
        final AtomicIntegerArray started;
        final CountDownLatch done;
        final List<String> errors;
        int round;
        boolean reading;

        Client(int id, AsynchronousSocketChannel ch, AtomicIntegerArray calls, AtomicIntegerArray started,
               CountDownLatch done, List<String> errors) {
            this.id = id;
            this.ch = ch;
            this.calls = calls;
            this.started = started;
            this.done = done;
            this.errors = errors;
        }

        void send() {
            out.clear();
            while (out.hasRemaining()) {
                out.putInt(id).putInt(round);
            }
            out.flip();
            reading = false;
            write();
        }

        @Override
        public void completed(Integer n, Void v) {
            calls.incrementAndGet(id);
            if (!reading && out.hasRemaining()) {
                write();
                return;
            }
            if (!reading) {
                reading = true;
                in.clear();
                read();
                return;
            }
            if (n < 0) {
                errors.add("client " + id + ": EOF in round " + round);
                done.countDown();
                return;
            }
            if (in.hasRemaining()) {
                read();
                return;
            }
            in.flip();
            while (in.hasRemaining()) {
                int gotId = in.getInt();
                int gotRound = in.getInt();
                if (gotId != id || gotRound != round) {
                    errors.add("client " + id + " round " + round + ": got " + gotId + "/" + gotRound);
                    done.countDown();
                    return;
                }
            }
            if (++round == ROUNDS) {
                done.countDown();
            } else {
                send();
            }
        }

        private void write() {
            started.incrementAndGet(id);
            ch.write(out, null, this);
        }

        private void read() {
            started.incrementAndGet(id);
            ch.read(in, null, this);
        }

        @Override
        public void failed(Throwable exc, Void v) {
            calls.incrementAndGet(id);
            errors.add("client " + id + ": " + exc);
            done.countDown();
        }
    }

    @Test
    void everyCompletionExactlyOnceAcrossAThousandConnections() throws Exception {
        var group = JringAsynchronousChannelGroup.open(2);
        var accepted = ConcurrentHashMap.<AsynchronousSocketChannel>newKeySet();
        try (var server = AsynchronousServerSocketChannel.open(group)
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), CONNECTIONS)) {
            server.accept(null, new CompletionHandler<AsynchronousSocketChannel, Void>() {
                @Override
                public void completed(AsynchronousSocketChannel ch, Void v) {
                    accepted.add(ch);
                    new Echo(ch).start();
                    server.accept(null, this);
                }

                @Override
                public void failed(Throwable exc, Void v) {
                    // the listener closed at the end of the test
                }
            });
            var calls = new AtomicIntegerArray(CONNECTIONS);
            var started = new AtomicIntegerArray(CONNECTIONS);
            var done = new CountDownLatch(CONNECTIONS);
            List<String> errors = new CopyOnWriteArrayList<>();
            Client[] clients = new Client[CONNECTIONS];
            for (int i = 0; i < CONNECTIONS; i++) {
                var ch = AsynchronousSocketChannel.open(group);
                ch.connect(server.getLocalAddress()).get(60, TimeUnit.SECONDS);
                clients[i] = new Client(i, ch, calls, started, done, errors);
            }
            for (Client c : clients) {
                c.send();
            }
            assertTrue(done.await(240, TimeUnit.SECONDS), "clients still running: " + done.getCount());
            assertEquals(List.of(), errors);
            assertEquals(CONNECTIONS, accepted.size());
            for (int i = 0; i < CONNECTIONS; i++) {
                // every operation started completed once: none lost (done would not count down), none twice
                assertEquals(started.get(i), calls.get(i), "client " + i + ": operations started vs handler calls");
                assertTrue(calls.get(i) >= 2 * ROUNDS, "client " + i + " saw " + calls.get(i) + " completions");
                assertEquals(ROUNDS, clients[i].round);
            }
            for (Client c : clients) {
                c.ch.close();
            }
        }
        group.shutdown();
        assertTrue(group.awaitTermination(60, TimeUnit.SECONDS), "the group did not terminate: a channel left open");
        for (AsynchronousSocketChannel ch : accepted) {
            assertTrue(!ch.isOpen());
        }
    }
}

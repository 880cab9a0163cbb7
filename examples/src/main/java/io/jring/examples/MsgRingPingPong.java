package io.jring.examples;

import io.jring.Cqe;
import io.jring.Errno;
import io.jring.IoUring;
import io.jring.Setup;
import io.jring.SqeFlags;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * MSG_RING between two threads: each thread owns a SINGLE_ISSUER | DEFER_TASKRUN ring and
 * talks to the other only by posting CQEs into the other's ring (no queue, no lock, no
 * wakeup code of its own). "ping" sends round {@code n} as a message with {@code res = n};
 * "pong" answers each with {@code n + 1}. The sender's own CQE is suppressed with
 * CQE_SKIP_SUCCESS, so each ring sees only the messages it receives.
 *
 * <pre>
 * MsgRingPingPong [ROUNDS]     default 10000
 * </pre>
 */
public final class MsgRingPingPong {
    static final long PING = 1;
    static final long PONG = 2;
    static final long STOP = 3;
    /** Fails rather than hang if the other side does not answer within this. */
    static final Duration LIMIT = Duration.ofSeconds(30);

    private MsgRingPingPong() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        CompletableFuture<IoUring> pingRing = new CompletableFuture<>();
        CompletableFuture<IoUring> pongRing = new CompletableFuture<>();
        CompletableFuture<Long> elapsed = new CompletableFuture<>();
        Thread ping = Thread.ofPlatform().name("ping").start(() -> {
            try (IoUring ring = ownRing()) {
                pingRing.complete(ring);
                IoUring peer = pongRing.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
                long start = System.nanoTime();
                for (int n = 0; n < rounds; n++) {
                    send(ring, peer, n, PING);
                    expect(ring, PONG, n + 1);
                }
                elapsed.complete(System.nanoTime() - start);
                send(ring, peer, 0, STOP);
                expect(ring, STOP, 0);   // pong's last word: after it pong sends nothing more
            } catch (Throwable t) {
                elapsed.completeExceptionally(t);
            }
        });
        Thread pong = Thread.ofPlatform().name("pong").start(() -> {
            try (IoUring ring = ownRing()) {
                pongRing.complete(ring);
                IoUring peer = pingRing.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
                while (true) {
                    Cqe cqe = waitCqe(ring);
                    long kind = cqe.userData();
                    int n = cqe.res();
                    ring.cqeSeen(cqe);
                    if (kind == STOP) {
                        send(ring, peer, 0, STOP);
                        return;
                    }
                    if (kind != PING) {
                        throw new IllegalStateException("pong got " + kind);
                    }
                    send(ring, peer, n + 1, PONG);
                }
            } catch (Throwable t) {
                pongRing.completeExceptionally(t);
                elapsed.completeExceptionally(t);
            }
        });
        long nanos = elapsed.get(2 * LIMIT.toSeconds(), TimeUnit.SECONDS);
        ping.join();
        pong.join();
        System.out.printf("%d round trips between two threads' rings in %.1f ms (%.2f us each)%n",
                rounds, nanos / 1e6, nanos / 1e3 / Math.max(1, rounds));
    }

    /** A ring for the calling thread: its first submit makes this thread the SINGLE_ISSUER owner. */
    static IoUring ownRing() {
        IoUring ring = IoUring.builder().entries(64).flags(Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN).build();
        ring.submit();
        return ring;
    }

    /** Posts a CQE with {@code res = n} and {@code userData = kind} into {@code target}. */
    static void send(IoUring ring, IoUring target, int n, long kind) {
        ring.getSqe().prepMsgRing(target, n, kind, 0).flags(SqeFlags.CQE_SKIP_SUCCESS).userData(kind);
        ring.submit();
    }

    static void expect(IoUring ring, long kind, int n) {
        Cqe cqe = waitCqe(ring);
        long got = cqe.userData();
        int res = cqe.res();
        ring.cqeSeen(cqe);
        if (got != kind || res != n) {
            throw new IllegalStateException("expected message " + kind + "/" + n + ", got " + got + "/"
                    + (res < 0 ? Errno.name(res) : res));
        }
    }

    static Cqe waitCqe(IoUring ring) {
        Cqe cqe = ring.waitCqe(LIMIT);
        if (cqe == null) {
            throw new IllegalStateException(Thread.currentThread().getName() + ": nothing within " + LIMIT);
        }
        return cqe;
    }
}

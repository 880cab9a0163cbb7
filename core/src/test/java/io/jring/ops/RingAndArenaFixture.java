package io.jring.ops;

import io.jring.IoUring;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.nio.file.Path;

/**
 * What every op test class starts from: a temp directory, a fresh default ring of the given
 * size and a shared arena for buffers, closed after each test. JUnit runs a subclass's own
 * {@code @BeforeEach} after this one and its {@code @AfterEach} before this one, so extra
 * setup may use the ring and extra teardown runs while it is still open.
 */
abstract class RingAndArenaFixture {
    private final int entries;

    @TempDir Path dir;
    IoUring ring;
    Arena arena;

    RingAndArenaFixture(int entries) {
        this.entries = entries;
    }

    @BeforeEach
    void openRingAndArena() {
        ring = IoUring.open(entries);
        arena = Arena.ofShared();
    }

    @AfterEach
    void closeRingAndArena() {
        ring.close();
        arena.close();
    }
}

package io.jring.nio;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Files for the io.jring.nio tests: FIFOs (whose reads stay pending until written) and patterned data. */
final class NioTestFiles {
    private NioTestFiles() {}

    /** A named pipe in {@code dir}: a channel opened on it READ and WRITE (O_RDWR) never blocks in open. */
    static Path fifo(Path dir, String name) throws IOException, InterruptedException {
        Path p = dir.resolve(name);
        Process pr = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
        if (!pr.waitFor(30, TimeUnit.SECONDS) || pr.exitValue() != 0) {
            throw new IOException("mkfifo failed for " + p);
        }
        return p;
    }

    /** A file of {@code size} bytes where byte i is {@code (byte) (i * 31 + 7)}. */
    static Path patterned(Path dir, String name, int size) throws IOException {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = pattern(i);
        }
        return Files.write(dir.resolve(name), b);
    }

    static byte pattern(long i) {
        return (byte) (i * 31 + 7);
    }
}

package io.jring.kernel;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import io.jring.Fds;
import io.jring.OpenFlags;
import io.jring.testkit.RingTestSupport.Descriptors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The resources of one run of a {@link Scenario}: pipes, socket pairs, TCP listeners and the temp file
 * named in its SQEs (created on first use), and native buffers. Each run (kernel or jring)
 * gets its own, so the two never share a descriptor. {@link #close()} closes what is left.
 */
final class ScenarioEnv implements AutoCloseable {
    private final Arena arena = Arena.ofShared();
    private final Map<String, Integer> fds = new HashMap<>();
    private final Descriptors open = new Descriptors();
    private final Path file;

    /** A run with a temp file in {@code dir} holding {@code fileContent} (none when null). */
    ScenarioEnv(Path dir, String fileContent) {
        if (fileContent == null) {
            file = null;
            return;
        }
        try {
            file = Files.createTempFile(dir, "scenario", ".dat");
            Files.writeString(file, fileContent, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The descriptor behind a name (see {@link SqeSpec}). */
    int fd(String name) {
        if (name.equals("bad")) {
            return SqeSpec.BAD_FD;
        }
        if (name.startsWith("#")) {
            return Integer.parseInt(name.substring(1));
        }
        Integer fd = fds.get(name);
        if (fd != null) {
            return fd;
        }
        if (name.equals("file")) {
            if (file == null) {
                throw new IllegalStateException("the scenario uses 'file' but declares no file content");
            }
            fd = Fds.open(file, OpenFlags.RDWR, 0);
            fds.put(name, fd);
            open.add(fd);
            return fd;
        }
        String base = name.substring(0, name.indexOf('.'));
        if (base.startsWith("t")) {
            return listener(base, Integer.parseInt(base.substring(1)), name);
        }
        if (base.startsWith("u") || base.startsWith("w")) {
            return udpPair(base, base.startsWith("u") ? "127.0.0.1" : "::1", name);
        }
        if (base.startsWith("d")) {
            int[] pair = Fds.socketPair(Fds.SOCK_DGRAM);
            open.add(pair);
            fds.put(base + ".a", pair[0]);
            fds.put(base + ".b", pair[1]);
            return fds.get(name);
        }
        int[] pair = base.startsWith("p") ? Fds.pipe() : Fds.socketPair();
        String[] ends = base.startsWith("p") ? new String[] {".r", ".w"} : new String[] {".a", ".b"};
        fds.put(base + ends[0], pair[0]);
        fds.put(base + ends[1], pair[1]);
        open.add(pair);
        Integer resolved = fds.get(name);
        if (resolved == null) {
            throw new IllegalArgumentException("unknown descriptor name " + name);
        }
        return resolved;
    }

    /**
     * "tN.l": a TCP socket listening on loopback with N connections waiting to be accepted
     * (loopback completes a connect before it returns); "tN.c": the first of their clients.
     */
    private int listener(String base, int pending, String name) {
        int l = open.add(Fds.listenTcp(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16));
        fds.put(base + ".l", l);
        for (int i = 0; i < pending; i++) {
            int c = open.add(Fds.connectTcp(Fds.localAddress(l)));
            if (i == 0) {
                fds.put(base + ".c", c);
            }
        }
        Integer resolved = fds.get(name);
        if (resolved == null) {
            throw new IllegalArgumentException("unknown descriptor name " + name);
        }
        return resolved;
    }

    /**
     * "uN.a"/"uN.b" (IPv4) and "wN.a"/"wN.b" (IPv6): two UDP sockets bound to loopback, not
     * connected (a SENDMSG names the peer); "uN.c": a third one connected to "uN.a".
     */
    private int udpPair(String base, String ip, String name) {
        InetSocketAddress any = new InetSocketAddress(InetAddress.ofLiteral(ip), 0);
        int a = open.add(Fds.bindUdp(any));
        int b = open.add(Fds.bindUdp(any));
        int c = open.add(Fds.bindUdp(any));
        Fds.connect(c, Fds.localAddress(a));
        fds.put(base + ".a", a);
        fds.put(base + ".b", b);
        fds.put(base + ".c", c);
        return fds.get(name);
    }

    /** The run's arena (a msghdr and what it points to). */
    Arena arena() {
        return arena;
    }

    /** Runs so far in this JVM: each run's {@link #unique} names differ from every other run's. */
    private static final java.util.concurrent.atomic.AtomicLong RUNS = new java.util.concurrent.atomic.AtomicLong();
    private final long run = RUNS.incrementAndGet();

    /** {@code name} made unique to this run and process (an abstract AF_UNIX address, say). */
    String unique(String name) {
        return "jring-" + ProcessHandle.current().pid() + "-" + run + "-" + name;
    }

    /** Closes the descriptor behind {@code name} now (as a test would with close(2)). */
    void close(String name) {
        open.close(fd(name));
    }

    MemorySegment buffer(int len) {
        return arena.allocate(Math.max(len, 0), 8);
    }

    MemorySegment region(long size) {
        return arena.allocate(size, 8);
    }

    /** {@code size} bytes on whole 4 KiB pages (a buffer ring's memory). */
    MemorySegment pages(long size) {
        return arena.allocate(Math.max(4096, (size + 4095) & ~4095L), 4096);
    }

    MemorySegment bytes(String data) {
        byte[] b = data.getBytes(StandardCharsets.US_ASCII);
        MemorySegment seg = arena.allocate(b.length, 8);
        MemorySegment.copy(b, 0, seg, JAVA_BYTE, 0, b.length);
        return seg;
    }

    MemorySegment[] buffers(int[] lens) {
        MemorySegment[] out = new MemorySegment[lens.length];
        for (int i = 0; i < lens.length; i++) {
            out[i] = buffer(lens[i]);
        }
        return out;
    }

    MemorySegment[] pieces(String data, int[] lens) {
        MemorySegment all = bytes(data);
        MemorySegment[] out = new MemorySegment[lens.length];
        long at = 0;
        for (int i = 0; i < lens.length; i++) {
            out[i] = all.asSlice(at, lens[i]);
            at += lens[i];
        }
        return out;
    }

    /** Writes ASCII {@code data} to the named descriptor with a blocking write(2). */
    void write(String name, String data) {
        Fds.write(fd(name), data.getBytes(StandardCharsets.US_ASCII));
    }

    /** Reads exactly {@code count} bytes from the named descriptor with blocking read(2) calls. */
    void read(String name, int count) {
        int fd = fd(name);
        int done = 0;
        while (done < count) {
            int n = Fds.read(fd, new byte[count - done]);
            if (n == 0) {
                throw new IllegalStateException("EOF on " + name + " after " + done + " of " + count + " bytes");
            }
            done += n;
        }
    }

    @Override
    public void close() {
        open.close();   // a descriptor the scenario closed itself (CLOSE op) is skipped there
        arena.close();
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a temp file left behind is harmless
            }
        }
    }
}

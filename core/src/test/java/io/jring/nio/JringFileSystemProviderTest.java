package io.jring.nio;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** JringFileSystemProvider: the platform's file system, but jring's AsynchronousFileChannel. */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JringFileSystemProviderTest {
    @TempDir
    Path dir;

    @Test
    void pathsOfItsFileSystemLeadFilesAndAsynchronousFileChannelToIt() throws Exception {
        JringFileSystemProvider provider = new JringFileSystemProvider(FileSystems.getDefault().provider());
        FileSystem fs = provider.getFileSystem(URI.create("file:///"));
        assertSame(provider, fs.provider());
        Path d = fs.getPath(dir.toString());
        Path f = d.resolve("a.txt");
        assertSame(fs, f.getFileSystem());
        Files.writeString(f, "hello");
        assertEquals("hello", Files.readString(f));
        try (Stream<Path> s = Files.list(d)) {
            List<Path> l = s.toList();
            assertEquals(1, l.size());
            assertSame(fs, l.get(0).getFileSystem());
            assertEquals(f, l.get(0));
        }
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(f, StandardOpenOption.READ)) {
            assertInstanceOf(JringAsynchronousFileChannel.class, ch);
            ByteBuffer b = ByteBuffer.allocate(10);
            assertEquals(5, ch.read(b, 0).get(60, TimeUnit.SECONDS));
        }
        Files.copy(f, d.resolve("b.txt"));
        assertTrue(Files.isSameFile(d.resolve("b.txt"), d.resolve("x/../b.txt").normalize()));
        assertEquals(d.resolve("b.txt"), f.resolveSibling("b.txt"));
        assertEquals(f.toString(), f.toFile().getPath());
        assertThrows(ProviderMismatchException.class, () -> provider.delete(dir.resolve("a.txt")));
    }

    @Test
    void theSystemPropertyMakesItTheDefaultProvider() throws Exception {
        Path f = dir.resolve("flag.txt");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED",
                "-Djava.nio.file.spi.DefaultFileSystemProvider=io.jring.nio.JringFileSystemProvider",
                "-cp", System.getProperty("java.class.path") + File.pathSeparator + System.getProperty("surefire.test.class.path", ""),
                ProviderFlagMain.class.getName(), f.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(90, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertEquals(List.of(JringFileSystemProvider.class.getName(), JringAsynchronousFileChannel.class.getName(),
                "via the flag", JringFileChannel.class.getName() + " " + JringFileChannel.class.getName(),
                "via the flagstreams", "19"), out.lines().toList(), out);
    }
}

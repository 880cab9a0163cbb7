package io.jring.nio;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * Run in a child JVM by {@link JringFileSystemProviderTest} with the DefaultFileSystemProvider
 * flag: prints the default provider's class, the channels' classes and what they read.
 */
public final class ProviderFlagMain {
    private ProviderFlagMain() {}

    public static void main(String[] args) throws Exception {
        Path p = Path.of(args[0]);
        Files.writeString(p, "via the flag");
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(p, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(64);
            int n = ch.read(b, 0).get(60, TimeUnit.SECONDS);
            System.out.println(FileSystems.getDefault().provider().getClass().getName());
            System.out.println(ch.getClass().getName());
            System.out.println(new String(b.array(), 0, n));
        }
        try (FileChannel fc = FileChannel.open(p, StandardOpenOption.READ);
             SeekableByteChannel bc = Files.newByteChannel(p)) {
            System.out.println(fc.getClass().getName() + " " + bc.getClass().getName());
        }
        // The streams Files makes come from newByteChannel, so they run on jring's channel too.
        Files.write(p, "streams".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
        System.out.println(new String(Files.readAllBytes(p), StandardCharsets.UTF_8));
        try (InputStream in = Files.newInputStream(p)) {
            System.out.println(in.readAllBytes().length);
        }
    }
}

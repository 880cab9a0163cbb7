package io.jring.nio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * transferTo and transferFrom of a {@link JringFileChannel}, arguments checked: a copy
 * through a direct buffer, with the channel's positional reads and writes (so each part
 * parks a virtual thread rather than holding its carrier). The channel's position is not
 * touched; a non-blocking target that takes nothing ends the copy.
 */
final class ChannelCopy {
    private static final int CHUNK = 64 * 1024;

    private ChannelCopy() {}

    /** Copies {@code count} bytes (already clipped to the file's size) from {@code position} to {@code target}. */
    static long to(FileChannel ch, long position, long count, WritableByteChannel target) throws IOException {
        if (count <= 0) {
            return 0;
        }
        ByteBuffer buf = ByteBuffer.allocateDirect((int) Math.min(CHUNK, count));
        long done = 0;
        while (done < count) {
            buf.clear().limit((int) Math.min(buf.capacity(), count - done));
            int n = ch.read(buf, position + done);
            if (n <= 0) {
                break;
            }
            buf.flip();
            while (buf.hasRemaining()) {
                if (target.write(buf) == 0) {
                    return done + n - buf.remaining();
                }
            }
            done += n;
        }
        return done;
    }

    /** Copies up to {@code count} bytes from {@code src} into the file at {@code position}. */
    static long from(ReadableByteChannel src, FileChannel ch, long position, long count) throws IOException {
        if (count <= 0) {
            return 0;
        }
        ByteBuffer buf = ByteBuffer.allocateDirect((int) Math.min(CHUNK, count));
        long done = 0;
        while (done < count) {
            buf.clear().limit((int) Math.min(buf.capacity(), count - done));
            int n = src.read(buf);
            if (n <= 0) {
                break;
            }
            buf.flip();
            while (buf.hasRemaining()) {
                ch.write(buf, position + done + (n - buf.remaining()));
            }
            done += n;
        }
        return done;
    }
}

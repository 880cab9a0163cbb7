package io.jring.channel;

import java.nio.ByteBuffer;
import java.util.Objects;

/** The buffer arrays of the scattering and gathering forms, checked as {@code java.nio} checks them. */
public final class BufferArrays {
    private BufferArrays() {}

    /**
     * The {@code length} buffers of {@code bufs} from {@code offset}.
     *
     * @param bufs the array
     * @param offset the first buffer's index
     * @param length how many
     * @return a copy of that part of the array
     * @throws IndexOutOfBoundsException if offset or length is out of range
     * @throws NullPointerException if the array or one of its buffers in range is null
     */
    public static ByteBuffer[] subsequence(ByteBuffer[] bufs, int offset, int length) {
        Objects.requireNonNull(bufs, "buffers");
        if (offset < 0 || length < 0 || offset > bufs.length - length) {
            throw new IndexOutOfBoundsException();
        }
        ByteBuffer[] part = new ByteBuffer[length];
        for (int i = 0; i < length; i++) {
            part[i] = Objects.requireNonNull(bufs[offset + i], "buffer");
        }
        return part;
    }
}

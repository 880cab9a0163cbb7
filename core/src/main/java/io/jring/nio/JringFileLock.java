package io.jring.nio;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;

/**
 * A lock taken through the platform channel on the same file, handed out as a lock of the
 * {@link JringFileChannel} (its {@link #channel()} is that channel). Validity and release
 * are the platform lock's; closing the channel releases it.
 */
final class JringFileLock extends FileLock {
    private final FileLock platform;

    JringFileLock(FileChannel channel, FileLock platform) {
        super(channel, platform.position(), platform.size(), platform.isShared());
        this.platform = platform;
    }

    @Override
    public boolean isValid() {
        return platform.isValid() && channel().isOpen();
    }

    @Override
    public void release() throws IOException {
        platform.release();
    }
}

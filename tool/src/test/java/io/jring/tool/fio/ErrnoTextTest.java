package io.jring.tool.fio;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link ErrnoText}: why a file call failed, in strerror(3)'s words, whichever way the JDK reports it. */
class ErrnoTextTest {

    @Test
    void theJdksExceptionTypesBecomeTheErrorsTheyStandFor() {
        assertEquals("No such file or directory", ErrnoText.describe(new NoSuchFileException("/x/y/file")));
        assertEquals("Permission denied", ErrnoText.describe(new AccessDeniedException("/root/file")));
        assertEquals("Not a directory", ErrnoText.describe(new NotDirectoryException("/etc/passwd/x")));
        assertEquals("Read-only file system", ErrnoText.describe(new FileSystemException("/ro/f", null, "Read-only file system")));
        assertEquals("disk on fire", ErrnoText.describe(new IOException("disk on fire")));
        assertEquals(13, ErrnoText.errnoOf(new AccessDeniedException("/root/file")));
        assertEquals(2, ErrnoText.errnoOf(new NoSuchFileException("/x")));
    }
}

package io.jring;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

@Timeout(20)
class FileSmokeTest {
    @TempDir Path dir;

    @Test
    void readWrite() throws Exception {
        Path p = dir.resolve("f");
        byte[] data = new byte[8192];
        for (int i = 0; i < data.length; i++) data[i] = (byte) i;
        Files.write(p, data);
        int fd = Fds.open(p, OpenFlags.RDWR, 0);
        try (IoUring ring = IoUring.open(8); Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(4096);
            ring.getSqe().prepRead(fd, buf, 4096).userData(1);
            ring.submitAndWait(1);
            Cqe c = ring.waitCqe();
            assertEquals(4096, c.res());
            ring.cqeSeen(c);
            assertEquals((byte) 4096, buf.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0));
            ring.getSqe().prepRead(fd, buf, 6000).userData(2);
            ring.getSqe().prepRead(fd, buf, 0).userData(3).flags(SqeFlags.ASYNC);
            ring.getSqe().prepRead(fd, MemorySegment.ofArray(new byte[10]), 0).userData(4);
            ring.submitAndWait(3);
            int[] got = new int[5];
            ring.forEachCqe((ud, res, fl) -> got[(int) ud] = res);
            assertEquals(8192 - 6000, got[2]);
            assertEquals(4096, got[3]);
            assertEquals(-Errno.EINVAL, got[4]);
            ring.getSqe().prepFsync(fd, 0).userData(5);
            ring.submitAndWait(1);
            c = ring.waitCqe();
            assertEquals(0, c.res());
            ring.cqeSeen(c);
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void directNowait() throws Exception {
        Path p = dir.resolve("d");
        Files.write(p, new byte[1 << 20]);
        int fd = Fds.open(p, OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        try (Arena a = Arena.ofConfined()) {
            var sc = io.jring.sys.SysCallContext.current();
            MemorySegment buf = a.allocate(4096, 4096);
            long t0 = System.nanoTime();
            long r = io.jring.sys.FileCalls.preadNowait(sc, fd, buf, 4096, 8192);
            long t1 = System.nanoTime();
            System.out.println("O_DIRECT preadv2 NOWAIT -> " + r + " in " + (t1 - t0) / 1000 + " us");
        } finally {
            Fds.close(fd);
        }
    }
}

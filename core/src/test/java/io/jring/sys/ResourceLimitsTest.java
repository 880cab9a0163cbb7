package io.jring.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Mirrors {@link ResourceLimits}: getrlimit agrees with /proc/self/limits. */
class ResourceLimitsTest {

    @Test
    void softRlimitNprocMatchesProcSelfLimits() throws Exception {
        String soft = Files.readAllLines(Path.of("/proc/self/limits")).stream()
                .filter(l -> l.startsWith("Max processes"))
                .map(l -> l.substring("Max processes".length()).trim().split("\\s+")[0])
                .findFirst().orElseThrow();
        long expected = soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
        assertEquals(expected, ResourceLimits.softLimit(SysCallContext.current(), ResourceLimits.RLIMIT_NPROC));
    }

    @Test
    void unknownResourceIsEinval() {
        long r = ResourceLimits.softLimit(SysCallContext.current(), 9999);
        assertTrue(r < 0, "got " + r);
        assertEquals(-io.jring.Errno.EINVAL, r);
    }
}

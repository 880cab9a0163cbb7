package io.jring.tool.fio;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link FioEta}'s line has fio's shape. */
class FioEtaTest {

    @Test
    void randomReadLineLooksLikeFios() {
        String line = FioEta.render(1, Rw.RANDREAD, 0.45, 1234L << 20, 0, 316_000, 0, 3_000_000_000L);
        assertEquals("Jobs: 1 (f=1): [r(1)][45.0%][r=1234MiB/s][r=316k IOPS][eta 00m:03s]", line);
    }

    @Test
    void mixedSequentialLineShowsBothDirections() {
        String line = FioEta.render(2, Rw.RW, 0.5, 1L << 20, 2L << 20, 256, 512, 61_000_000_000L);
        assertEquals("Jobs: 2 (f=2): [M(2)][50.0%][r=1024KiB/s,w=2048KiB/s][r=256,w=512 IOPS][eta 01m:01s]", line);
    }
}

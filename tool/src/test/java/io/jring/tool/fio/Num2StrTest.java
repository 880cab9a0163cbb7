package io.jring.tool.fio;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link Num2Str} against figures fio 3.33 printed for the same numbers. */
class Num2StrTest {

    @Test
    void iopsAsFioPrintsThem() {
        assertEquals("87.3k", Num2Str.of(87_300, false, Num2Str.NONE));
        assertEquals("270k", Num2Str.of(270_117, false, Num2Str.NONE));
        assertEquals("6853", Num2Str.of(6853, false, Num2Str.NONE));
        assertEquals("11.8k", Num2Str.of(11_813, false, Num2Str.NONE));
    }

    @Test
    void bandwidthInBothBases() {
        long bw = 357_913_941L;   // 341.3 MiB/s
        assertEquals("341MiB/s", Num2Str.of(bw, true, Num2Str.BYTE_PER_SEC));
        assertEquals("358MB/s", Num2Str.of(bw, false, Num2Str.BYTE_PER_SEC));
        assertEquals("26.8MiB/s", Num2Str.of(28_100_000L, true, Num2Str.BYTE_PER_SEC));
    }

    @Test
    void latencyWithSixDigits() {
        assertEquals("4238.5k", Num2Str.of(4_238_500, 6, 1, false, Num2Str.NONE));
        assertEquals("1483", Num2Str.of(1483, 6, 1, false, Num2Str.NONE));
    }
}

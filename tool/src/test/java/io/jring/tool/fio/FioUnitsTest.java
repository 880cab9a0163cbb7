package io.jring.tool.fio;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** fio's number syntax ({@link FioUnits}): k = 1024 as in fio's default kb_base. */
class FioUnitsTest {

    @Test
    void sizePrefixesArePowersOf1024() {
        assertEquals(4096, FioUnits.parseSize("4k"));
        assertEquals(4096, FioUnits.parseSize("4K"));
        assertEquals(4096, FioUnits.parseSize("4kb"));
        assertEquals(4096, FioUnits.parseSize("4KiB"));
        assertEquals(256L << 20, FioUnits.parseSize("256M"));
        assertEquals(1L << 30, FioUnits.parseSize("1g"));
        assertEquals(2L << 40, FioUnits.parseSize("2t"));
        assertEquals(512, FioUnits.parseSize("512"));
        assertEquals(1536 * 1024, FioUnits.parseSize("1.5m"));
    }

    @Test
    void badSizesAreRejectedWithTheReason() {
        assertThrows(IllegalArgumentException.class, () -> FioUnits.parseSize("4x"));
        assertThrows(IllegalArgumentException.class, () -> FioUnits.parseSize("k"));
        assertThrows(IllegalArgumentException.class, () -> FioUnits.parseSize("-4k"));
        assertThrows(IllegalArgumentException.class, () -> FioUnits.parseSize("99999999999p"));
    }

    @Test
    void timesAreSecondsUnlessSuffixed() {
        assertEquals(5_000_000_000L, FioUnits.parseTimeNanos("5"));
        assertEquals(5_000_000_000L, FioUnits.parseTimeNanos("5s"));
        assertEquals(500_000_000L, FioUnits.parseTimeNanos("500ms"));
        assertEquals(120_000_000_000L, FioUnits.parseTimeNanos("2m"));
        assertEquals(250_000L, FioUnits.parseTimeNanos("250us"));
        assertThrows(IllegalArgumentException.class, () -> FioUnits.parseTimeNanos("5 parsecs"));
    }

    @Test
    void booleansTakeFiosSpellings() {
        assertTrue(FioUnits.parseBool("1"));
        assertTrue(FioUnits.parseBool("true"));
        assertFalse(FioUnits.parseBool("0"));
        assertFalse(FioUnits.parseBool("off"));
        assertThrows(IllegalArgumentException.class, () -> FioUnits.parseBool("2"));
    }
}

package io.jring.tool.report;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** Mirrors {@link LiveStatus}. */
class LiveStatusTest {

    @Test
    void rendersFioStyleProgressRateAndEta() {
        assertEquals("jring: [nop MPSC][45.1%][31.25M ops/s][eta 00m:03s]",
                LiveStatus.render("nop MPSC", 0.451, 31_250_000, "ops/s", 2_500_000_000L));
    }

    @Test
    void disabledStatusPrintsOnlyResultLines() {
        StringWriter sw = new StringWriter();
        PrintWriter out = new PrintWriter(sw);
        try (LiveStatus s = LiveStatus.start(out, false, 1_000_000_000L)) {
            assertFalse(s.isEnabled());
            s.phase("x", "ops/s", () -> 42L);
            s.println(out, "result");
        }
        assertEquals("result" + System.lineSeparator(), sw.toString());
    }

    @Test
    void enabledStatusErasesItsLineOnClose() throws InterruptedException {
        StringWriter sw = new StringWriter();
        PrintWriter out = new PrintWriter(sw);
        try (LiveStatus s = LiveStatus.start(out, true, 10_000_000_000L)) {
            s.phase("bench", "ops/s", () -> 7L);
            Thread.sleep(LiveStatus.TICK_NANOS / 1_000_000L * 3); // at least one tick is drawn
        }
        String text = sw.toString();
        assertFalse(text.contains("\n"), "the status never ends a line");
        String afterLastDraw = text.substring(text.lastIndexOf("jring: ["));
        // Last thing written: carriage return, blanks over the line, carriage return.
        assertEquals('\r', text.charAt(text.length() - 1));
        assertFalse(afterLastDraw.isEmpty());
    }

    @Test
    void etaAndSiFiguresAreFioLike() {
        assertEquals("00m:00s", Figures.eta(0));
        assertEquals("01m:05s", Figures.eta(65_000_000_000L));
        assertEquals("1h:01m:01s", Figures.eta(3_661_000_000_000L));
        assertEquals("523.0K", Figures.si(523_000));
        assertEquals("10.50M", Figures.si(10_500_000));
    }
}

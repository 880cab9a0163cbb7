package io.jring.tool.report;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Mirrors {@link JsonLine}. */
class JsonLineTest {

    @Test
    void writesOneParsableObjectOnOneLineInPutOrder() {
        String line = JsonLine.object().put("bench", "nop").put("batch", 32).put("ratio", 2.98765)
                .put("ok", true).put("lat_ns", JsonLine.object().put("p50", 10).put("p99", 20)).toString();
        assertFalse(line.contains("\n"));
        assertEquals("{\"bench\":\"nop\",\"batch\":32,\"ratio\":2.9877,\"ok\":true,\"lat_ns\":{\"p50\":10,\"p99\":20}}", line);
        Map<String, Object> m = JsonReader.parseObject(line);
        assertEquals(32.0, m.get("batch"));
    }

    @Test
    void escapesQuotesBackslashesAndControlCharacters() {
        String nasty = "a\"b\\c\nd\te\u0001f";
        String line = JsonLine.object().put("s", nasty).toString();
        assertEquals(nasty, JsonReader.parseObject(line).get("s"));
    }

    @Test
    void nonFiniteNumbersBecomeNull() {
        Map<String, Object> m = JsonReader.parseObject(JsonLine.object().put("x", Double.NaN)
                .put("y", Double.POSITIVE_INFINITY).toString());
        assertNull(m.get("x"));
        assertNull(m.get("y"));
    }

    @Test
    void integralDoublesPrintWithoutFraction() {
        assertEquals("3", JsonLine.number(3.0));
        assertEquals("0.034", JsonLine.number(0.034));
        assertEquals("-1.5", JsonLine.number(-1.5));
    }
}

package io.jring.tool.bench;

import io.jring.tool.JringCommand;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ColdStartBench}: three fresh JVMs per mode run, and the report gives both figures. */
class ColdStartBenchTest {

    @Test
    void coldStartRunsFreshJvmsAndReportsTheFloorOpenAndFirstTimeout() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = JringCommand.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int rc = cl.execute("bench", "coldstart", "--rounds=3");
        assertEquals(0, rc, out + "\n" + err);
        String text = out.toString();
        assertEquals(3, text.lines().filter(l -> l.startsWith("round ")).count(), text);
        Matcher timeout = Pattern.compile("first TIMEOUT of 50 ms: +median ([0-9.]+) ms").matcher(text);
        assertTrue(timeout.find(), text);
        // A 50 ms TIMEOUT can never complete early, whatever the machine's speed.
        assertTrue(Double.parseDouble(timeout.group(1)) >= 50.0, text);
        assertTrue(text.contains("over the floor"), text);
    }
}

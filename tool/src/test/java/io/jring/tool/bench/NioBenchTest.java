package io.jring.tool.bench;

import io.jring.tool.JringCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link NioBench}: a short real run of both providers, and its option checks. */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NioBenchTest {
    @TempDir Path dir;

    @Test
    void aShortRunPrintsBothProvidersAndTheirRatio() {
        StringWriter out = new StringWriter();
        CommandLine cl = JringCommand.commandLine();
        cl.setOut(new PrintWriter(out));
        assertEquals(0, cl.execute("bench", "nio", "--seconds=1", "--warmup=0", "--rounds=1", "--size=4",
                "--threads=1,2", "--in-flight=4", "--io=buffered", "--dir=" + dir), out.toString());
        List<String> lines = out.toString().lines().toList();
        assertTrue(lines.get(1).contains("jring/JDK"), out.toString());
        assertEquals(4, lines.size(), out.toString());
        assertTrue(lines.get(2).trim().startsWith("buffered 1"), out.toString());
        assertTrue(lines.get(3).trim().startsWith("buffered 2"), out.toString());
        assertTrue(lines.get(3).contains("x "), out.toString());
    }

    @Test
    void rejectsAnUnknownIoMode() {
        StringWriter err = new StringWriter();
        CommandLine cl = JringCommand.commandLine();
        cl.setErr(new PrintWriter(err));
        cl.setOut(new PrintWriter(new StringWriter()));
        assertEquals(2, cl.execute("bench", "nio", "--io=mmap", "--size=1", "--dir=" + dir));
        assertTrue(err.toString().contains("--io must be buffered or direct"), err.toString());
    }
}

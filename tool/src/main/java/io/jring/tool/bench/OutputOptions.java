package io.jring.tool.bench;

import io.jring.tool.report.LiveStatus;
import picocli.CommandLine.Option;

import java.io.PrintWriter;

/** Options every bench shares: how results are printed. A picocli mixin. */
public final class OutputOptions {

    @Option(names = "--output-format", defaultValue = "normal", paramLabel = "normal|json",
            description = "normal: human summary; json: one JSON object per line per measured configuration.")
    OutputFormat format = OutputFormat.normal;

    public OutputFormat format() {
        return format;
    }

    public boolean isJson() {
        return format == OutputFormat.json;
    }

    /** The live status line: only for human output on a terminal. */
    public LiveStatus startStatus(PrintWriter out, long plannedNanos) {
        return LiveStatus.start(out, !isJson() && LiveStatus.stdoutIsTerminal(), plannedNanos);
    }
}

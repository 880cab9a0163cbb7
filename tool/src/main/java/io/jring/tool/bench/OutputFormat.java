package io.jring.tool.bench;

/** {@code --output-format}: the human summary (default) or JSON lines (BENCHMARKS.md). */
public enum OutputFormat {
    normal,
    json
}

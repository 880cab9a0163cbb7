package io.jring.tool.report;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * An engine a report sweeps: jring's own fio runner on the jring ring, or real fio with one
 * of its ioengines. The order here is the order of legends and tables.
 */
public enum ReportEngine {
    JRING("jring", "jring", false, "#d62728"),
    FIO_IO_URING("fio-io_uring", "io_uring", true, "#1f77b4"),
    FIO_LIBAIO("fio-libaio", "libaio", true, "#2ca02c"),
    FIO_PSYNC("fio-psync", "psync", true, "#7f7f7f");

    /** The name {@code --engines} takes and the JSON stores. */
    public final String id;
    /** The {@code --ioengine} value of each run. */
    public final String ioengine;
    /** True when the runs are real fio's, false for {@code jring fio}. */
    public final boolean fio;
    /** The colour of the engine's line in every plot. */
    public final String color;

    ReportEngine(String id, String ioengine, boolean fio, String color) {
        this.id = id;
        this.ioengine = ioengine;
        this.fio = fio;
        this.color = color;
    }

    /** One synchronous call per I/O: measured once, at depth 1, as fio runs its sync engines. */
    public boolean isSync() {
        return this == FIO_PSYNC;
    }

    /** Linux AIO is asynchronous only with O_DIRECT: on a buffered file io_submit does the I/O itself. */
    public boolean needsDirect() {
        return this == FIO_LIBAIO;
    }

    /** "jring", "fio io_uring", "fio psync (QD1)". */
    public String label() {
        String base = fio ? "fio " + ioengine : id;
        return isSync() ? base + " (QD1)" : base;
    }

    /** The engine named {@code id}, or an IllegalArgumentException listing the names. */
    public static ReportEngine byId(String id) {
        for (ReportEngine e : values()) {
            if (e.id.equalsIgnoreCase(id)) {
                return e;
            }
        }
        throw new IllegalArgumentException("no report engine '" + id + "': use " + ids());
    }

    /** "jring, fio-io_uring, fio-libaio, fio-psync". */
    public static String ids() {
        return Arrays.stream(values()).map(e -> e.id).collect(Collectors.joining(", "));
    }
}

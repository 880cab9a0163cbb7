package io.jring.tool.fio;

import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The job options the command line and job files may give (those of {@link FioOptions}):
 * whether a name is one, whether it takes a value, and the nearest one to a mistyped name.
 * Names are without dashes, as in job files.
 */
final class JobOptionNames {
    private JobOptionNames() {}

    private static final Map<String, OptionSpec> BY_NAME = new LinkedHashMap<>();

    static {
        for (OptionSpec o : FioOptions.spec().options()) {
            for (String n : o.names()) {
                BY_NAME.put(n.replaceFirst("^-+", ""), o);
            }
        }
    }

    static boolean isKnown(String name) {
        return BY_NAME.containsKey(name);
    }

    /** Whether the option needs a value ({@code bs=4k}); the others may stand alone ({@code time_based}). */
    static boolean takesValue(String name) {
        OptionSpec o = BY_NAME.get(name);
        return o != null && o.arity().min > 0;
    }

    /** The option's first name, for "job options" (bs for blocksize). */
    static String canonical(String name) {
        OptionSpec o = BY_NAME.get(name);
        return o == null ? name : o.names()[0].replaceFirst("^-+", "");
    }

    static Collection<String> all() {
        return BY_NAME.keySet();
    }

    /**
     * fio job options that change what is measured and jring fio does not do (docs/BENCHMARKS.md,
     * issue 18, lists them): giving one is an error that names it, never a run that quietly
     * measures something else.
     */
    private static final java.util.Set<String> FIO_UNSUPPORTED = java.util.Set.of(
            "nrfiles", "filesize", "file_service_type", "openfiles", "opendir", "filename_format",
            "rate", "rate_iops", "rate_min", "rate_iops_min", "rate_process", "rate_cycle",
            "thinktime", "thinktime_spin", "thinktime_blocks", "thinktime_blocks_type", "thinktime_iotime",
            "zero_buffers", "refill_buffers", "scramble_buffers", "buffer_compress_percentage",
            "buffer_compress_chunk", "buffer_pattern", "dedupe_percentage",
            "verify", "do_verify", "verify_pattern", "verify_interval", "verify_only", "verify_backlog",
            "sync", "fsync_on_close", "end_syncfs", "write_barrier",
            "create_on_open", "allow_file_create", "create_only", "overwrite", "fill_device", "fill_fs", "file_append",
            "random_distribution", "percentage_random", "random_generator", "bssplit", "blockalign", "ba",
            "offset_increment", "offset_align", "size_increment", "zonemode", "zonesize", "zonerange", "zoneskip",
            "unified_rw_reporting", "clat_percentiles", "slat_percentiles", "continue_on_error",
            "write_lat_log", "write_bw_log", "write_iops_log", "write_hist_log", "log_avg_msec",
            "read_iolog", "write_iolog", "replay_no_stall", "exitall", "exitall_on_error", "wait_for", "flow",
            "steadystate", "ss", "io_submit_mode", "sqthread_poll", "hipri", "nonvectored", "uncached", "force_async",
            "cmdprio_percentage", "cpus_allowed", "cpumask", "nice", "prio", "prioclass", "iomem", "mem", "iomem_align",
            "mem_align", "serialize_overlap", "lockfile", "trim_percentage", "rw_sequencer", "ioscheduler");

    /** A fio option that jring fio knows of and does not support. */
    static boolean isUnsupportedFioOption(String name) {
        return FIO_UNSUPPORTED.contains(name);
    }

    /** The one-line message for an option jring fio does not know, naming the nearest one among {@code alsoKnown} too. */
    static String unknown(String shown, String name, Collection<String> alsoKnown) {
        if (FIO_UNSUPPORTED.contains(name)) {
            return "fio option '" + shown + "' is not supported by jring fio (docs/BENCHMARKS.md lists what is not)";
        }
        List<String> known = new ArrayList<>(all());
        known.addAll(alsoKnown);
        String nearest = io.jring.tool.OptionNames.nearest(name, known);
        boolean dashes = shown.startsWith("-");
        return "unknown option '" + shown + "'" + (nearest == null ? "" : " (nearest: " + (dashes ? "--" : "") + nearest + ")");
    }
}

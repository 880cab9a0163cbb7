package io.jring.tool.fio;

import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * fio's {@code --output-format=json}: the same layout and field names as fio 3.x
 * ({@code show_thread_status_json} and {@code add_ddir_status_json} in fio's stat.c), so
 * {@code jobs[0].read.iops} and {@code jobs[0].read.clat_ns.percentile["99.000000"]} work
 * with existing fio tooling. Fields fio has and jring does not measure (disk_util, trim
 * I/O, latency targets) are left out or zero, as fio prints them when unused.
 */
final class JsonReport {
    private JsonReport() {}

    static String render(List<ReportedJob> entries, Map<String, String> globalOptions, String version) {
        long nowMs = System.currentTimeMillis();
        JsonOut j = new JsonOut().beginObject();
        j.field("fio version", version);
        j.field("timestamp", nowMs / 1000);
        j.field("timestamp_ms", nowMs);
        j.field("time", NormalReport.ctime(new Date(nowMs)));
        if (!globalOptions.isEmpty()) {
            j.beginObject("global options");
            for (Map.Entry<String, String> e : globalOptions.entrySet()) {
                j.field(e.getKey(), e.getValue());
            }
            j.endObject();
        }
        int groups = ReportedJob.groups(entries);
        GroupStats[] stats = new GroupStats[groups];
        for (int g = 0; g < groups; g++) {
            stats[g] = GroupStats.of(entries, g);
        }
        j.beginArray("jobs");
        for (ReportedJob entry : entries) {
            job(j, entry, stats[entry.groupId()]);
        }
        j.endArray();
        j.endObject();
        return j + "\n";
    }

    private static void job(JsonOut j, ReportedJob entry, GroupStats group) {
        JobStats ts = entry.stats();
        JobSpec spec = entry.spec();
        j.beginElement();
        j.field("jobname", entry.name());
        j.field("groupid", entry.groupId());
        j.field("error", ts.error);
        j.field("eta", 0);
        j.field("elapsed", (ts.totalRunNanos + 999_999_999L) / 1_000_000_000L);
        j.beginObject("job options");
        for (Map.Entry<String, String> e : spec.givenOptions().entrySet()) {
            j.field(e.getKey(), e.getValue());
        }
        j.endObject();
        boolean latPercentiles = spec.latPercentiles();
        double[] plist = spec.percentiles();
        dir(j, "read", ts.read, ts, group.agg[Ddir.READ], latPercentiles, plist);
        dir(j, "write", ts.write, ts, group.agg[Ddir.WRITE], latPercentiles, plist);
        dir(j, "trim", new DirStats(), ts, 0, latPercentiles, plist);
        j.beginObject("sync");
        j.field("total_ios", ts.syncIos);
        lat(j, "lat_ns", ts.syncLat, true, plist);
        j.endObject();
        j.field("job_runtime", ts.totalRunNanos / 1_000_000);
        j.field("usr_cpu", CpuUsage.percentOf(ts.cpu.userNanos(), ts.totalRunNanos));
        j.field("sys_cpu", CpuUsage.percentOf(ts.cpu.systemNanos(), ts.totalRunNanos));
        j.field("ctx", ts.cpu.contextSwitches());
        j.field("majf", ts.cpu.majorFaults());
        j.field("minf", ts.cpu.minorFaults());
        distribution(j, "iodepth_level", new String[] {"1", "2", "4", "8", "16", "32", ">=64"}, ts.depthMap, sum(ts.depthMap));
        String[] batch = {"0", "4", "8", "16", "32", "64", ">=64"};
        distribution(j, "iodepth_submit", batch, ts.submitMap, ts.totalSubmit);
        distribution(j, "iodepth_complete", batch, ts.completeMap, ts.totalComplete);
        LatencyBuckets b = LatencyBuckets.of(ts);
        buckets(j, "latency_ns", b.nsec, LatencyBuckets.BOUNDS);
        buckets(j, "latency_us", b.usec, LatencyBuckets.BOUNDS);
        buckets(j, "latency_ms", b.msec, LatencyBuckets.MSEC_BOUNDS);
        j.field("latency_depth", spec.iodepth());
        j.field("latency_target", 0);
        j.field("latency_percentile", 100.0);
        j.field("latency_window", 0);
        j.endObject();
    }

    private static void dir(JsonOut j, String name, DirStats d, JobStats ts, long groupAgg, boolean latPercentiles, double[] plist) {
        long runMs = d.ios == 0 ? 0 : GroupStats.runtimeMs(ts);
        long bwBytes = runMs == 0 ? 0 : d.bytes * 1000 / runMs;
        double iops = runMs == 0 ? 0.0 : 1000.0 * d.ios / runMs;
        j.beginObject(name);
        j.field("io_bytes", d.bytes);
        j.field("io_kbytes", d.bytes >> 10);
        j.field("bw_bytes", bwBytes);
        j.field("bw", bwBytes / 1024);
        j.field("iops", iops);
        j.field("runtime", runMs);
        j.field("total_ios", d.ios);
        j.field("short_ios", d.shortIos);
        j.field("drop_ios", 0);
        lat(j, "slat_ns", d.slat, false, plist);
        lat(j, "clat_ns", d.clat, true, plist);
        lat(j, "lat_ns", d.lat, latPercentiles, plist);
        boolean bwSampled = d.bw.samples() > 0;
        double perAgg = 0.0;
        if (bwSampled) {
            perAgg = groupAgg > 1024 ? Math.min(100.0, (long) d.bw.mean() * 100.0 / (groupAgg / 1024.0)) : 100.0;
        }
        j.field("bw_min", d.bw.min());
        j.field("bw_max", d.bw.max());
        j.field("bw_agg", perAgg);
        j.field("bw_mean", d.bw.mean());
        j.field("bw_dev", d.bw.stddev());
        j.field("bw_samples", d.bw.samples());
        j.field("iops_min", d.iops.min());
        j.field("iops_max", d.iops.max());
        j.field("iops_mean", d.iops.mean());
        j.field("iops_stddev", d.iops.stddev());
        j.field("iops_samples", d.iops.samples());
        j.endObject();
    }

    /** fio's add_ddir_lat_json: min/max/mean/stddev/N and, when asked and sampled, the percentiles. */
    private static void lat(JsonOut j, String name, LatencyStat lat, boolean percentiles, double[] plist) {
        IoStat s = lat.stat;
        j.beginObject(name);
        j.field("min", s.min());
        j.field("max", s.max());
        j.field("mean", s.mean());
        j.field("stddev", s.stddev());
        j.field("N", s.samples());
        if (percentiles && s.samples() > 0) {
            long[] values = lat.percentiles(plist);
            j.beginObject("percentile");
            for (int i = 0; i < values.length; i++) {
                j.field(String.format(Locale.ROOT, "%f", plist[i]), values[i]);
            }
            j.endObject();
        }
        j.endObject();
    }

    private static void distribution(JsonOut j, String name, String[] labels, long[] map, long total) {
        j.beginObject(name);
        for (int i = 0; i < labels.length; i++) {
            double pct = 0.0;
            if (total > 0) {
                pct = 100.0 * map[i] / total;
                if (pct < 0.1 && map[i] > 0) {
                    pct = 0.1;
                }
            }
            j.field(labels[i], pct);
        }
        j.endObject();
    }

    private static void buckets(JsonOut j, String name, double[] pct, long[] bounds) {
        j.beginObject(name);
        for (int i = 0; i < pct.length; i++) {
            j.field(LatencyBuckets.label(bounds, i), pct[i]);
        }
        j.endObject();
    }

    private static long sum(long[] values) {
        long s = 0;
        for (long v : values) {
            s += v;
        }
        return s;
    }
}

package io.jring.tool.fio;

import java.io.PrintWriter;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.List;
import java.util.Locale;

/**
 * fio's normal output ({@code show_thread_status_normal} and {@code show_group_stats} in
 * fio's stat.c), line for line: per job the header, per direction the IOPS/BW line,
 * slat/clat/lat, clat percentiles, bw and iops samples; then the latency distribution, CPU,
 * depth distributions; then the "Run status group" summary.
 */
final class NormalReport {
    private NormalReport() {}

    private static final String[] GROUP_NAMES = {"   READ", "  WRITE"};

    /**
     * fio's first lines: per job definition its description ("..." under it when it has
     * clones), the version, "Starting N threads".
     */
    static void printPreamble(PrintWriter out, List<Job> jobs, String version) {
        for (Job job : jobs) {
            JobSpec spec = job.spec;
            if (job.number == 0) {
                out.printf(Locale.ROOT, "%s: (g=%d): rw=%s, bs=%s, ioengine=%s, iodepth=%d%n",
                        spec.name(), job.groupId, spec.rw(), spec.bs().describe(), spec.ioengine(), spec.requestedIodepth());
            } else if (job.number == 1) {
                out.println("...");
            }
        }
        out.println(version);
        out.printf("Starting %d thread%s%n", jobs.size(), jobs.size() == 1 ? "" : "s");
        out.flush();
    }

    /** The entries, then each group's "Run status group N (all jobs)" summary. */
    static void print(PrintWriter out, List<ReportedJob> entries) {
        String now = ctime(new Date());
        long pid = ProcessHandle.current().pid();
        int groups = ReportedJob.groups(entries);
        GroupStats[] stats = new GroupStats[groups];
        for (int g = 0; g < groups; g++) {
            stats[g] = GroupStats.of(entries, g);
        }
        for (ReportedJob entry : entries) {
            printJob(out, entry, stats[entry.groupId()], pid, now);
        }
        for (int g = 0; g < groups; g++) {
            printGroup(out, g, stats[g]);
        }
        out.flush();
    }

    private static void printGroup(PrintWriter out, int groupId, GroupStats group) {
        out.printf("%nRun status group %d (all jobs):%n", groupId);
        for (int ddir = Ddir.READ; ddir <= Ddir.WRITE; ddir++) {
            if (group.maxRunMs[ddir] == 0) {
                continue;
            }
            out.printf(Locale.ROOT, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%d-%dmsec%n",
                    GROUP_NAMES[ddir],
                    Num2Str.of(group.agg[ddir], true, Num2Str.BYTE_PER_SEC),
                    Num2Str.of(group.agg[ddir], false, Num2Str.BYTE_PER_SEC),
                    Num2Str.of(group.minBw[ddir], true, Num2Str.BYTE_PER_SEC),
                    Num2Str.of(group.maxBw[ddir], true, Num2Str.BYTE_PER_SEC),
                    Num2Str.of(group.minBw[ddir], false, Num2Str.BYTE_PER_SEC),
                    Num2Str.of(group.maxBw[ddir], false, Num2Str.BYTE_PER_SEC),
                    Num2Str.of(group.ioBytes[ddir], true, Num2Str.BYTE),
                    Num2Str.of(group.ioBytes[ddir], false, Num2Str.BYTE),
                    group.minRunMs[ddir], group.maxRunMs[ddir]);
        }
    }

    /** C's ctime(3) without the newline: "Mon Nov 30 04:10:48 2026". */
    static String ctime(Date date) {
        return new SimpleDateFormat("EEE MMM dd HH:mm:ss yyyy", Locale.ROOT).format(date).replaceFirst(" 0(\\d) ", "  $1 ");
    }

    private static void printJob(PrintWriter out, ReportedJob entry, GroupStats group, long pid, String now) {
        JobStats ts = entry.stats();
        JobSpec spec = entry.spec();
        if (ts.error == 0) {
            out.printf(Locale.ROOT, "%s: (groupid=%d, jobs=%d): err=%2d: pid=%d: %s%n", entry.name(), entry.groupId(),
                    entry.members(), 0, pid, now);
        } else {
            out.printf(Locale.ROOT, "%s: (groupid=%d, jobs=%d): err=%2d (func=%s, error=%s): pid=%d: %s%n", entry.name(),
                    entry.groupId(), entry.members(), ts.error, ts.errorText.startsWith("io_u error") ? "io_u error" : "engine",
                    ErrnoText.of(ts.error), pid, now);
        }
        for (int ddir = Ddir.READ; ddir <= Ddir.WRITE; ddir++) {
            if (ts.dir(ddir).bytes > 0) {
                printDir(out, ddir, ts, group, spec);
            }
        }
        printLatencyBuckets(out, LatencyBuckets.of(ts));
        if (ts.syncLat.samples() > 0) {
            out.println("  fsync/fdatasync/sync_file_range:");
            printLat(out, "sync", ts.syncLat.stat);
            printPercentiles(out, "sync", ts.syncLat, spec.percentiles());
        }
        out.printf(Locale.ROOT, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%d, majf=%d, minf=%d%n",
                CpuUsage.percentOf(ts.cpu.userNanos(), ts.totalRunNanos), CpuUsage.percentOf(ts.cpu.systemNanos(), ts.totalRunNanos),
                ts.cpu.contextSwitches(), ts.cpu.majorFaults(), ts.cpu.minorFaults());
        double[] d = dist(ts.depthMap, sum(ts.depthMap));
        out.printf(Locale.ROOT, "  IO depths    : 1=%3.1f%%, 2=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, >=64=%3.1f%%%n",
                d[0], d[1], d[2], d[3], d[4], d[5], d[6]);
        d = dist(ts.submitMap, ts.totalSubmit);
        out.printf(Locale.ROOT, "     submit    : 0=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, 64=%3.1f%%, >=64=%3.1f%%%n",
                d[0], d[1], d[2], d[3], d[4], d[5], d[6]);
        d = dist(ts.completeMap, ts.totalComplete);
        out.printf(Locale.ROOT, "     complete  : 0=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, 64=%3.1f%%, >=64=%3.1f%%%n",
                d[0], d[1], d[2], d[3], d[4], d[5], d[6]);
        out.printf(Locale.ROOT, "     issued rwts: total=%d,%d,0,0 short=%d,%d,0,0 dropped=0,0,0,0%n",
                ts.read.ios, ts.write.ios, ts.read.shortIos, ts.write.shortIos);
        out.printf(Locale.ROOT, "     latency   : target=0, window=0, percentile=100.00%%, depth=%d%n", spec.iodepth());
    }

    private static void printDir(PrintWriter out, int ddir, JobStats ts, GroupStats group, JobSpec spec) {
        DirStats d = ts.dir(ddir);
        long runMs = GroupStats.runtimeMs(ts);
        long bw = d.bytes * 1000 / runMs;
        long iops = d.ios * 1000 / runMs;
        out.printf(Locale.ROOT, "  %s: IOPS=%s, BW=%s (%s)(%s/%dmsec)%n", Ddir.name(ddir),
                Num2Str.of(iops, false, Num2Str.NONE), Num2Str.of(bw, true, Num2Str.BYTE_PER_SEC),
                Num2Str.of(bw, false, Num2Str.BYTE_PER_SEC), Num2Str.of(d.bytes, true, Num2Str.BYTE), runMs);
        if (d.slat.samples() > 0) {
            printLat(out, "slat", d.slat.stat);
        }
        if (d.clat.samples() > 0) {
            printLat(out, "clat", d.clat.stat);
        }
        if (d.lat.samples() > 0) {
            printLat(out, " lat", d.lat.stat);
        }
        if (d.clat.samples() > 0) {
            printPercentiles(out, "clat", d.clat, spec.percentiles());
        }
        if (spec.latPercentiles() && d.lat.samples() > 0) {
            printPercentiles(out, "lat", d.lat, spec.percentiles());
        }
        if (d.bw.samples() > 0) {
            double mean = d.bw.mean();
            double dev = d.bw.stddev();
            long min = d.bw.min();
            long max = d.bw.max();
            double perAgg = 100.0;
            if (group.agg[ddir] > 1024) {
                perAgg = Math.min(100.0, (long) mean * 100.0 / (group.agg[ddir] / 1024.0));
            }
            String unit = "KiB";
            if (mean > 1024.0 * 1024.0) {
                min /= 1024;
                max /= 1024;
                mean /= 1024;
                dev /= 1024;
                unit = "MiB";
            }
            out.printf(Locale.ROOT, "   bw (%5s/s): min=%5d, max=%5d, per=%3.2f%%, avg=%5.02f, stdev=%5.02f, samples=%d%n",
                    unit, min, max, perAgg, mean, dev, d.bw.samples());
        }
        if (d.iops.samples() > 0) {
            out.printf(Locale.ROOT, "   iops        : min=%5d, max=%5d, avg=%5.02f, stdev=%5.02f, samples=%d%n",
                    d.iops.min(), d.iops.max(), d.iops.mean(), d.iops.stddev(), d.iops.samples());
        }
    }

    /** fio's display_lat: nsec, or usec/msec when the values are large enough. */
    private static void printLat(PrintWriter out, String name, IoStat s) {
        long min = s.min();
        long max = s.max();
        double mean = s.mean();
        double dev = s.stddev();
        String base = "(nsec)";
        if (min > 2_000_000 && max > 99_999_999L && dev > 1_000_000.0) {
            min /= 1_000_000;
            max /= 1_000_000;
            mean /= 1_000_000.0;
            dev /= 1_000_000.0;
            base = "(msec)";
        } else if (min > 2000 && max > 99_999 && dev > 1000.0) {
            min /= 1000;
            max /= 1000;
            mean /= 1000.0;
            dev /= 1000.0;
            base = "(usec)";
        }
        out.printf(Locale.ROOT, "    %s %s: min=%s, max=%s, avg=%5.02f, stdev=%5.02f%n", name, base,
                Num2Str.of(min, 6, 1, false, Num2Str.NONE), Num2Str.of(max, 6, 1, false, Num2Str.NONE), mean, dev);
    }

    /** fio's show_clat_percentiles, precision 2. */
    private static void printPercentiles(PrintWriter out, String pre, LatencyStat lat, double[] plist) {
        long[] values = lat.percentiles(plist);
        long minv = Long.MAX_VALUE;
        long maxv = 0;
        for (long v : values) {
            minv = Math.min(minv, v);
            maxv = Math.max(maxv, v);
        }
        int scaleDown;
        long divisor;
        String unit;
        if (minv > 2_000_000 && maxv > 99_999_999L) {
            scaleDown = 2;
            divisor = 1_000_000;
            unit = "msec";
        } else if (minv > 2000 && maxv > 99_999) {
            scaleDown = 1;
            divisor = 1000;
            unit = "usec";
        } else {
            scaleDown = 0;
            divisor = 1;
            unit = "nsec";
        }
        out.printf("    %s percentiles (%s):%n     |", pre, unit);
        long scaledMax = maxv / divisor;
        int timeWidth = Math.max(5, scaledMax <= 0 ? 0 : (int) (Math.log10(scaledMax) + 1));
        // fio's percentile_precision: as many decimals as the list's most precise value (2 for the default list).
        int precision = 0;
        for (double p : plist) {
            precision = Math.max(precision, Math.max(0, java.math.BigDecimal.valueOf(p).stripTrailingZeros().scale()));
        }
        int perLine = (80 - 7) / (precision + 10 + timeWidth);
        String fmt = " %" + (precision + 3) + "." + precision + "fth=[%" + timeWidth + "d]%c";
        for (int j = 0; j < plist.length; j++) {
            if (j != 0 && j % perLine == 0) {
                out.print("     |");
            }
            boolean last = j == plist.length - 1;
            long v = values[j];
            for (int i = 0; i < scaleDown; i++) {
                v = (v + 999) / 1000;
            }
            out.printf(Locale.ROOT, fmt, plist[j], v, last ? '\n' : ',');
            if (last) {
                break;
            }
            if (j % perLine == perLine - 1) {
                out.print("\n");
            }
        }
    }

    private static void printLatencyBuckets(PrintWriter out, LatencyBuckets b) {
        printBuckets(out, "nsec", b.nsec, LatencyBuckets.BOUNDS);
        printBuckets(out, "usec", b.usec, LatencyBuckets.BOUNDS);
        printBuckets(out, "msec", b.msec, LatencyBuckets.MSEC_BOUNDS);
    }

    /** fio's show_lat: the non-empty buckets, five per line. */
    private static void printBuckets(PrintWriter out, String unit, double[] pct, long[] bounds) {
        int onLine = 0;
        boolean shown = false;
        for (int i = 0; i < pct.length; i++) {
            if (pct[i] <= 0.0) {
                continue;
            }
            if (onLine == 0) {
                if (shown) {
                    out.print("\n");
                }
                out.printf("  lat (%s)   : ", unit);
            } else {
                out.print(", ");
            }
            shown = true;
            out.printf(Locale.ROOT, "%s=%3.2f%%", LatencyBuckets.label(bounds, i), pct[i]);
            onLine = (onLine + 1) % 5;
        }
        if (shown) {
            out.print("\n");
        }
    }

    /** fio's stat_calc_dist: percent of the total, at least 0.1 for a bucket that has any. */
    private static double[] dist(long[] map, long total) {
        double[] d = new double[map.length];
        for (int i = 0; i < map.length; i++) {
            if (total > 0) {
                d[i] = 100.0 * map[i] / total;
                if (d[i] < 0.1 && map[i] > 0) {
                    d[i] = 0.1;
                }
            }
        }
        return d;
    }

    private static long sum(long[] values) {
        long s = 0;
        for (long v : values) {
            s += v;
        }
        return s;
    }
}

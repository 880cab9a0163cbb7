package io.jring.tool.fio;

/**
 * What a job did in one direction (read or write): fio's per-ddir fields of
 * {@code struct thread_stat}. Written by the job's thread only; read after it ended.
 */
final class DirStats {
    long ios;
    long bytes;
    long shortIos;
    /** Time from preparing an I/O to the engine having submitted it; async engines only. */
    final LatencyStat slat = new LatencyStat();
    /** Time from submission to completion. */
    final LatencyStat clat = new LatencyStat();
    /** Time from preparing to completion. */
    final LatencyStat lat = new LatencyStat();
    /** Bandwidth samples, KiB/s, one per 500 ms (fio's bwavgtime). */
    final IoStat bw = new IoStat();
    /** IOPS samples, one per 500 ms (fio's iopsavgtime). */
    final IoStat iops = new IoStat();

    /** Adds {@code o}, a job that ran beside this one (fio's sum_thread_stats for one direction). */
    void add(DirStats o) {
        ios += o.ios;
        bytes += o.bytes;
        shortIos += o.shortIos;
        slat.add(o.slat);
        clat.add(o.clat);
        lat.add(o.lat);
        bw.addRates(o.bw);
        iops.addRates(o.iops);
    }
}

package io.jring.tool.report;

import java.util.ArrayList;
import java.util.List;

/**
 * What a report sweeps and how long each run lasts. Runs go mode by mode, block size by
 * block size, depth by depth; at each depth every engine runs once, in an order rotated
 * from one depth to the next, so no engine always runs first or right after the same one.
 * A sync engine runs once per mode and block size, at depth 1 (fio runs its sync engines at
 * depth 1 whatever --iodepth says); fio libaio runs only with O_DIRECT.
 *
 * @param engines        the engines, available ones only
 * @param directModes    false for buffered, true for O_DIRECT, in run order
 * @param blockSizes     block sizes as fio writes them ("4k")
 * @param depths         iodepths, ascending
 * @param rw             fio's --rw: read, randread, write or randwrite
 * @param size           fio's --size of the file ("256m")
 * @param runtimeSeconds measured seconds per run
 * @param rampSeconds    unmeasured seconds before each run's clock starts
 * @param jitWarmup      jring fio's --jit_warmup ("10s")
 */
public record SweepPlan(List<ReportEngine> engines, List<Boolean> directModes, List<String> blockSizes, int[] depths,
                        String rw, String size, int runtimeSeconds, int rampSeconds, String jitWarmup) {

    /** The full sweep's depths: 1 to 256 in powers of two. */
    public static final int[] FULL_DEPTHS = {1, 2, 4, 8, 16, 32, 64, 128, 256};

    /** {@code --quick}'s depths. */
    public static final int[] QUICK_DEPTHS = {1, 8, 32};

    /** Every run, in the order they run. */
    public List<SweepPoint> points() {
        List<SweepPoint> all = new ArrayList<>();
        for (boolean direct : directModes) {
            for (String bs : blockSizes) {
                for (int i = 0; i < depths.length; i++) {
                    List<SweepPoint> atDepth = new ArrayList<>();
                    for (ReportEngine e : engines) {
                        if (e.needsDirect() && !direct) {
                            continue;
                        }
                        if (e.isSync()) {
                            if (i == 0) {
                                atDepth.add(new SweepPoint(e, direct, bs, 1));
                            }
                        } else {
                            atDepth.add(new SweepPoint(e, direct, bs, depths[i]));
                        }
                    }
                    for (int k = 0; k < atDepth.size(); k++) {
                        all.add(atDepth.get((k + i) % atDepth.size()));
                    }
                }
            }
        }
        return all;
    }

    /** The fio options of one run, the same for real fio and for jring fio. */
    public List<String> fioOptions(SweepPoint p, String file) {
        return options(file, p.bs(), p.engine().ioengine, String.valueOf(p.depth()), p.direct() ? "1" : "0");
    }

    /** The options as the page shows them: BS, ENGINE, DEPTH and 0|1 where the runs differ. */
    public String optionsTemplate(String file) {
        return String.join(" ", options(file, "BS", "ENGINE", "DEPTH", "0|1"));
    }

    private List<String> options(String file, String bs, String engine, String depth, String direct) {
        return List.of("--name=report", "--filename=" + file, "--size=" + size, "--rw=" + rw, "--bs=" + bs,
                "--ioengine=" + engine, "--iodepth=" + depth, "--time_based", "--runtime=" + runtimeSeconds,
                "--ramp_time=" + rampSeconds, "--invalidate=0", "--direct=" + direct, "--lat_percentiles=1",
                "--output-format=json");
    }
}

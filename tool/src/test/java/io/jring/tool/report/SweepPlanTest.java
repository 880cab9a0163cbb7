package io.jring.tool.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Mirrors {@link SweepPlan}. */
class SweepPlanTest {

    private static SweepPlan quick() {
        return new SweepPlan(List.of(ReportEngine.values()), List.of(false, true), List.of("4k"), SweepPlan.QUICK_DEPTHS,
                "randread", "256m", 1, 0, "10s");
    }

    @Test
    void syncEnginesRunOncePerBlockAtDepthOneAndLibaioOnlyWithODirect() {
        List<SweepPoint> points = quick().points();
        // buffered: jring and fio io_uring at 3 depths + psync; O_DIRECT: libaio too.
        assertEquals(7 + 10, points.size());
        List<SweepPoint> psync = points.stream().filter(p -> p.engine() == ReportEngine.FIO_PSYNC).toList();
        assertEquals(2, psync.size());
        assertTrue(psync.stream().allMatch(p -> p.depth() == 1));
        assertTrue(points.stream().filter(p -> p.engine() == ReportEngine.FIO_LIBAIO).allMatch(SweepPoint::direct));
        assertEquals(3, points.stream().filter(p -> p.engine() == ReportEngine.FIO_LIBAIO).count());
    }

    @Test
    void theOrderOfEnginesRotatesFromOneDepthToTheNext() {
        List<SweepPoint> buffered = quick().points().stream().filter(p -> !p.direct()).toList();
        assertEquals(List.of(ReportEngine.JRING, ReportEngine.FIO_IO_URING, ReportEngine.FIO_PSYNC,
                        ReportEngine.FIO_IO_URING, ReportEngine.JRING, ReportEngine.JRING, ReportEngine.FIO_IO_URING),
                buffered.stream().map(SweepPoint::engine).toList());
        assertEquals(List.of(1, 1, 1, 8, 8, 32, 32), buffered.stream().map(SweepPoint::depth).toList());
    }

    @Test
    void fioAndJringRunsGetTheSameFioOptionsButTheEngine() {
        SweepPlan plan = quick();
        List<String> fio = plan.fioOptions(new SweepPoint(ReportEngine.FIO_IO_URING, true, "64k", 32), "/f");
        List<String> jring = plan.fioOptions(new SweepPoint(ReportEngine.JRING, true, "64k", 32), "/f");
        assertEquals(fio.stream().map(o -> o.equals("--ioengine=io_uring") ? "--ioengine=jring" : o).toList(), jring);
        assertTrue(fio.containsAll(List.of("--filename=/f", "--bs=64k", "--iodepth=32", "--direct=1", "--invalidate=0",
                "--lat_percentiles=1", "--output-format=json", "--time_based", "--runtime=1")));
    }
}

package io.jring.kernel;

import static io.jring.kernel.CqeSpec.cqe;
import static io.jring.kernel.Scenarios.ECANCELED;
import static io.jring.kernel.Scenarios.ENOENT;
import static io.jring.kernel.Scenarios.ETIME;
import static io.jring.kernel.Scenarios.MORE;
import static io.jring.kernel.Scenarios.MS;
import static io.jring.kernel.Scenarios.NEVER;
import static io.jring.kernel.SqeSpec.cancel;
import static io.jring.kernel.SqeSpec.linkTimeout;
import static io.jring.kernel.SqeSpec.nop;
import static io.jring.kernel.SqeSpec.read;
import static io.jring.kernel.SqeSpec.timeout;
import static io.jring.kernel.SqeSpec.timeoutRemove;
import static io.jring.kernel.SqeSpec.timeoutUpdate;

import io.jring.Timeout;
import java.util.List;

/**
 * Which CQEs count toward a TIMEOUT's count (issue 16, A1). Linux counts the CQ tail minus
 * {@code cq_timeouts}, the number of TIMEOUTs that expired or completed by their count: so
 * neither kind of TIMEOUT CQE counts, while a removed or cancelled TIMEOUT's -ECANCELED,
 * TIMEOUT_REMOVE's own CQE and every LINK_TIMEOUT CQE do. The count is u32 arithmetic
 * against the value at the last check: when a TIMEOUT's CQE is skipped (CQE_SKIP_SUCCESS)
 * the count goes back by one and every counting TIMEOUT completes. Expectations taken from
 * Linux 6.18 (tool/anchors/timeout_count.c prints the same cases).
 */
final class TimeoutCountScenarios {
    private TimeoutCountScenarios() {}

    static void add(List<Scenario> all) {
        all.add(Scenario.named("timeout count: a TIMEOUT completed by its count does not count for another",
                        "timeout.c test_multi_timeout_nr")
                .submit(timeout(100 * MS, 2, 0).ud(1), timeout(100 * MS, 1, 0).ud(2), nop().ud(3))
                .expect(cqe(3, 0), cqe(2, 0), cqe(1, ETIME))
                .build());
        all.add(Scenario.named("timeout count: TIMEOUTs reached together complete in the order of their targets",
                        "timeout.c")
                .submit(timeout(NEVER, 2, 0).ud(1), timeout(NEVER, 1, 0).ud(2))
                .submit(nop().ud(3), nop().ud(4), nop().ud(5))
                .expect(cqe(3, 0), cqe(4, 0), cqe(5, 0), cqe(2, 0), cqe(1, 0))
                .build());
        all.add(Scenario.named("timeout count: TIMEOUTs with the same target complete in submission order",
                        "timeout.c")
                .submit(timeout(NEVER, 1, 0).ud(1), timeout(NEVER, 1, 0).ud(2))
                .submit(nop().ud(3))
                .expect(cqe(3, 0), cqe(1, 0), cqe(2, 0))
                .build());
        all.add(Scenario.named("timeout count: a removed TIMEOUT's -ECANCELED and the TIMEOUT_REMOVE's CQE count",
                        "timeout.c")
                .submit(timeout(NEVER, 2, 0).ud(1), timeout(NEVER, 0, 0).ud(2))
                .submit(timeoutRemove(2).ud(3))
                .expect(cqe(3, 0), cqe(2, ECANCELED), cqe(1, 0))
                .build());
        all.add(Scenario.named("timeout count: a TIMEOUT_REMOVE that finds nothing counts", "timeout.c")
                .submit(timeout(NEVER, 1, 0).ud(1))
                .submit(timeoutRemove(77).ud(2))
                .expect(cqe(2, ENOENT), cqe(1, 0))
                .build());
        all.add(Scenario.named("timeout count: a TIMEOUT cancelled by ASYNC_CANCEL counts, and so does the cancel",
                        "timeout.c")
                .submit(timeout(NEVER, 2, 0).ud(1), timeout(NEVER, 0, 0).ud(2))
                .submit(cancel(2, 0).ud(3))
                .expect(cqe(3, 0), cqe(2, ECANCELED), cqe(1, 0))
                .build());
        all.add(Scenario.named("timeout count: an updated TIMEOUT's expiry does not count, the update does",
                        "timeout.c")
                .submit(timeout(NEVER, 1, 0).ud(1), timeout(NEVER, 2, 0).ud(2))
                .submit(timeoutUpdate(1, 20 * MS, 0).ud(3))
                .reap(2)
                .quiet()
                .submit(nop().ud(4))
                .expect(cqe(3, 0), cqe(1, ETIME), cqe(4, 0), cqe(2, 0))
                .build());
        all.add(Scenario.named("timeout count: a disarmed LINK_TIMEOUT's -ECANCELED counts", "link-timeout.c")
                .submit(timeout(NEVER, 2, 0).ud(1))
                .submit(nop().ud(2).link(), linkTimeout(NEVER, 0).ud(3))
                .expect(cqe(2, 0), cqe(3, ECANCELED), cqe(1, 0))
                .build());
        all.add(Scenario.named("timeout count: an expired LINK_TIMEOUT's -ETIME counts, unlike a TIMEOUT's",
                        "link-timeout.c")
                .submit(timeout(NEVER, 2, 0).ud(1))
                .submit(read("p0.r", 8, -1).ud(2).link(), linkTimeout(20 * MS, 0).ud(3))
                .expectAnyOrder(cqe(2, ECANCELED), cqe(3, ETIME))
                .expect(cqe(1, 0))
                .build());
        all.add(Scenario.named("timeout count: a MULTISHOT TIMEOUT's expiries do not count", "timeout.c")
                .submit(timeout(NEVER, 1, 0).ud(1), timeout(15 * MS, 2, Timeout.MULTISHOT).ud(2))
                .reap(2)
                .quiet()
                .submit(nop().ud(3))
                .expect(cqe(2, ETIME, MORE), cqe(2, ETIME), cqe(3, 0), cqe(1, 0))
                .build());
        all.add(Scenario.named("timeout count: a chain member after a count-completed TIMEOUT counts", "timeout.c")
                .submit(timeout(NEVER, 2, 0).ud(1), timeout(NEVER, 1, 0).ud(2).link(), nop().ud(3))
                .quiet()
                .submit(nop().ud(4))
                .expect(cqe(4, 0), cqe(2, 0), cqe(3, 0), cqe(1, 0))
                .build());
        all.add(Scenario.named("timeout count: a count completion with CQE_SKIP_SUCCESS sets the count back, "
                        + "which completes every counting TIMEOUT", "timeout.c")
                .submit(timeout(NEVER, 3, 0).ud(1), timeout(NEVER, 1, 0).ud(2).skip())
                .submit(nop().ud(3))
                .expect(cqe(3, 0), cqe(1, 0))
                .build());
        all.add(Scenario.named("timeout count: a skipped ETIME_SUCCESS expiry sets the count back, "
                        + "which completes every counting TIMEOUT", "timeout.c")
                .submit(timeout(NEVER, 2, 0).ud(1), timeout(10 * MS, 0, Timeout.ETIME_SUCCESS).ud(2).skip())
                .expect(cqe(1, 0))
                .build());
    }
}

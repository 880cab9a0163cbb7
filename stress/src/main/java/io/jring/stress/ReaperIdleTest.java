package io.jring.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.jring.core.ReaperIdle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The DIO reaper going to sleep when nothing is with the device, against a submit that
 * puts I/O in flight ({@link ReaperIdle}, the code DioReaper and DirectIo run): the reaper
 * publishes that it is idle and takes a last look at the in-flight count; the submitter, after handing a
 * batch to the device, counts it in flight and looks whether the reaper is idle. A lost
 * wakeup is the reaper parking with I/O in flight while the submitter does not unpark it.
 * Result: submitter (1 = unparks the reaper, 0 = does not), reaper (1 = saw nothing in
 * flight and parks, 0 = saw the I/O).
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "reaper parks and is unparked")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "reaper sees the I/O and stays up")
@Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "reaper sees the I/O and is unparked too")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "lost wakeup: the reaper sleeps with I/O in flight")
@State
public class ReaperIdleTest {
    private final ReaperIdle idle = new ReaperIdle();

    @Actor
    public void submitter(II_Result r) {
        idle.add(1);
        r.r1 = idle.wakeAfterSubmit() ? 1 : 0;
    }

    @Actor
    public void reaper(II_Result r) {
        r.r2 = idle.idleNow() ? 1 : 0;
    }
}

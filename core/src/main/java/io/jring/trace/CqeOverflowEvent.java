package io.jring.trace;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Throttle;

/**
 * A CQE went to the overflow list because the CQ was full (io_uring_cqe_overflow). On by
 * default (an overflow means the application reaps too slowly), throttled to 100 events a
 * second: a stalled reaper overflows every CQE.
 */
@Name("jring.CqeOverflow")
@Label("CqeOverflow")
@Category({"jring"})
@Description("A CQE went to the overflow list because the CQ was full (io_uring_cqe_overflow).")
@StackTrace(false)
@Throttle("100/s")
public final class CqeOverflowEvent extends Event {
    @Label("Ring") public int ring;
    @Label("User Data") public long userData;
    @Label("Result") public int res;
    @Label("Overflow Length") public int overflowLength;
}

package io.jring.trace;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A CQE went to the overflow list because the CQ was full (io_uring_cqe_overflow). */
@Name("jring.CqeOverflow")
@Label("CqeOverflow")
@Category({"jring"})
@Description("A CQE went to the overflow list because the CQ was full (io_uring_cqe_overflow).")
@StackTrace(false)
public final class CqeOverflowEvent extends Event {
    @Label("Ring") public int ring;
    @Label("User Data") public long userData;
    @Label("Result") public int res;
    @Label("Overflow Length") public int overflowLength;
}

package io.jring.trace;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A request failed (io_uring_req_failed). */
@Name("jring.ReqFailed")
@Label("ReqFailed")
@Category({"jring"})
@Description("A request failed (io_uring_req_failed).")
@StackTrace(false)
public final class ReqFailedEvent extends Event {
    @Label("Ring") public int ring;
    @Label("Opcode") public String opcode;
    @Label("User Data") public long userData;
    @Label("Errno") public String errno;
    @Label("Reason") public String reason;
}

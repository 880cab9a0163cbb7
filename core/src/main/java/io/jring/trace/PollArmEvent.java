package io.jring.trace;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A request armed a poll because its file would block (io_uring_poll_arm). */
@Name("jring.PollArm")
@Label("PollArm")
@Category({"jring"})
@Description("A request armed a poll because its file would block (io_uring_poll_arm).")
@StackTrace(false)
@Enabled(false)
public final class PollArmEvent extends Event {
    @Label("Ring") public int ring;
    @Label("Opcode") public String opcode;
    @Label("User Data") public long userData;
    @Label("Mask") public int mask;
}

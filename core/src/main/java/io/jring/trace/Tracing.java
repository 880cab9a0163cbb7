package io.jring.trace;

import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Recording;
import jdk.jfr.Category;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * Whether the per-request (hot path) events are on, as plain static flags. Creating a
 * disabled JFR event and asking {@code shouldCommit()} still costs a few nanoseconds, about a
 * quarter of a NOP's whole trip through the ring; a kernel tracepoint is a patched-out jump
 * when off. So the hot paths test these flags first and build an event only when one is on.
 * Every event is behind a flag, even the rare ones: the first instance of a JFR event class
 * initialises JFR's metadata (~100 ms in a fresh JVM), which a program that records nothing
 * must never pay (the first failed request or overflow would stall its thread that long).
 *
 * <p>The flags are recomputed whenever a recording starts, stops or changes state
 * ({@link FlightRecorderListener}), and once a second while any recording runs (the periodic
 * {@link Refresh} hook), so enabling an event in a running recording takes effect within a
 * second. Written by the JFR thread that reports the change
 * (volatile stores), read by hot paths with a volatile read (a plain load on x86 and one
 * {@code ldar} on aarch64) so a newly started recording is seen at once.
 */
public final class Tracing {
    public static volatile boolean submitSqe;
    public static volatile boolean complete;
    public static volatile boolean taskAdd;
    public static volatile boolean taskWorkRun;
    public static volatile boolean pollArm;
    /** ReqFailed: on in recordings by default; without one taking it, failures build neither the event nor its reason. */
    public static volatile boolean reqFailed;
    /** CqeOverflow: on in recordings by default; without one, an overflow never touches JFR. */
    public static volatile boolean cqeOverflow;

    static {
        try {
            FlightRecorder.addListener(new FlightRecorderListener() {
                @Override
                public void recorderInitialized(FlightRecorder recorder) {
                    update();
                }

                @Override
                public void recordingStateChanged(Recording recording) {
                    registerRefresh();
                    update();
                }
            });
        } catch (RuntimeException | Error e) {
            // No JFR in this runtime (or not permitted): the flags stay false.
        }
        update();
    }

    private Tracing() {}

    /**
     * Initialises this class now if it is not yet (registers the recording listener and reads
     * the flags); later calls do nothing. Called when a ring opens, so the first submit does not pay it.
     */
    public static void initialize() {
        // The static initialiser above has run by the time this body executes.
    }

    /** The periodic hook's event: it carries nothing, its hook re-reads the settings. */
    @Name("jring.TracingRefresh")
    @Label("Tracing Refresh")
    @Category({"jring"})
    @Period("1 s")
    @StackTrace(false)
    static final class Refresh extends Event {
    }

    /** Guarded by the class: whether the periodic hook is registered (done on the first recording, not at startup: it costs ~150 ms). */
    private static boolean refreshRegistered;

    private static synchronized void registerRefresh() {
        if (!refreshRegistered) {
            refreshRegistered = true;
            try {
                FlightRecorder.addPeriodicEvent(Refresh.class, Tracing::update);
            } catch (RuntimeException | Error e) {
                // Without the hook, flags still follow recordings' start and stop.
            }
        }
    }

    static void update() {
        submitSqe = isOn(SubmitSqeEvent.class);
        complete = isOn(CompleteEvent.class);
        taskAdd = isOn(TaskAddEvent.class);
        taskWorkRun = isOn(TaskWorkRunEvent.class);
        pollArm = isOn(PollArmEvent.class);
        reqFailed = isOn(ReqFailedEvent.class);
        cqeOverflow = isOn(CqeOverflowEvent.class);
    }

    private static boolean isOn(Class<? extends Event> type) {
        try {
            return FlightRecorder.isInitialized() && EventType.getEventType(type).isEnabled();
        } catch (RuntimeException | Error e) {
            return false;
        }
    }
}

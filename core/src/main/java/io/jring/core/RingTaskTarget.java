package io.jring.core;

import io.jring.IoUring;
import io.jring.tw.TaskWorkTarget;

/**
 * A ring's task-work target, for code outside the engine that queues task work of its own
 * for a ring: the engine then runs it in the same runs as the ring's completion work (one
 * ring lock, one CQ publish per run), as it would its own. {@code jring bench heavytw}'s
 * heavy items (seed 000) need exactly that, and the public API has no way to queue task
 * work, so this is the one engine internal the tool reaches, besides the task-work lists
 * of {@code io.jring.tw} that its benches measure. Not public API: on the module path it
 * takes a qualified export to the tool.
 */
public final class RingTaskTarget {
    private RingTaskTarget() {}

    /** The target the engine's own task work for {@code ring} carries. */
    public static TaskWorkTarget of(IoUring ring) {
        return ApiAccess.get().contextOf(ring);
    }
}

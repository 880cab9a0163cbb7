package io.jring.stress;

import io.jring.tw.TaskWork;
import io.jring.tw.TaskWorkTarget;

/** A task-work item for the jcstress tests: an id, and how often a sink has taken it. */
final class TaskWorkNode extends TaskWork {
    final int id;

    /** Written by whichever thread runs the list (actor, then arbiter: ordered by jcstress). */
    int runs;

    TaskWorkNode(int id, boolean completion) {
        this.id = id;
        setCompletionWork(completion);
    }

    @Override
    public TaskWorkTarget target() {
        return null;
    }

    @Override
    public void runTaskWork(boolean cancel) {
    }
}

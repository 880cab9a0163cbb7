package io.jring.tw;

/**
 * What a batch of task work posts into: a ring. The runner calls {@link #beginTaskRun}
 * before the first of a run of consecutive items for the same target and
 * {@link #endTaskRun} after the last (ring switch or end of the list), so a ring's lock is
 * taken once and its completions are published once per run (DESIGN.md section 3).
 */
public interface TaskWorkTarget {
    void beginTaskRun();

    /**
     * After the last item of a run.
     *
     * @param items how many items the run had (at least 1), for the target's counters
     */
    void endTaskRun(int items);
}

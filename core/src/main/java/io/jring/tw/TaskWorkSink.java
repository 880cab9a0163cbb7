package io.jring.tw;

/** Receives the items a {@link TaskWorkList} takes, one by one, in the order it runs them. */
@FunctionalInterface
public interface TaskWorkSink {
    void accept(TaskWork work);
}

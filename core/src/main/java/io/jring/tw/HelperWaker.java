package io.jring.tw;

/**
 * A task-work target (a ring) that can wake a thread waiting on it so that thread helps
 * run an away owner's task work (see {@link TaskContext}).
 */
public interface HelperWaker {
    void wakeHelpers();
}

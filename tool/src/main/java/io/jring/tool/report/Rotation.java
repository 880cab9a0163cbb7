package io.jring.tool.report;

import java.util.List;

/**
 * BENCHMARKS.md's alternating rounds: every configuration runs once per round, and each
 * round starts one configuration later than the one before, so none always runs first or
 * always after the same neighbour (a machine that slows down for a while then hits every
 * configuration alike). The figures of a configuration's rounds go to {@link Rounds}.
 */
public final class Rotation {
    private Rotation() {}

    /** One trial: round {@code round} (0-based) of the configuration at {@code index} in the list. */
    @FunctionalInterface
    public interface Trial<T, X extends Exception> {
        void run(int round, int index, T config) throws X;
    }

    /** Runs {@code rounds} rounds over {@code configs}, round r starting at configuration r mod n. */
    public static <T, X extends Exception> void run(int rounds, List<T> configs, Trial<T, X> trial) throws X {
        int n = configs.size();
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < n; i++) {
                int index = (i + r) % n;
                trial.run(r, index, configs.get(index));
            }
        }
    }
}

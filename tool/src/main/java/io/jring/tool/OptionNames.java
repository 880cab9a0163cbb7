package io.jring.tool;

import java.util.Collection;

/**
 * The known option closest to a mistyped one, by edit distance (fio's
 * {@code show_closest_option}), for one-line "unknown option" errors.
 */
public final class OptionNames {
    private OptionNames() {}

    /** The name in {@code known} nearest to {@code typed} (both compared without leading dashes), or null if none. */
    public static String nearest(String typed, Collection<String> known) {
        String t = strip(typed);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = distance(t, strip(k));
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
        return best;
    }

    private static String strip(String name) {
        int i = 0;
        while (i < name.length() && name.charAt(i) == '-') {
            i++;
        }
        int eq = name.indexOf('=', i);
        return name.substring(i, eq < 0 ? name.length() : eq);
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}

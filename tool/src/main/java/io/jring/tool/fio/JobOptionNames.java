package io.jring.tool.fio;

import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The job options the command line and job files may give (those of {@link FioOptions}):
 * whether a name is one, whether it takes a value, and the nearest one to a mistyped name.
 * Names are without dashes, as in job files.
 */
final class JobOptionNames {
    private JobOptionNames() {}

    private static final Map<String, OptionSpec> BY_NAME = new LinkedHashMap<>();

    static {
        for (OptionSpec o : FioOptions.spec().options()) {
            for (String n : o.names()) {
                BY_NAME.put(n.replaceFirst("^-+", ""), o);
            }
        }
    }

    static boolean isKnown(String name) {
        return BY_NAME.containsKey(name);
    }

    /** Whether the option needs a value ({@code bs=4k}); the others may stand alone ({@code time_based}). */
    static boolean takesValue(String name) {
        OptionSpec o = BY_NAME.get(name);
        return o != null && o.arity().min > 0;
    }

    /** The option's first name, for "job options" (bs for blocksize). */
    static String canonical(String name) {
        OptionSpec o = BY_NAME.get(name);
        return o == null ? name : o.names()[0].replaceFirst("^-+", "");
    }

    static Collection<String> all() {
        return BY_NAME.keySet();
    }

    /** The one-line message for an option jring fio does not know, naming the nearest one among {@code alsoKnown} too. */
    static String unknown(String shown, String name, Collection<String> alsoKnown) {
        List<String> known = new ArrayList<>(all());
        known.addAll(alsoKnown);
        String nearest = io.jring.tool.OptionNames.nearest(name, known);
        boolean dashes = shown.startsWith("-");
        return "unknown option '" + shown + "'" + (nearest == null ? "" : " (nearest: " + (dashes ? "--" : "") + nearest + ")");
    }
}

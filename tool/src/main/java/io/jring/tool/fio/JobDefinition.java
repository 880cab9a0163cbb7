package io.jring.tool.fio;

import java.util.List;
import java.util.Map;

/**
 * One job as the command line or a job file defines it, before its options are read: fio's
 * job name (the section, or {@code --name}'s value), its options in the order they apply
 * ({@code --key=value} strings: the command line's defaults, then [global], then its own;
 * the last of a repeated option wins), its own options for the JSON output's
 * "job options", and where it was defined, for error messages.
 */
record JobDefinition(String name, List<String> args, Map<String, String> ownOptions, String origin) {

    /** Reads the options and resolves them into a spec; a bad option is an error naming where the job was defined. */
    JobSpec resolve(boolean temporary, java.util.function.Consumer<String> warnings) {
        try {
            return JobResolver.resolve(FioOptions.parse(args), name, ownOptions, temporary, warnings);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(origin + ": " + e.getMessage(), e);
        }
    }
}

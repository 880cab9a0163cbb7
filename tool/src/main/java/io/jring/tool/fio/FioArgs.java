package io.jring.tool.fio;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * fio's command line after jring's own options ({@code --output-format}, {@code --section},
 * ...) are taken out, in order, read as fio's {@code parse_cmd_line} reads it: job options
 * before the first {@code --name} are global (the defaults of every job, the first job
 * file's included); each {@code --name=X} starts job X, whose options follow it; a word that
 * is not an option is a job file. Options are {@code --key=value}, {@code --key value} for
 * those that take one, or {@code --key} alone for the others; one dash also works, as in fio.
 * An unknown option is a one-line error naming the nearest known one.
 *
 * @param globalArgs    the global options, as {@code --key=value} strings in order
 * @param globalOptions the same as given, for the JSON output's "global options"
 * @param jobs          the jobs defined by {@code --name}
 * @param jobFiles      the job files, in order
 */
record FioArgs(List<String> globalArgs, Map<String, String> globalOptions, List<JobDefinition> jobs, List<String> jobFiles) {

    /** Reads {@code words}; {@code commandOptions} are jring fio's own option names, for the nearest-name hint. */
    static FioArgs read(List<String> words, Collection<String> commandOptions) {
        List<String> global = new ArrayList<>();
        Map<String, String> globalGiven = new LinkedHashMap<>();
        List<JobDefinition> jobs = new ArrayList<>();
        List<String> files = new ArrayList<>();
        String job = null;
        List<String> jobArgs = null;
        Map<String, String> jobGiven = null;
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (!w.startsWith("-") || w.equals("-")) {
                files.add(w);
                continue;
            }
            int eq = w.indexOf('=');
            String key = (eq < 0 ? w : w.substring(0, eq)).replaceFirst("^--?", "");
            if (!JobOptionNames.isKnown(key)) {
                throw new IllegalArgumentException(JobOptionNames.unknown(eq < 0 ? w : w.substring(0, eq), key, commandOptions));
            }
            String value = eq < 0 ? null : w.substring(eq + 1);
            if (value == null && JobOptionNames.takesValue(key)) {
                if (i + 1 >= words.size()) {
                    throw new IllegalArgumentException("option --" + key + " needs a value (--" + key + "=...)");
                }
                value = words.get(++i);
            }
            if (JobOptionNames.canonical(key).equals("name")) {
                if (job != null) {
                    jobs.add(new JobDefinition(job, concat(global, jobArgs), jobGiven, "job '" + job + "' (command line)"));
                }
                if (value.equals("global")) {
                    job = null;   // fio: --name=global goes back to the global options
                    continue;
                }
                job = value;
                jobArgs = new ArrayList<>();
                jobGiven = new LinkedHashMap<>();
                jobGiven.put("name", value);
                continue;
            }
            String arg = value == null ? "--" + key : "--" + key + "=" + value;
            (job == null ? global : jobArgs).add(arg);
            (job == null ? globalGiven : jobGiven).put(JobOptionNames.canonical(key), value == null ? "" : value);
        }
        if (job != null) {
            jobs.add(new JobDefinition(job, concat(global, jobArgs), jobGiven, "job '" + job + "' (command line)"));
        }
        return new FioArgs(global, globalGiven, jobs, files);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Whether only jring's own tuning options were given: no fio job option, no job, no job file (the demo job then runs). */
    boolean isEmpty() {
        if (!jobs.isEmpty() || !jobFiles.isEmpty()) {
            return false;
        }
        for (String a : globalArgs) {
            String key = a.substring(0, a.indexOf('=') < 0 ? a.length() : a.indexOf('='));
            if (!FioOptions.JRING_ONLY.contains(key)) {
                return false;
            }
        }
        return true;
    }
}

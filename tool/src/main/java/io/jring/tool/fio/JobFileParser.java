package io.jring.tool.fio;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * fio's job files ({@code parse_jobs_ini} in fio's init.c): {@code [section]} headers, each a
 * job named after it except {@code [global]}, whose options apply to the jobs after it;
 * {@code key=value} or {@code key} lines; comments from {@code ;} or {@code #}, whole lines or
 * trailing; {@code include file} (relative to the job file); {@code ${VAR}} in a value is the
 * environment variable. A file's jobs start from {@code defaults} (the command line's options,
 * for the first file only, as in fio); the first job of every later file gets a stonewall.
 * {@code sections} (fio's {@code --section}), when not empty, keeps only the jobs named.
 * Every error is one line naming the file and line.
 */
final class JobFileParser {

    /** What a job file defines: its jobs, and its [global] options (for the JSON output). */
    record Parsed(List<JobDefinition> jobs, Map<String, String> globalOptions) {}

    private final UnaryOperator<String> env;

    JobFileParser(UnaryOperator<String> env) {
        this.env = env;
    }

    JobFileParser() {
        this(System::getenv);
    }

    Parsed parse(Path file, List<String> defaults, Set<String> sections, boolean stonewallFirst) throws IOException {
        List<String> lines = readLines(file);
        List<JobDefinition> jobs = new ArrayList<>();
        Map<String, String> globals = new LinkedHashMap<>();
        List<String> globalArgs = new ArrayList<>(defaults);
        String section = null;
        int sectionLine = 0;
        boolean skipping = false;
        List<String> args = null;
        Map<String, String> own = null;
        boolean stonewall = stonewallFirst;
        for (int i = 0; i <= lines.size(); i++) {
            String line = i < lines.size() ? strip(lines.get(i)) : null;
            boolean header = line != null && line.startsWith("[");
            if (line == null || header) {
                if (section != null && !skipping && !isGlobal(section)) {
                    List<String> all = new ArrayList<>(globalArgs);
                    if (stonewall) {
                        all.add("--stonewall");   // fio separates job files by a stonewall
                        stonewall = false;
                    }
                    all.addAll(args);
                    jobs.add(new JobDefinition(section, all, own, file + ":" + sectionLine + " [" + section + "]"));
                }
                if (line == null) {
                    break;
                }
                int close = line.indexOf(']');
                if (close < 2) {
                    throw new IllegalArgumentException(file + ":" + (i + 1) + ": '" + line + "' is not a [section] header");
                }
                section = line.substring(1, close).trim();
                sectionLine = i + 1;
                skipping = !isGlobal(section) && !sections.isEmpty() && !sections.contains(section);
                args = new ArrayList<>();
                own = new LinkedHashMap<>();
                continue;
            }
            if (line.isEmpty()) {
                continue;
            }
            if (section == null) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": option '" + line + "' outside of a [] job section");
            }
            if (skipping) {
                continue;
            }
            if (line.startsWith("include ") || line.startsWith("include\t")) {
                Path included = file.resolveSibling(line.substring("include".length()).trim());
                List<String> more = readLines(included);
                for (int k = 0; k < more.size(); k++) {
                    String m = strip(more.get(k));
                    if (m.startsWith("[")) {
                        throw new IllegalArgumentException(included + ":" + (k + 1) + ": no new sections in included files");
                    }
                    if (!m.isEmpty()) {
                        option(m, included + ":" + (k + 1), isGlobal(section) ? globalArgs : args, isGlobal(section) ? globals : own);
                    }
                }
                continue;
            }
            option(line, file + ":" + (i + 1), isGlobal(section) ? globalArgs : args, isGlobal(section) ? globals : own);
        }
        return new Parsed(jobs, globals);
    }

    /** One {@code key=value} or {@code key} line: checked, expanded and added as {@code --key=value}. */
    private void option(String line, String where, List<String> into, Map<String, String> given) {
        int eq = line.indexOf('=');
        String key = (eq < 0 ? line : line.substring(0, eq)).trim();
        String value = eq < 0 ? null : expand(line.substring(eq + 1).trim(), where);
        if (!JobOptionNames.isKnown(key)) {
            throw new IllegalArgumentException(where + ": " + JobOptionNames.unknown(key, key, List.of()));
        }
        if (value == null && JobOptionNames.takesValue(key)) {
            throw new IllegalArgumentException(where + ": option '" + key + "' needs a value (" + key + "=...)");
        }
        into.add(value == null ? "--" + key : "--" + key + "=" + value);
        given.put(JobOptionNames.canonical(key), value == null ? "" : value);
    }

    /** fio's environment variable expansion: {@code ${NAME}} is its value, or nothing. */
    private String expand(String value, String where) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        for (int open; (open = value.indexOf("${", at)) >= 0; ) {
            int close = value.indexOf('}', open);
            if (close < 0) {
                throw new IllegalArgumentException(where + ": '${' without a closing '}' in '" + value + "'");
            }
            out.append(value, at, open);
            String v = env.apply(value.substring(open + 2, close));
            out.append(v == null ? "" : v);
            at = close + 1;
        }
        return out.append(value.substring(at)).toString();
    }

    private static boolean isGlobal(String section) {
        return section.startsWith("global");   // fio: strncmp(name, "global", 6)
    }

    /** fio's strip_blank_front/end: blanks around, and a comment from the first ';' or '#'. */
    static String strip(String line) {
        int cut = line.length();
        int semi = line.indexOf(';');
        int hash = line.indexOf('#');
        if (semi >= 0) {
            cut = semi;
        }
        if (hash >= 0 && hash < cut) {
            cut = hash;
        }
        return line.substring(0, cut).strip();
    }

    private static List<String> readLines(Path file) throws IOException {
        if (file.toString().equals("-")) {
            return new String(System.in.readAllBytes()).lines().toList();
        }
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new IOException("cannot read job file " + file + ": " + ErrnoText.describe(e), e);
        }
    }
}

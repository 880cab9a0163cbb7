package io.jring.tool.report;

import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The real fio a report compares with: where it is, its version, and the ioengines it was
 * built with ({@code fio --enghelp}), so an engine this fio lacks is skipped with a note
 * instead of failing at every depth.
 */
record FioBinary(String path, String version, Set<String> engines) {

    /** fio as {@code name} finds it (a path, or on PATH), or null when there is none or it does not run. */
    static FioBinary find(String name, ChildProcess children) throws InterruptedException {
        String path = ChildProcess.onPath(name);
        if (path == null) {
            return null;
        }
        try {
            ChildProcess.Output version = children.run(java.util.List.of(path, "--version"), 30);
            ChildProcess.Output help = children.run(java.util.List.of(path, "--enghelp"), 30);
            if (version.exit() != 0 || help.exit() != 0) {
                return null;
            }
            Set<String> engines = new LinkedHashSet<>();
            for (String line : help.stdout().split("\n")) {
                // "Available IO engines:" and then one indented name a line
                if (line.startsWith("\t") || line.startsWith(" ")) {
                    engines.add(line.strip());
                }
            }
            return new FioBinary(path, version.stdout().strip(), engines);
        } catch (IOException e) {
            return null;
        }
    }
}

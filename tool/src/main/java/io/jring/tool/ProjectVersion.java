package io.jring.tool;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.Properties;

/**
 * The project version, filtered into {@code version.properties} at build time: {@code jring
 * --version} and fio's "fio version" field print it. A leaf: it needs nothing of the tool,
 * so every command can use it without importing the command that lists it.
 */
public final class ProjectVersion {
    private ProjectVersion() {}

    /** The version, or empty when the build did not fill it in (informative only, never an error). */
    public static Optional<String> get() {
        try (InputStream in = ProjectVersion.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version", "");
                if (!v.isEmpty() && !v.startsWith("${")) {
                    return Optional.of(v);
                }
            }
        } catch (IOException ignored) {
            // no version then
        }
        return Optional.empty();
    }
}

package io.jring.tool.report;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine a report ran on, as its page says: CPU model, CPUs, kernel, the file's file system. */
final class Host {
    private Host() {}

    /** "Intel(R) Xeon(R) Processor, 2 CPUs" (lscpu's model name, from /proc/cpuinfo). */
    static String cpu() {
        String model = System.getProperty("os.arch");
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    model = line.substring(line.indexOf(':') + 1).strip();
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            // keep the architecture: informative only
        }
        int n = Runtime.getRuntime().availableProcessors();
        return model + ", " + n + " CPU" + (n == 1 ? "" : "s");
    }

    /** "0.83 0.95 1.02 (1, 5, 15 min)": how busy the machine was when the sweep started; the empty string where unknown. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).strip().split(" ");
            return f[0] + " " + f[1] + " " + f[2] + " (1, 5, 15 min)";
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** "Linux 6.18.0 x86_64". */
    static String kernel() {
        return System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch");
    }

    /** "Java 25+36 (Eclipse Adoptium)". */
    static String java() {
        return "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")";
    }

    /** "/var/tmp/f on ext4 (/dev/vda)", or the path alone when the store cannot be read. */
    static String file(Path file) {
        try {
            FileStore store = Files.getFileStore(file);
            return file + " on " + store.type() + " (" + store.name() + ")";
        } catch (IOException e) {
            return file.toString();
        }
    }
}

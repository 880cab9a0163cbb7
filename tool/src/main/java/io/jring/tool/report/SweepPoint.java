package io.jring.tool.report;

/**
 * One run of a report's sweep: an engine at one depth, block size and cache mode.
 *
 * @param engine the engine
 * @param direct true for O_DIRECT, false for buffered (page cache) I/O
 * @param bs     the block size as fio writes it, e.g. "4k"
 * @param depth  the iodepth (1 for a sync engine)
 */
public record SweepPoint(ReportEngine engine, boolean direct, String bs, int depth) {

    /** "buffered" or "O_DIRECT": the mode as the page and the JSON name it. */
    public String mode() {
        return modeName(direct);
    }

    public static String modeName(boolean direct) {
        return direct ? "O_DIRECT" : "buffered";
    }

    /** The inverse of {@link #modeName}; also takes "direct" (as {@code --modes} does). */
    public static boolean isDirect(String mode) {
        return switch (mode.toLowerCase(java.util.Locale.ROOT)) {
            case "o_direct", "direct" -> true;
            case "buffered" -> false;
            default -> throw new IllegalArgumentException("no mode '" + mode + "': use buffered or direct");
        };
    }

    /** "O_DIRECT 4k QD8 fio io_uring", for progress lines and notes. */
    public String describe() {
        return mode() + " " + bs + " QD" + depth + " " + engine.label();
    }
}

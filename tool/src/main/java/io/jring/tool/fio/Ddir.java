package io.jring.tool.fio;

/** fio's data directions ({@code enum fio_ddir}) as small ints, for per-slot byte arrays. */
public final class Ddir {
    private Ddir() {}

    public static final int READ = 0;
    public static final int WRITE = 1;
    /** An fsync or fdatasync, from {@code --fsync=N} or {@code --fdatasync=N} (Job.syncDataOnly tells which). */
    public static final int SYNC = 2;

    /** fio's names: read, write, sync. */
    public static String name(int ddir) {
        return switch (ddir) {
            case READ -> "read";
            case WRITE -> "write";
            case SYNC -> "sync";
            default -> "ddir" + ddir;
        };
    }
}

package io.jring.tool.fio;

/**
 * The options that decide when a job starts, syncs and stops besides its size, time and
 * fsync=N: fio's {@code startdelay}, {@code number_ios}, {@code end_fsync} and
 * {@code fdatasync}.
 *
 * @param startDelayNanos fio's startdelay: the job starts this long after the run began
 * @param numberIos       fio's number_ios: the job stops once this many I/Os (times loops)
 *                        were issued after the ramp; 0 = no such limit
 * @param endFsync        fio's end_fsync: an fsync of the file at the end of each pass of a
 *                        job that writes, counted in its run time
 * @param fdatasync       fio's fdatasync=N: an fdatasync after every N writes (0 = never)
 */
record JobControl(long startDelayNanos, long numberIos, boolean endFsync, int fdatasync) {
    /** No delay, no I/O count, no final fsync, no fdatasync: fio's defaults. */
    static final JobControl DEFAULT = new JobControl(0, 0, false, 0);
}

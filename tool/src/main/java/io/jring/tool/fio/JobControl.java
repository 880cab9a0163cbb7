package io.jring.tool.fio;

/**
 * The options that decide when a job starts and stops besides its size and time: fio's
 * {@code startdelay}, {@code number_ios} and {@code end_fsync}.
 *
 * @param startDelayNanos fio's startdelay: the job starts this long after the run began
 * @param numberIos       fio's number_ios: the job stops once this many I/Os (times loops)
 *                        were issued after the ramp; 0 = no such limit
 * @param endFsync        fio's end_fsync: an fsync of the file at the end of each pass of a
 *                        job that writes, counted in its run time
 */
record JobControl(long startDelayNanos, long numberIos, boolean endFsync) {
    /** No delay, no I/O count, no final fsync: fio's defaults. */
    static final JobControl DEFAULT = new JobControl(0, 0, false);
}

package io.jring.tool.fio;

import java.io.IOException;
import java.util.List;

/**
 * fio's ioengine: how a job's I/O reaches the kernel. One instance per job, used by the
 * job's thread only: {@link #open} preallocates everything (file, buffers, slots, ring), then
 * {@link #run} issues and reaps one pass of I/O until {@link Job#nextIo} says stop and
 * nothing is in flight; {@link #reopen} opens the file again between passes. Each open tells
 * the job ({@link Job#fileOpened}), which gives the file fio's advice. Each engine owns its loop, so the loop can be the natural one for its API (a
 * synchronous call per I/O, or fio's queue/commit/getevents for the asynchronous ones).
 */
public interface IoEngine extends AutoCloseable {

    /** The engines, as {@code --ioengine} names them. */
    List<String> NAMES = List.of("jring", "psync", "filechannel", "afc");

    /** Opens the job's file and allocates every buffer the run needs. */
    void open(Job job) throws IOException;

    /** Issues and reaps I/O until the job stops issuing and nothing is in flight. */
    void run(Job job);

    /** Closes the job's file and opens it again, for the next pass (fio's close_files and td_io_open_file). */
    void reopen(Job job) throws IOException;

    /** Releases the file, the buffers and the ring. Idempotent. */
    @Override
    void close();

    static IoEngine create(String name) {
        return switch (name) {
            case "jring" -> new JringEngine();
            case "psync" -> new PsyncEngine();
            case "filechannel" -> new FileChannelEngine();
            case "afc" -> new AfcEngine();
            default -> throw new IllegalArgumentException("no ioengine '" + name + "': use one of " + String.join(", ", NAMES));
        };
    }

    /** An engine could not open its file or set up: the job's error, with its errno. */
    final class OpenFailure extends IOException {
        private final int errno;

        OpenFailure(int errno, String message, Throwable cause) {
            super(message + ": " + ErrnoText.of(errno), cause);
            this.errno = errno;
        }

        int errno() {
            return errno;
        }
    }

    /** One synchronous call per I/O: depth 1 by definition, as fio's sync engines. */
    static boolean isSync(String name) {
        return name.equals("psync") || name.equals("filechannel");
    }
}

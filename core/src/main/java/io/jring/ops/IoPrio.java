package io.jring.ops;

import io.jring.Errno;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The I/O priority a read or write carries in {@code sqe->ioprio}, validated as Linux's
 * {@code ioprio_check_cap} does when the op is prepared: class in bits 13-15, level in bits
 * 0-2, hints in between (any hint is accepted). jring's syscalls cannot pass a per-request
 * priority on, so a valid one is only checked, not applied.
 */
final class IoPrio {
    private IoPrio() {}

    static final int CLASS_SHIFT = 13;
    static final int CLASS_NONE = 0;
    static final int CLASS_RT = 1;
    static final int CLASS_BE = 2;
    static final int CLASS_IDLE = 3;
    private static final int LEVEL_MASK = 7;

    /** 0, or -EINVAL (unknown class, a level without a class), -EPERM (RT without CAP_SYS_NICE/ADMIN). */
    static int check(int ioprio) {
        int level = ioprio & LEVEL_MASK;
        // ioprio is 16 bits in the SQE: anything above is an unknown class here.
        switch (ioprio >>> CLASS_SHIFT) {
            case CLASS_RT:
                return Capabilities.MAY_SET_REALTIME ? 0 : -Errno.EPERM;
            case CLASS_BE:
            case CLASS_IDLE:
                return 0;   // a 3-bit level is always below IOPRIO_NR_LEVELS (8)
            case CLASS_NONE:
                return level == 0 ? 0 : -Errno.EINVAL;
            default:
                return -Errno.EINVAL;
        }
    }

    /** Read once, on the first real-time priority seen. */
    private static final class Capabilities {
        private static final int CAP_SYS_ADMIN = 21;
        private static final int CAP_SYS_NICE = 23;
        static final boolean MAY_SET_REALTIME = effectiveCapable(CAP_SYS_NICE) || effectiveCapable(CAP_SYS_ADMIN);

        /** From the CapEff line of /proc/self/status (hex mask); false if it cannot be read. */
        private static boolean effectiveCapable(int cap) {
            try {
                for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                    if (line.startsWith("CapEff:")) {
                        long mask = Long.parseUnsignedLong(line.substring(7).trim(), 16);
                        return (mask & (1L << cap)) != 0;
                    }
                }
            } catch (IOException | NumberFormatException | SecurityException e) {
                // fall through: treat as not capable
            }
            return false;
        }
    }
}

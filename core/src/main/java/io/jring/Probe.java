package io.jring;

import io.jring.ops.OpTable;

import java.util.Arrays;

/**
 * What this jring supports, in the shape of Linux's {@code struct io_uring_probe}
 * (IORING_REGISTER_PROBE): {@link #lastOp()}, {@link #opsLen()} entries and per opcode the
 * flag {@link #OP_SUPPORTED}, plus the SQE and setup flags a ring accepts. Answered from the
 * op table the engine dispatches with, so it names exactly the opcodes a submitted SQE may
 * use; any other completes with -EINVAL. Immutable: a snapshot from {@link IoUring#probe()}.
 *
 * <pre>{@code
 * Probe p = ring.probe();
 * if (!p.opcodeSupported(Opcode.SPLICE)) { ... fall back ... }   // liburing's io_uring_opcode_supported
 * }</pre>
 */
public final class Probe {
    /** {@code IO_URING_OP_SUPPORTED}: the opcode's entry flag when jring implements it. */
    public static final int OP_SUPPORTED = 1;

    /** Per opcode below {@link #opsLen()}: its flags ({@link #OP_SUPPORTED} or 0). */
    private final short[] opFlags;

    private Probe(int opsLen) {
        opFlags = new short[opsLen];
        for (int op = 0; op < opsLen; op++) {
            opFlags[op] = OpTable.get(op) != null ? (short) OP_SUPPORTED : 0;
        }
    }

    /** Entries for the first {@code nrOps} opcodes (capped at {@link Opcode#LAST}, as Linux caps nr_args). */
    static Probe of(int nrOps) {
        if (nrOps < 0) {
            throw new IoUringException(Errno.EINVAL, "a probe needs 0 or more entries, not " + nrOps);
        }
        return new Probe(Math.min(nrOps, Opcode.LAST));
    }

    /**
     * The highest opcode number jring knows of (Linux's last_op: IORING_OP_LAST - 1), supported or not.
     *
     * @return the highest opcode number
     */
    public int lastOp() {
        return Opcode.LAST - 1;
    }

    /**
     * How many opcode entries this probe holds (opcodes 0 .. opsLen - 1).
     *
     * @return the number of entries
     */
    public int opsLen() {
        return opFlags.length;
    }

    /**
     * The flags of opcode {@code op}'s entry: {@link #OP_SUPPORTED} or 0 (also 0 beyond {@link #opsLen()}).
     *
     * @param op an opcode number ({@link Opcode})
     * @return the entry's flags, 0 for a negative {@code op} or one past the entries
     */
    public int opFlags(int op) {
        return op >= 0 && op < opFlags.length ? opFlags[op] : 0;
    }

    /**
     * liburing's io_uring_opcode_supported: false for an opcode above {@link #lastOp()} or outside the probe.
     *
     * @param op an opcode number ({@link Opcode})
     * @return true if this probe's entry for {@code op} has {@link #OP_SUPPORTED}
     */
    public boolean opcodeSupported(int op) {
        return op <= lastOp() && (opFlags(op) & OP_SUPPORTED) != 0;
    }

    /**
     * The supported opcodes among this probe's entries, ascending.
     *
     * @return a new array of the supported opcode numbers
     */
    public int[] supportedOpcodes() {
        int[] out = new int[opFlags.length];
        int n = 0;
        for (int op = 0; op < opFlags.length; op++) {
            if ((opFlags[op] & OP_SUPPORTED) != 0) {
                out[n++] = op;
            }
        }
        return Arrays.copyOf(out, n);
    }

    /**
     * The {@link SqeFlags} bits an SQE may carry; any other bit completes with -EINVAL.
     *
     * @return the supported SQE flag bits
     */
    public int sqeFlags() {
        return SqeFlags.VALID;
    }

    /**
     * True if every bit of {@code flags} is a supported {@link SqeFlags} bit.
     *
     * @param flags {@link SqeFlags} bits
     * @return true if no bit of {@code flags} is unsupported (true for 0)
     */
    public boolean sqeFlagsSupported(int flags) {
        return (flags & ~SqeFlags.VALID) == 0;
    }

    /**
     * The {@link Setup} bits {@link IoUring.Builder#flags} accepts.
     *
     * @return the supported setup flag bits
     */
    public int setupFlags() {
        return Setup.VALID;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("Probe[lastOp=").append(lastOp()).append(" ops=");
        int[] ops = supportedOpcodes();
        for (int i = 0; i < ops.length; i++) {
            s.append(i == 0 ? "" : ",").append(Opcode.name(ops[i]));
        }
        return s.append(" sqeFlags=0x").append(Integer.toHexString(sqeFlags()))
                .append(" setupFlags=0x").append(Integer.toHexString(setupFlags())).append(']').toString();
    }
}

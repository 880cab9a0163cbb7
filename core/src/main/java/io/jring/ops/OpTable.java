package io.jring.ops;

import io.jring.Opcode;

/** Opcode number -> {@link OpDef} (the kernel's {@code io_issue_defs}); null = not supported. */
public final class OpTable {
    private static final OpDef[] DEFS = new OpDef[Opcode.LAST];

    static {
        DEFS[Opcode.NOP] = new NopOp();
    }

    private OpTable() {}

    /** The definition of an opcode, or null if jring does not support it. */
    public static OpDef get(int opcode) {
        return opcode >= 0 && opcode < DEFS.length ? DEFS[opcode] : null;
    }
}

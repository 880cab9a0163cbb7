package io.jring.ops;

import io.jring.Opcode;

/** Opcode number -> {@link OpDef} (the kernel's {@code io_issue_defs}); null = not supported. */
public final class OpTable {
    private static final OpDef[] DEFS = new OpDef[Opcode.LAST];

    static {
        DEFS[Opcode.NOP] = new NopOp();
        DEFS[Opcode.READ] = new SingleBufferRwOp(false, false);
        DEFS[Opcode.WRITE] = new SingleBufferRwOp(true, false);
        DEFS[Opcode.READ_FIXED] = new SingleBufferRwOp(false, true);
        DEFS[Opcode.WRITE_FIXED] = new SingleBufferRwOp(true, true);
        DEFS[Opcode.READV] = new VectoredRwOp(false);
        DEFS[Opcode.WRITEV] = new VectoredRwOp(true);
        DEFS[Opcode.FSYNC] = new FsyncOp();
        DEFS[Opcode.OPENAT] = new OpenatOp();
        DEFS[Opcode.CLOSE] = new CloseOp();
        DEFS[Opcode.POLL_ADD] = new PollAddOp();
        DEFS[Opcode.POLL_REMOVE] = new PollRemoveOp();
        DEFS[Opcode.SOCKET] = new SocketOp();
        DEFS[Opcode.ACCEPT] = new AcceptOp();
        DEFS[Opcode.CONNECT] = new ConnectOp();
        DEFS[Opcode.SEND] = new SendRecvOp(true);
        DEFS[Opcode.RECV] = new SendRecvOp(false);
        DEFS[Opcode.SHUTDOWN] = new ShutdownOp();
        // Messages and zero-copy sends (issue 23)
        DEFS[Opcode.SENDMSG] = new MsgOp(true);
        DEFS[Opcode.RECVMSG] = new MsgOp(false);
        DEFS[Opcode.SEND_ZC] = new SendZcOp(false);
        DEFS[Opcode.SENDMSG_ZC] = new SendZcOp(true);
        // Socket setup through the ring; splice and tee (issue 23)
        DEFS[Opcode.BIND] = new BindOp();
        DEFS[Opcode.LISTEN] = new ListenOp();
        DEFS[Opcode.SPLICE] = new SpliceOp(false);
        DEFS[Opcode.TEE] = new SpliceOp(true);
        DEFS[Opcode.PROVIDE_BUFFERS] = new ProvideBuffersOp(true);
        DEFS[Opcode.REMOVE_BUFFERS] = new ProvideBuffersOp(false);
        DEFS[Opcode.TIMEOUT] = new TimeoutOp(Opcode.TIMEOUT);
        DEFS[Opcode.TIMEOUT_REMOVE] = new TimeoutOp(Opcode.TIMEOUT_REMOVE);
        DEFS[Opcode.LINK_TIMEOUT] = new TimeoutOp(Opcode.LINK_TIMEOUT);
        DEFS[Opcode.ASYNC_CANCEL] = new CancelOp();
        DEFS[Opcode.MSG_RING] = new MsgRingOp();
        DEFS[Opcode.FTRUNCATE] = new FtruncateOp();   // issue 22
    }

    private OpTable() {}

    /** The definition of an opcode, or null if jring does not support it. */
    public static OpDef get(int opcode) {
        return opcode >= 0 && opcode < DEFS.length ? DEFS[opcode] : null;
    }
}

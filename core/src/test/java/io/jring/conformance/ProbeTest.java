package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.sqe;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jring.Errno;
import io.jring.IoUring;
import io.jring.IoUringException;
import io.jring.Opcode;
import io.jring.Probe;
import io.jring.Setup;
import io.jring.SqeFlags;
import io.jring.kernel.KernelRing;
import io.jring.ops.OpTable;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * IORING_REGISTER_PROBE (liburing test/probe.c): {@link IoUring#probe()} answers from the op
 * table the engine dispatches with, so it names every opcode jring implements and nothing
 * else, and a library can check at startup what it needs, as Netty 4.2's io_uring transport
 * does with its 16 required opcodes.
 */
@Timeout(10)
class ProbeTest {

    /** Netty 4.2's Native.REQUIRED_IORING_OPS: its io_uring transport refuses to start without them. */
    private static final int[] NETTY_REQUIRED = {
        Opcode.POLL_ADD, Opcode.TIMEOUT, Opcode.ACCEPT, Opcode.READ, Opcode.WRITE, Opcode.POLL_REMOVE,
        Opcode.CONNECT, Opcode.CLOSE, Opcode.WRITEV, Opcode.SENDMSG, Opcode.RECVMSG, Opcode.ASYNC_CANCEL,
        Opcode.RECV, Opcode.NOP, Opcode.SHUTDOWN, Opcode.SEND,
    };

    @Test
    void aProbeWithoutEntriesHasALastOpButNoOps() {
        try (IoUring ring = IoUring.open(8)) {
            Probe p = ring.probe(0);
            assertEquals(0, p.opsLen());
            assertTrue(p.lastOp() > 0);
            assertFalse(p.opcodeSupported(Opcode.NOP), "an opcode outside the probe's entries is not reported");
        }
    }

    @Test
    void aFullProbeReportsNopReadvAndWrite() {
        try (IoUring ring = IoUring.open(8)) {
            Probe p = ring.probe(256);
            assertEquals(Opcode.LAST, p.opsLen(), "256 entries are capped at IORING_OP_LAST, as Linux does");
            assertEquals(Opcode.LAST - 1, p.lastOp());
            assertEquals(Probe.OP_SUPPORTED, p.opFlags(Opcode.NOP));
            assertTrue(p.opcodeSupported(Opcode.READV));
            assertTrue(p.opcodeSupported(Opcode.WRITE));
        }
    }

    @Test
    void everyOpTableRowIsReportedAndNothingElse() {
        try (IoUring ring = IoUring.open(8)) {
            Probe p = ring.probe();
            for (int op = 0; op < Opcode.LAST; op++) {
                assertEquals(OpTable.get(op) != null, p.opcodeSupported(op), Opcode.name(op));
                assertEquals(OpTable.get(op) != null ? Probe.OP_SUPPORTED : 0, p.opFlags(op), Opcode.name(op));
            }
            for (int op : new int[] {-1, Opcode.LAST, 255, 1 << 20}) {
                assertFalse(p.opcodeSupported(op), "opcode " + op);
            }
            int[] rows = IntStream.range(0, Opcode.LAST).filter(op -> OpTable.get(op) != null).toArray();
            assertArrayEquals(rows, p.supportedOpcodes());
        }
    }

    @Test
    void theOpsOfThisIssueAreReported() {
        try (IoUring ring = IoUring.open(8)) {
            Probe p = ring.probe();
            for (int op : new int[] {Opcode.BIND, Opcode.LISTEN, Opcode.SPLICE, Opcode.TEE, Opcode.SOCKET}) {
                assertTrue(p.opcodeSupported(op), Opcode.name(op));
            }
        }
    }

    /** What the probe leaves out is what a submitted SQE is refused for: -EINVAL at prep. */
    @Test
    void everyOpcodeTheProbeLeavesOutFailsWithEinval() {
        try (IoUring ring = ring(0)) {
            Probe p = ring.probe();
            for (int op = 0; op < 256; op++) {
                if (p.opcodeSupported(op)) {
                    continue;
                }
                sqe(ring).prepNop().opcode(op).userData(op);
                assertEquals(1, ring.submit(), Opcode.name(op));
                var c = next(ring);
                assertEquals(op, c.userData());
                assertEquals(-Errno.EINVAL, c.res(), Opcode.name(op));
            }
        }
    }

    @Test
    void allSixteenOfNettysRequiredOpcodesAreReported() {
        try (IoUring ring = IoUring.open(8)) {
            Probe p = ring.probe();
            assertEquals(16, NETTY_REQUIRED.length);
            for (int op : NETTY_REQUIRED) {
                assertTrue(p.opcodeSupported(op), Opcode.name(op));
            }
            for (int op : new int[] {Opcode.SENDMSG, Opcode.RECVMSG, Opcode.SEND_ZC, Opcode.SENDMSG_ZC}) {
                assertEquals(Probe.OP_SUPPORTED, p.opFlags(op), Opcode.name(op));
            }
        }
    }

    @Test
    void sqeAndSetupFlagsAreTheOnesARingAccepts() {
        try (IoUring ring = IoUring.open(8)) {
            Probe p = ring.probe();
            assertEquals(SqeFlags.VALID, p.sqeFlags());
            assertTrue(p.sqeFlagsSupported(SqeFlags.IO_LINK | SqeFlags.CQE_SKIP_SUCCESS));
            assertFalse(p.sqeFlagsSupported(0x80));
            int setup = p.setupFlags();
            assertTrue((setup & Setup.DEFER_TASKRUN) != 0 && (setup & Setup.SUBMIT_ALL) != 0);
            IoUring.builder().entries(4).flags(setup & ~Setup.ATTACH_WQ).build().close();
        }
    }

    @Test
    void aNegativeEntryCountIsEinvalAndAClosedRingEbadfd() {
        IoUring ring = IoUring.open(8);
        IoUringException e = assertThrows(IoUringException.class, () -> ring.probe(-1));
        assertEquals(Errno.EINVAL, e.errno());
        ring.close();
        assertEquals(Errno.EBADFD, assertThrows(IoUringException.class, ring::probe).errno());
    }

    /** Linux 6.18 has jring's last_op and supports every opcode jring reports (the numbers are the same ABI). */
    @Test
    void theKernelSupportsEveryOpcodeJringReports() {
        assumeTrue(KernelRing.unavailableReason().isEmpty(), () -> KernelRing.unavailableReason().orElse(""));
        try (KernelRing kernel = KernelRing.open(8, 0); IoUring ring = IoUring.open(8)) {
            KernelRing.KernelProbe k = kernel.registerProbe(256);
            assertEquals(k.lastOp(), ring.probe().lastOp(), "IORING_OP_LAST - 1 of Linux 6.18");
            for (int op : ring.probe().supportedOpcodes()) {
                assertEquals(Probe.OP_SUPPORTED, k.opFlags()[op] & Probe.OP_SUPPORTED, Opcode.name(op));
            }
        }
    }
}

package io.jring.kernel;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.HashMap;
import java.util.Map;

/**
 * The kernel's buffer rings, on its own terms (test-only, independent of jring's BufRing):
 * {@code struct io_uring_buf_reg} and {@code struct io_uring_buf_status} filled by hand for
 * io_uring_register, the ring memory written as liburing's io_uring_buf_ring_add and
 * io_uring_buf_ring_advance do (plain slot stores, a release store of the 16-bit tail at
 * offset 14), and IOU_PBUF_RING_MMAP memory mapped from the ring fd at
 * {@code IORING_OFF_PBUF_RING | bgid << 16}. One thread, plain fields.
 */
final class KernelBufRings implements BufRings {
    static final int REGISTER_PBUF_RING = 22;
    static final int UNREGISTER_PBUF_RING = 23;
    static final int REGISTER_PBUF_STATUS = 26;
    static final long OFF_PBUF_RING = 0x80000000L;
    static final int OFF_PBUF_SHIFT = 16;
    private static final VarHandle U16 = JAVA_SHORT.varHandle();

    private final KernelRing ring;
    private final Map<Integer, MemorySegment> memory = new HashMap<>();
    private final Map<Integer, Integer> masks = new HashMap<>();
    private final Map<Integer, Integer> pending = new HashMap<>();

    KernelBufRings(KernelRing ring) {
        this.ring = ring;
    }

    private int call(int opcode, MemorySegment arg) {
        return KernelCalls.ioUringRegister(ring.fd(), opcode, arg.address(), 1);
    }

    @Override
    public int register(MemorySegment mem, int entries, int bgid, int flags) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment reg = a.allocate(40, 8);
            reg.set(JAVA_LONG, 0, mem == null ? 0 : mem.address());
            reg.set(JAVA_INT, 8, entries);
            reg.set(JAVA_SHORT, 12, (short) bgid);
            reg.set(JAVA_SHORT, 14, (short) flags);
            int r = call(REGISTER_PBUF_RING, reg);
            if (r != 0) {
                return r;
            }
        }
        MemorySegment m = mem;
        if ((flags & 1) != 0) {
            int[] errno = new int[1];
            m = KernelCalls.mmap(ring.fd(), 16L * entries, OFF_PBUF_RING | ((long) bgid << OFF_PBUF_SHIFT), errno);
            if (m == null) {
                return -errno[0];
            }
        }
        memory.put(bgid, m);
        masks.put(bgid, entries - 1);
        pending.put(bgid, 0);
        return 0;
    }

    @Override
    public int unregister(int bgid) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment reg = a.allocate(40, 8);
            reg.set(JAVA_SHORT, 12, (short) bgid);
            int r = call(UNREGISTER_PBUF_RING, reg);
            if (r == 0) {
                memory.remove(bgid);
            }
            return r;
        }
    }

    @Override
    public int head(int bgid) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(40, 8);
            st.set(JAVA_INT, 0, bgid);
            int r = call(REGISTER_PBUF_STATUS, st);
            return r < 0 ? r : st.get(JAVA_INT, 4);
        }
    }

    private int tail(MemorySegment m) {
        return Short.toUnsignedInt(m.get(JAVA_SHORT, 14));
    }

    @Override
    public void add(int bgid, long addr, int len, int bid) {
        MemorySegment m = memory.get(bgid);
        int off = pending.get(bgid);
        long at = ((tail(m) + off) & masks.get(bgid)) * 16L;
        m.set(JAVA_LONG, at, addr);
        m.set(JAVA_INT, at + 8, len);
        m.set(JAVA_SHORT, at + 12, (short) bid);
        pending.put(bgid, off + 1);
    }

    @Override
    public void advance(int bgid) {
        MemorySegment m = memory.get(bgid);
        U16.setRelease(m, 14L, (short) (tail(m) + pending.get(bgid)));
        pending.put(bgid, 0);
    }
}

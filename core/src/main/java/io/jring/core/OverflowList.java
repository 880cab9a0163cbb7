package io.jring.core;

/**
 * CQEs that did not fit in a full CQ (the kernel's {@code cq_overflow_list}), kept in
 * order and moved into the CQ as room appears, so no completion is ever lost. A growable
 * ring of parallel arrays: allocation only when it grows, which only happens while the
 * application lets its CQ overflow. Poster-only (the holder of the ring's posting right).
 */
final class OverflowList {
    private long[] userData = new long[16];
    private int[] res = new int[16];
    private int[] flags = new int[16];
    private int head;
    private int size;

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    void add(long ud, int r, int f) {
        if (size == userData.length) {
            grow();
        }
        int i = (head + size) & (userData.length - 1);
        userData[i] = ud;
        res[i] = r;
        flags[i] = f;
        size++;
    }

    long peekUserData() {
        return userData[head];
    }

    int peekRes() {
        return res[head];
    }

    int peekFlags() {
        return flags[head];
    }

    void removeFirst() {
        head = (head + 1) & (userData.length - 1);
        size--;
    }

    void clear() {
        head = 0;
        size = 0;
    }

    private void grow() {
        int n = userData.length;
        long[] u = new long[n * 2];
        int[] r = new int[n * 2];
        int[] f = new int[n * 2];
        for (int k = 0; k < size; k++) {
            int i = (head + k) & (n - 1);
            u[k] = userData[i];
            r[k] = res[i];
            f[k] = flags[i];
        }
        userData = u;
        res = r;
        flags = f;
        head = 0;
    }
}

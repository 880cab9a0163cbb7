package io.jring;

/**
 * A snapshot of one ring's counters, for a server's metrics ({@link IoUring#stats}). Each
 * counter is kept by the thread that changes it (the holder of the ring's posting right:
 * its owner, or the thread holding a shared ring's lock) with plain-cost stores, and read
 * here without stopping it: every value is one the counter had at some moment during the
 * call, but the values are not one atomic picture (a CQE may already be counted as posted
 * while its request still counts as in flight). Totals ({@code long}) only grow from the
 * ring's creation; gauges ({@code int}) are the value now.
 *
 * @param sqesSubmitted SQEs consumed by {@code submit} calls, failed ones included (total)
 * @param cqesPosted CQEs published to the CQ, moved from the overflow list included;
 *                   a CQE skipped by {@link SqeFlags#CQE_SKIP_SUCCESS} is not one (total)
 * @param requestsInFlight requests submitted and not yet completed, each request of a link
 *                         chain and each armed multishot request counted (gauge)
 * @param cqOverflows CQEs that found the CQ full and went to the overflow list, to be moved
 *                    in later in order; none is lost (total)
 * @param ioWqBoundedWorkers io-wq workers for bounded work (regular files), alive or
 *                           starting; shared with rings attached by {@link Setup#ATTACH_WQ} (gauge)
 * @param ioWqUnboundWorkers io-wq workers for unbound work (sockets, pipes), as above (gauge)
 * @param ioWqBoundedBusy bounded workers running an item, not idle (gauge)
 * @param ioWqUnboundBusy unbound workers running an item, not idle (gauge)
 * @param taskWorkRuns runs of task work for this ring: each batch of consecutive items that
 *                     posts under one hold of the posting right (total)
 * @param taskWorkItems task-work items run for this ring: completions from io-wq, the poller,
 *                      direct I/O and timers, and MSG_RING messages (total)
 * @param pollsArmed requests now waiting in a poller: POLL_ADD, multishot waits and requests
 *                   retried on readiness after EAGAIN (gauge)
 * @param directIoInFlight O_DIRECT reads and writes now with the device (gauge)
 * @param msgRingSent MSG_RING messages this ring sent to a ring that was open (total)
 * @param msgRingReceived MSG_RING messages delivered into this ring: a posted CQE or an
 *                        installed file (total)
 */
public record RingStats(
        long sqesSubmitted,
        long cqesPosted,
        int requestsInFlight,
        long cqOverflows,
        int ioWqBoundedWorkers,
        int ioWqUnboundWorkers,
        int ioWqBoundedBusy,
        int ioWqUnboundBusy,
        long taskWorkRuns,
        long taskWorkItems,
        int pollsArmed,
        int directIoInFlight,
        long msgRingSent,
        long msgRingReceived) {
}

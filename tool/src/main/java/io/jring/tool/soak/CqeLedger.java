package io.jring.tool.soak;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Exactly-once accounting of one ring's CQEs. Every user data is unique over the soak and
 * is expected before its SQE is submitted; a CQE settles its expectation, and a CQE that
 * settles none is a duplicate. What is still expected when the soak ends was lost; a CQE
 * that arrives after its round gave up waiting for it is late (counted, not lost).
 *
 * <p>The ring's own requests are the owner's business (plain collections, owner thread
 * only). MSG_RING deliveries are expected by their senders, on other threads, so the inbox
 * is a concurrent set: a sender adds the message before its submit and withdraws it if its
 * own CQE says the message was not posted.
 */
final class CqeLedger {
    /** High bit of a MSG_RING's data: a delivery, not one of this ring's requests. */
    static final long MESSAGE = 1L << 62;

    /** This ring's requests in flight: user data -> what the round wants to know of it. Owner only. */
    private final Map<Long, Integer> own = new HashMap<>();
    /** Requests a round gave up on (still expected: late if they come, lost if not). Owner only. */
    private final Set<Long> overdue = new HashSet<>();
    /** Deliveries other rings' senders posted or are posting to this ring. Any thread. */
    final Set<Long> inbox = ConcurrentHashMap.newKeySet();

    // Owner only; read by the command after the owner thread ended (join orders them).
    long cqes;
    long deliveries;
    long duplicated;
    long late;

    /** Expects one CQE for {@code ud}; {@code role} tells the round what the CQE carries. */
    void expect(long ud, int role) {
        own.put(ud, role);
    }

    /** Settles a CQE: its role if it was one of this ring's requests in flight, else -1. */
    int settle(long ud) {
        cqes++;
        if ((ud & MESSAGE) != 0) {
            if (inbox.remove(ud)) {
                deliveries++;
            } else {
                duplicated++;
            }
            return -1;
        }
        Integer role = own.remove(ud);
        if (role != null) {
            return role;
        }
        if (overdue.remove(ud)) {
            late++;
        } else {
            duplicated++;
        }
        return -1;
    }

    /** This ring's requests still in flight. */
    int inFlight() {
        return own.size();
    }

    /** The round stops waiting: what is in flight becomes overdue. */
    void giveUp() {
        overdue.addAll(own.keySet());
        own.clear();
    }

    /** Expected CQEs that never came: overdue requests and undelivered messages. */
    long lost() {
        return overdue.size() + own.size() + inbox.size();
    }
}

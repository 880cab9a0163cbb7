package io.jring.kernel;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Switches of {@link RandomPrograms}: each one lets the generator build a pattern in which
 * jring is known to differ from Linux 6.18 (issue 16, A1 and B1-B11). A switch that is off
 * keeps the pattern out of every program; once the fix lands, the switch goes into
 * {@link #FIXED} so the fixed-seed pass of {@code bin/test} keeps it fixed.
 *
 * <p>Every SQE that takes part in a switched pattern carries the switch as a tag, which is
 * how a differing program is classified.
 */
enum FuzzFeature {
    /** A1: a TIMEOUT with a count beside other timeouts, link timeouts or TIMEOUT_REMOVEs. */
    TIMEOUT_COUNT,
    /**
     * Next to A1, not in issue 16's list (found by this harness): a cancel or remove of a
     * pending TIMEOUT with a count after other SQEs of its submit. Linux checks the count
     * when the submit's completions are flushed, after the submit, so the cancel still finds
     * the timeout; jring counts each completion at once and the timeout has already fired.
     * Also a TIMEOUT with a count armed from task work (a chain member, or behind a drain),
     * whose count then depends on the order of that task work, or in a submit with a
     * MSG_RING to the ring itself, whose CQE Linux posts at once rather than at the flush.
     */
    TIMEOUT_COUNT_FLUSH,
    /**
     * B1: POLL_ADD on descriptor Integer.MAX_VALUE, CANCEL_FD on it or on {@code bad}
     * (2^30 - 1), a fixed-file index of 2^30. (Not POLL_ADD on {@code bad}: before the fix
     * that allocates gigabytes; B1's own tests cover it.)
     */
    HUGE_FD,
    /** B2: a RECV that leaves data in the socket (Linux sets IORING_CQE_F_SOCK_NONEMPTY), MSG_PEEK. */
    SOCK_NONEMPTY,
    /**
     * B3: what Linux fails at issue and jring at prep: an offset below -1, a NULL buffer, bad
     * MSG_RING flags, IOSQE_FIXED_FILE on an operation without a file.
     */
    PREP_VS_ISSUE,
    /**
     * B4: a poll or recv armed on a ready descriptor (or one made ready in the same submit)
     * and removed or cancelled in that submit, or an armed one woken by a write earlier in
     * the submit that removes it (Linux: the wakeup owns it, -EALREADY); any cancel of a RECV
     * with MSG_DONTWAIT.
     */
    READY_AT_ARM,
    /** B5: POLL_ADD on a regular file. */
    POLL_REGULAR_FILE,
    /** B6: a second poll armed on a descriptor an armed multishot poll watches. */
    SECOND_POLL,
    /** B7: IOSQE_CQE_SKIP_SUCCESS anywhere in a chain that holds a LINK_TIMEOUT. */
    LINK_TIMEOUT_SKIP,
    /** B8: MSG_RING with IOSQE_FIXED_FILE; IOSQE_FIXED_FILE with IOSQE_BUFFER_SELECT. */
    FIXED_FILE_CHECKS,
    /** B9: a RECV with MSG_WAITALL that holds part of its data when it is cancelled or timed out. */
    PARTIAL_RECV_CANCEL,
    /**
     * B10: a cancel (or an expiring link timeout) of a request with IOSQE_BUFFER_SELECT; a
     * READ with BUFFER_SELECT that waits for data, or a RECV with BUFFER_SELECT and
     * MSG_WAITALL that has part of its data: Linux has taken the buffer from the group (so
     * another request or a REMOVE_BUFFERS cannot have it), jring leaves it in the group.
     */
    PROVIDED_BUFFER_CANCEL,
    /** B11: a CLOSE cancelled in the submit that issued it. */
    CLOSE_INLINE,
    /**
     * Not in issue 16's list (found by this harness): a pipe or socket read that Linux runs in
     * io-wq without IOSQE_ASYNC, so that it blocks in the worker: the members of a chain left
     * open at the end of a submit ({@code io_queue_sqe_fallback}) and the members after an
     * io-wq member. A cancel then gets -EINTR (and ALL does not count it), and a cancel at
     * the head of such a chain can match itself (-EALREADY); jring issues them inline.
     */
    IO_WQ_CHAIN,
    /**
     * Not in issue 16's list (found by this harness): two cancels (ASYNC_CANCEL, POLL_REMOVE)
     * of one pending request in one submit. Linux's first takes the request (its completion
     * is still to run), so the second gets -EALREADY; jring's second gets -ENOENT.
     */
    CANCEL_TWICE,
    /**
     * Not in issue 16's list (found by this harness): Linux issues a chain's next member
     * from task work once its predecessor completes, even inline, that is after the rest of
     * the submit. So a cancel later in that submit does not find the member, nor one while
     * it waits for its link (ANY, FD, or a later member of the cancel's own chain), and a
     * cancel or remove that is itself a chain member runs after the SQEs that follow it;
     * jring issues the member at once.
     */
    LINK_ISSUE_IN_TASK_WORK,
    /**
     * Not in issue 16's list (found by this harness): IOSQE_IO_DRAIN on a chain member after
     * the head. Linux drains the chain's head instead and the first SQE after the chain
     * ({@code drain_next}); jring drains only that member.
     */
    DRAIN_IN_CHAIN,
    /**
     * Not in issue 16's list (found by this harness): a buffered file READ that reaches EOF
     * (fewer bytes than asked). Linux completes it inline with the bytes read; jring goes on
     * with it, so a cancel in the same submit can find it, and then -ECANCELED loses the data.
     */
    SHORT_FILE_READ,
    /**
     * Not in issue 16's list (found by this harness): an ASYNC_CANCEL by descriptor or ANY
     * after an IOSQE_IO_DRAIN in the program. Linux 6.18 keeps the ring in drain mode until
     * a request is submitted while nothing waits for a drain, and issues the requests in
     * between (and that one) through io-wq, where a cancel by descriptor or ANY matches
     * itself (-EALREADY); jring issues them inline.
     */
    DRAIN_MODE;

    /**
     * The switches whose fixes are on this branch: the fixed-seed pass runs with these on.
     * Empty while every item above still differs; the integrator adds each one as its fix
     * is merged.
     */
    static final Set<FuzzFeature> FIXED = EnumSet.noneOf(FuzzFeature.class);

    /** {@code ALL}, {@code NONE}, {@code FIXED} or a comma-separated list of names (case-insensitive). */
    static Set<FuzzFeature> parse(String spec) {
        String s = spec.trim().toUpperCase(Locale.ROOT);
        return switch (s) {
            case "ALL" -> EnumSet.allOf(FuzzFeature.class);
            case "NONE", "" -> EnumSet.noneOf(FuzzFeature.class);
            case "FIXED" -> FIXED.isEmpty() ? EnumSet.noneOf(FuzzFeature.class) : EnumSet.copyOf(FIXED);
            default -> {
                EnumSet<FuzzFeature> out = EnumSet.noneOf(FuzzFeature.class);
                Arrays.stream(s.split(",")).map(String::trim).filter(n -> !n.isEmpty())
                        .forEach(n -> out.add(valueOf(n)));
                yield out;
            }
        };
    }

    static String names(Set<FuzzFeature> features) {
        return features.isEmpty() ? "NONE" : features.stream().map(Enum::name).collect(Collectors.joining(","));
    }
}

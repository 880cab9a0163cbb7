package io.jring.kernel;

import static io.jring.kernel.CqeSpec.cqe;
import static io.jring.kernel.Scenarios.BAD_OPCODE;
import static io.jring.kernel.Scenarios.EBADF;
import static io.jring.kernel.Scenarios.ECANCELED;
import static io.jring.kernel.Scenarios.EINVAL;
import static io.jring.kernel.Scenarios.NEVER;
import static io.jring.kernel.SqeSpec.linkTimeout;
import static io.jring.kernel.SqeSpec.nop;
import static io.jring.kernel.SqeSpec.rawOpcode;
import static io.jring.kernel.SqeSpec.read;

import java.util.List;

/**
 * Whether a LINK_TIMEOUT posts its -ECANCELED when the request it guards ends without it
 * (issue 16, B7). Linux (io_disarm_next) completes the LINK_TIMEOUT right after its request
 * with its own CQE_SKIP_SUCCESS, whether that request succeeded, failed at issue or failed
 * at prep; only the rest of a failed chain follows the failed member's CQE_SKIP_SUCCESS.
 * A LINK_TIMEOUT further down a failed chain is such a rest. The disarmed timeout completes
 * through task work, after CQEs the same submit posts later. Expectations taken from
 * Linux 6.18.
 */
final class LinkTimeoutCqeScenarios {
    private LinkTimeoutCqeScenarios() {}

    /** The member before the LINK_TIMEOUT, with or without CQE_SKIP_SUCCESS. */
    private enum Member {
        SUCCEEDS(nop(), 0), FAILS_AT_ISSUE(read("bad", 8, 0), EBADF), FAILS_AT_PREP(rawOpcode(BAD_OPCODE), EINVAL);

        final SqeSpec sqe;
        final int res;

        Member(SqeSpec sqe, int res) {
            this.sqe = sqe;
            this.res = res;
        }
    }

    static void add(List<Scenario> all) {
        for (Member m : Member.values()) {
            for (int bits = 0; bits < 4; bits++) {
                boolean memberSkips = (bits & 1) != 0;
                boolean timeoutSkips = (bits & 2) != 0;
                SqeSpec member = m.sqe.ud(1).link();
                SqeSpec lt = linkTimeout(NEVER, 0).ud(2);
                Scenario.Builder b = Scenario.named("link-timeout CQE: member " + m.name().toLowerCase().replace('_', ' ')
                        + (memberSkips ? " with skip" : "") + ", link timeout" + (timeoutSkips ? " with skip" : ""),
                        "link-timeout.c")
                        .submit(memberSkips ? member.skip() : member, timeoutSkips ? lt.skip() : lt, nop().ud(9));
                if (m.res != 0 || !memberSkips) {
                    b.expect(cqe(1, m.res));
                }
                b.expect(cqe(9, 0));
                if (!timeoutSkips) {
                    b.expect(cqe(2, ECANCELED));
                }
                all.add(b.build());
            }
        }
        all.add(Scenario.named("link-timeout CQE: after a member failing at prep, the next member follows the "
                        + "member's skip, the timeout its own", "link-timeout.c")
                .submit(rawOpcode(BAD_OPCODE).ud(1).link().skip(), linkTimeout(NEVER, 0).ud(2).link(), nop().ud(3),
                        nop().ud(9))
                .expect(cqe(1, EINVAL), cqe(9, 0), cqe(2, ECANCELED))
                .build());
        all.add(Scenario.named("link-timeout CQE: a skipping timeout after a member failing at prep posts nothing, "
                        + "the next member its -ECANCELED", "link-timeout.c")
                .submit(rawOpcode(BAD_OPCODE).ud(1).link(), linkTimeout(NEVER, 0).ud(2).link().skip(),
                        nop().ud(3).skip(), nop().ud(9))
                .expect(cqe(1, EINVAL), cqe(9, 0), cqe(3, ECANCELED))
                .build());
        all.add(Scenario.named("link-timeout CQE: after a member failing at issue, the next member follows the "
                        + "member's skip, the timeout its own", "link-timeout.c")
                .submit(read("bad", 8, 0).ud(1).link().skip(), linkTimeout(NEVER, 0).ud(2).link(), nop().ud(3),
                        nop().ud(9))
                .expect(cqe(1, EBADF), cqe(9, 0), cqe(2, ECANCELED))
                .build());
        all.add(Scenario.named("link-timeout CQE: behind a head failing at prep, the timeout follows the head's skip",
                        "link-timeout.c")
                .submit(nop().ud(1).link().skip(), rawOpcode(BAD_OPCODE).ud(2).link(), linkTimeout(NEVER, 0).ud(3),
                        nop().ud(9))
                .expect(cqe(1, ECANCELED), cqe(9, 0))
                .build());
        all.add(Scenario.named("link-timeout CQE: behind a head failing at prep, a skipping timeout still posts",
                        "link-timeout.c")
                .submit(nop().ud(1).link(), rawOpcode(BAD_OPCODE).ud(2).link(), linkTimeout(NEVER, 0).ud(3).skip(),
                        nop().ud(9))
                .expect(cqe(1, ECANCELED), cqe(9, 0), cqe(2, EINVAL), cqe(3, ECANCELED))
                .build());
        all.add(Scenario.named("link-timeout CQE: a member failing at issue after a good head: the timeout's own skip",
                        "link-timeout.c")
                .submit(nop().ud(1).link(), read("bad", 8, 0).ud(2).link().skip(), linkTimeout(NEVER, 0).ud(3),
                        nop().ud(9))
                .expect(cqe(1, 0), cqe(9, 0), cqe(2, EBADF), cqe(3, ECANCELED))
                .build());
        all.add(Scenario.named("link-timeout CQE: further down a chain whose head failed with skip, nothing posts",
                        "link-timeout.c")
                .submit(read("bad", 8, 0).ud(1).link().skip(), nop().ud(2).link(), linkTimeout(NEVER, 0).ud(3),
                        nop().ud(9))
                .expect(cqe(1, EBADF), cqe(9, 0))
                .build());
        all.add(Scenario.named("link-timeout CQE: further down a chain whose head failed, a skipping timeout posts",
                        "link-timeout.c")
                .submit(read("bad", 8, 0).ud(1).link(), nop().ud(2).link(), linkTimeout(NEVER, 0).ud(3).skip(),
                        nop().ud(9))
                .expect(cqe(1, EBADF), cqe(9, 0), cqe(2, ECANCELED), cqe(3, ECANCELED))
                .build());
        all.add(Scenario.named("link-timeout CQE: an ASYNC member failing in io-wq: the timeout's own skip",
                        "link-timeout.c")
                .submit(read("bad", 8, 0).ud(1).link().async().skip(), linkTimeout(NEVER, 0).ud(2).skip(), nop().ud(9))
                .expect(cqe(9, 0), cqe(1, EBADF))
                .build());
    }
}

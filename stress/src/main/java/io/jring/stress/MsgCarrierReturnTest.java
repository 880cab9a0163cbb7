package io.jring.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.jring.core.MsgCarrier;
import io.jring.core.MsgCarrierCache;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The return stack of {@link MsgCarrierCache}: no carrier lost or taken twice when targets
 * give carriers back while the sender takes the whole stack. Three carriers a, b, c are out
 * (the cache allocated them); a target gives back a then b while another target gives back
 * c and then, as the sender, takes one carrier, which swaps out the whole stack pushed so
 * far (its free list is empty). The arbiter, the sender again later, takes three more: the
 * two left over and then a new one. So two pushes race (a or b against c) and a push races
 * with the take-all (a late b must stay on the stack for the next take). The sender's take
 * shares an actor with a push because jcstress never oversubscribes, and this runs on two CPUs.
 *
 * <p>Result: which carrier the first take got (1 = a, 2 = b, 3 = c: whichever was pushed
 * last), how many of a, b, c the four takes got (each once: 3), and how many carriers the
 * cache had to allocate for them (1: only the fourth take found nothing to reuse).
 */
@JCStressTest
@Outcome(id = {"1, 3, 1", "2, 3, 1", "3, 3, 1"}, expect = ACCEPTABLE,
        desc = "each carrier taken once, one new carrier for the fourth take")
@Outcome(expect = FORBIDDEN, desc = "a carrier lost or taken twice")
@State
public class MsgCarrierReturnTest {

    private final MsgCarrierCache cache = new MsgCarrierCache();
    private final MsgCarrier a;
    private final MsgCarrier b;
    private final MsgCarrier c;

    /** Written by the sender actor, read by the arbiter (ordered by jcstress). */
    private MsgCarrier first;

    public MsgCarrierReturnTest() {
        a = cache.take();
        b = cache.take();
        c = cache.take();
    }

    @Actor
    public void target() {
        cache.giveBack(a);
        cache.giveBack(b);
    }

    @Actor
    public void targetThenSender() {
        cache.giveBack(c);
        first = cache.take();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        MsgCarrier[] taken = {first, cache.take(), cache.take(), cache.take()};
        int mask = 0;
        for (MsgCarrier m : taken) {
            mask |= m == a ? 1 : m == b ? 2 : m == c ? 4 : 0;
        }
        r.r1 = first == a ? 1 : first == b ? 2 : first == c ? 3 : 0;
        r.r2 = Integer.bitCount(mask);
        // A carrier taken twice leaves no take for a new one: 0 here.
        r.r3 = cache.allocated() - 3;
    }
}

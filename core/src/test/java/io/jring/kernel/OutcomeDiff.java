package io.jring.kernel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Compares two runs of one {@link RandomProgram} without depending on what Linux leaves
 * undefined: the value of each submit; per user data, the sequence of (res, flags) of its
 * CQEs (a multishot request's CQEs come in order); and the order of each link chain's
 * CQEs (Linux runs a chain's members one after another). The order of independent
 * requests' CQEs is not compared.
 */
final class OutcomeDiff {
    private OutcomeDiff() {}

    /** Null when {@code a} and {@code b} agree, else what differs, one line per item. */
    static String between(RandomProgram program, ProgramRunner.Outcome a, ProgramRunner.Outcome b) {
        List<String> out = new ArrayList<>();
        if (!Objects.equals(a.error(), b.error())) {
            out.add("error: " + a.ring() + " " + a.error() + ", " + b.ring() + " " + b.error());
        }
        if (!a.submits().equals(b.submits())) {
            out.add("submits: " + a.ring() + " " + a.submits() + ", " + b.ring() + " " + b.submits());
        }
        Map<Long, List<String>> byUdA = byUserData(a.cqes());
        Map<Long, List<String>> byUdB = byUserData(b.cqes());
        TreeSet<Long> uds = new TreeSet<>(byUdA.keySet());
        uds.addAll(byUdB.keySet());
        for (long ud : uds) {
            List<String> x = byUdA.getOrDefault(ud, List.of());
            List<String> y = byUdB.getOrDefault(ud, List.of());
            if (!x.equals(y)) {
                out.add("ud " + ud + ": " + a.ring() + " " + x + ", " + b.ring() + " " + y);
            }
        }
        for (List<Long> chain : program.chains()) {
            List<Long> x = completionOrder(chain, a.cqes());
            List<Long> y = completionOrder(chain, b.cqes());
            if (x.size() == y.size() && !x.equals(y)) {
                out.add("chain " + chain + " completed in the order " + a.ring() + " " + x + ", " + b.ring() + " " + y);
            }
        }
        return out.isEmpty() ? null : String.join("\n", out);
    }

    private static Map<Long, List<String>> byUserData(List<CqeSpec> cqes) {
        Map<Long, List<String>> out = new LinkedHashMap<>();
        for (CqeSpec c : cqes) {
            String text = c.toString();
            // "{ud=5 res=... flags=...}" without the user data, which is the key.
            out.computeIfAbsent(c.userData(), k -> new ArrayList<>())
                    .add("{" + text.substring(text.indexOf(' ') + 1));
        }
        return out;
    }

    /** The chain's members in the order of their last CQE; members without a CQE left out. */
    private static List<Long> completionOrder(List<Long> chain, List<CqeSpec> cqes) {
        Map<Long, Integer> last = new LinkedHashMap<>();
        for (int i = 0; i < cqes.size(); i++) {
            long ud = cqes.get(i).userData();
            if (chain.contains(ud)) {
                last.put(ud, i);
            }
        }
        return last.entrySet().stream().sorted(Map.Entry.comparingByValue()).map(Map.Entry::getKey).toList();
    }
}

package io.jring.kernel;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.jring.Setup;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The anchor of issue 5: every {@link Scenarios} conversation runs on the kernel's own
 * io_uring ({@link KernelRing}, raw system calls through FFM) and on jring, on a plain ring
 * and on a DEFER_TASKRUN ring, and both CQE streams must be the one the scenario expects
 * (which makes them the same stream wherever Linux defines the order). A kernel run that
 * disagrees with its scenario means the scenario is wrong, and the failure says so; a
 * jring run that disagrees is a jring bug. A summary of how many runs match goes to stdout.
 *
 * <p>Skipped, with the reason, where the kernel's io_uring cannot be used
 * ({@code kernel.io_uring_disabled}, seccomp, ENOSYS).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class KernelCrossCheckTest {
    private static final Optional<String> KERNEL_UNAVAILABLE = KernelRing.unavailableReason();
    private static final int DEFER = Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN;

    @TempDir
    static Path dir;

    /** Per run: its label, and what differed on each side (null when it matched). */
    private record Result(String label, String kernelMismatch, String jringMismatch) {}

    private static final List<Result> RESULTS = new ArrayList<>();

    @TestFactory
    Stream<DynamicTest> eachScenarioGivesTheSameCqesOnTheKernelAndOnJring() {
        return Scenarios.all().stream().flatMap(s -> IntStream.of(s.ringKinds())
                .mapToObj(kind -> dynamicTest(label(s, kind), () -> crossCheck(s, kind))));
    }

    private static String label(Scenario s, int setup) {
        return (setup == DEFER ? "[DEFER_TASKRUN] " : setup == 0 ? "[plain] " : "[setup 0x"
                + Integer.toHexString(setup) + "] ") + s.name() + " (" + s.mirrors + ")";
    }

    private static void crossCheck(Scenario scenario, int setup) {
        assumeTrue(KERNEL_UNAVAILABLE.isEmpty(),
                () -> "kernel cross-check skipped: " + KERNEL_UNAVAILABLE.orElse(""));
        ScenarioRunner.Outcome kernel = ScenarioRunner.run(scenario, setup, RingDriver::kernel, dir);
        String kernelMismatch = ScenarioRunner.mismatch(scenario, kernel);
        ScenarioRunner.Outcome jring = ScenarioRunner.run(scenario, setup, RingDriver::jring, dir);
        String jringMismatch = ScenarioRunner.mismatch(scenario, jring);
        synchronized (RESULTS) {
            RESULTS.add(new Result(label(scenario, setup), kernelMismatch, jringMismatch));
        }
        assertNull(kernelMismatch, () -> "the kernel does not do what the scenario expects, so the scenario is"
                + " wrong (fix it in Scenarios):\n" + scenario.script() + kernelMismatch);
        assertNull(jringMismatch, () -> "jring differs from the kernel:\n" + scenario.script() + "  " + jring
                + "\n  " + kernel + "\n  " + jringMismatch);
    }

    @AfterAll
    static void printSummary() {
        if (KERNEL_UNAVAILABLE.isPresent()) {
            System.out.println("kernel cross-check: skipped, " + KERNEL_UNAVAILABLE.get());
            return;
        }
        synchronized (RESULTS) {
            long kernelOk = RESULTS.stream().filter(r -> r.kernelMismatch() == null).count();
            long bothOk = RESULTS.stream().filter(r -> r.kernelMismatch() == null && r.jringMismatch() == null)
                    .count();
            StringBuilder s = new StringBuilder("kernel cross-check: ").append(RESULTS.size())
                    .append(" runs of ").append(Scenarios.all().size()).append(" scenarios; the kernel gives the")
                    .append(" expected CQEs in ").append(kernelOk).append(", jring matches the kernel in ")
                    .append(bothOk).append('\n');
            for (Result r : RESULTS) {
                if (r.kernelMismatch() != null) {
                    s.append("  SCENARIO WRONG ").append(r.label()).append(": ").append(r.kernelMismatch())
                            .append('\n');
                } else if (r.jringMismatch() != null) {
                    s.append("  JRING DIFFERS  ").append(r.label()).append(": ").append(r.jringMismatch())
                            .append('\n');
                }
            }
            System.out.print(s);
        }
    }
}

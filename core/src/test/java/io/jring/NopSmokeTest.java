package io.jring;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

@Timeout(20)
class NopSmokeTest {
    @Test
    void nopInlineAndAsync() {
        try (IoUring ring = IoUring.open(8)) {
            ring.getSqe().prepNop().userData(1);
            ring.getSqe().prepNop().userData(2).flags(SqeFlags.ASYNC);
            assertEquals(2, ring.submitAndWait(2));
            List<Long> uds = new ArrayList<>();
            ring.forEachCqe((ud, res, fl) -> { assertEquals(0, res); uds.add(ud); });
            assertEquals(List.of(1L, 2L), uds);
        }
    }

    @Test
    void overflow() {
        try (IoUring ring = IoUring.builder().entries(4).cqEntries(4).build()) {
            int submitted = 0;
            for (int round = 0; round < 250; round++) {
                for (int i = 0; i < 4; i++) {
                    ring.getSqe().prepNop().userData(submitted++);
                }
                ring.submit();
            }
            long expect = 0;
            while (expect < 1000) {
                Cqe c = ring.waitCqe(Duration.ofSeconds(5));
                assertNotNull(c, "missing at " + expect);
                assertEquals(expect, c.userData());
                ring.cqeSeen(c);
                expect++;
            }
            assertNull(ring.peekCqe());
        }
    }
}

package io.jring.tool.report;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Mirrors {@link Rotation}. */
class RotationTest {

    @Test
    void everyConfigurationRunsOncePerRoundEachRoundStartingOneLater() {
        List<String> runs = new ArrayList<>();
        Rotation.run(4, List.of("a", "b", "c"), (round, index, config) -> runs.add(round + ":" + index + config));
        assertEquals(List.of("0:0a", "0:1b", "0:2c", "1:1b", "1:2c", "1:0a", "2:2c", "2:0a", "2:1b", "3:0a", "3:1b", "3:2c"),
                runs);
    }
}

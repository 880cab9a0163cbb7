package io.jring.tool.bench;

import io.jring.tool.echo.EchoBench;
import io.jring.tool.udp.UdpEchoBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * {@code jring bench}: the micro benchmarks, one small class each (BENCHMARKS.md "The tool").
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Micro benchmarks of the engine. Each prints a summary to read, or JSON lines with --output-format=json.",
        subcommands = {NopBench.class, TwaddBench.class, EchoBench.class, MsgRingBench.class, DiowriteBench.class,
                HeavyTwBench.class, ColdStartBench.class, VtBench.class, UdpEchoBench.class, NioBench.class})
public final class BenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** {@code jring bench} alone lists the benches. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }
}

package io.jring.tool.echo;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import static io.jring.tool.echo.EchoImpl.JRING;
import static io.jring.tool.echo.EchoImpl.JRING_MULTISHOT;
import static io.jring.tool.echo.EchoImpl.NETTY_EPOLL;
import static io.jring.tool.echo.EchoImpl.NETTY_IO_URING;
import static io.jring.tool.echo.EchoImpl.NIO2_JDK;
import static io.jring.tool.echo.EchoImpl.NIO2_JRING;

/**
 * {@code bench echo --compare[=SET]}: the servers that alternate round by round, and which
 * of them get ratios to which peers.
 */
enum EchoComparison {
    /** jring's engine servers against Netty's transports; jring-multishot also against classic jring. */
    NETTY("netty", List.of(NETTY_EPOLL, NETTY_IO_URING, JRING, JRING_MULTISHOT),
            List.of(new Ratios(JRING, List.of(NETTY_EPOLL, NETTY_IO_URING)),
                    new Ratios(JRING_MULTISHOT, List.of(NETTY_EPOLL, NETTY_IO_URING, JRING)))),
    /** One NIO.2 server on jring's provider against the same server on the JDK's (issue 21). */
    NIO2("nio2", List.of(NIO2_JDK, NIO2_JRING), List.of(new Ratios(NIO2_JRING, List.of(NIO2_JDK))));

    /** {@code mine}'s figures are given as ratios to each of {@code peers}'. */
    record Ratios(EchoImpl mine, List<EchoImpl> peers) {}

    private final String label;
    private final List<EchoImpl> servers;
    private final List<Ratios> ratios;

    EchoComparison(String label, List<EchoImpl> servers, List<Ratios> ratios) {
        this.label = label;
        this.servers = servers;
        this.ratios = ratios;
    }

    /** The servers, in the order of the first round. */
    List<EchoImpl> servers() {
        return servers;
    }

    /** Whose ratios are given, in the order they are printed. */
    List<Ratios> ratios() {
        return ratios;
    }

    /** The peers {@code impl} gets ratios to; empty when it gets none. */
    List<EchoImpl> peersOf(EchoImpl impl) {
        return ratios.stream().filter(r -> r.mine() == impl).findFirst().map(Ratios::peers).orElse(List.of());
    }

    @Override
    public String toString() {
        return label;
    }

    /** picocli converter for {@code --compare=SET}. */
    static final class Converter implements ITypeConverter<EchoComparison> {
        @Override
        public EchoComparison convert(String value) {
            String wanted = value.trim().toLowerCase(Locale.ROOT);
            for (EchoComparison c : values()) {
                if (c.label.equals(wanted)) {
                    return c;
                }
            }
            throw new TypeConversionException("--compare takes " + Arrays.stream(values()).map(c -> c.label)
                    .collect(Collectors.joining(" or ")) + ", got '" + value + "'");
        }
    }
}

package io.jring.tool.echo;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.Arrays;
import java.util.stream.Collectors;

/** {@code --impl}: which echo server runs, by the name the command line uses. */
public enum EchoImpl {
    JRING("jring"),
    /** jring the modern way: multishot RECV into a buffer ring (JringMultishotEchoServer). */
    JRING_MULTISHOT("jring-multishot"),
    NETTY_EPOLL("netty-epoll"),
    NETTY_IO_URING("netty-io_uring"),
    /** One NIO.2 echo server (Nio2EchoServer) on the JDK's AsynchronousChannelProvider... */
    NIO2_JDK("nio2-jdk"),
    /** ...and the same server on jring's (io.jring.nio): only the provider differs. */
    NIO2_JRING("nio2-jring");

    private final String label;

    EchoImpl(String label) {
        this.label = label;
    }

    /** The command-line name: jring, jring-multishot, netty-epoll, netty-io_uring, nio2-jdk, nio2-jring. */
    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }

    /** The impl named {@code label} (case-insensitive; '_' and '-' are interchangeable). */
    public static EchoImpl of(String label) {
        String wanted = label.trim().toLowerCase().replace('_', '-');
        for (EchoImpl impl : values()) {
            if (impl.label.replace('_', '-').equals(wanted)) {
                return impl;
            }
        }
        throw new IllegalArgumentException("unknown echo server '" + label + "'; expected one of "
                + Arrays.stream(values()).map(EchoImpl::label).collect(Collectors.joining(", ")));
    }

    /** picocli converter for {@code --impl}. */
    public static final class Converter implements ITypeConverter<EchoImpl> {
        @Override
        public EchoImpl convert(String value) {
            try {
                return of(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}

package io.jring.tool.echo;

/**
 * What an echo server runs with. {@code async}, {@code legacyAsync} and {@code maxUnbound}
 * are jring's (seed 003's experiment); {@code threads} is Netty's event-loop count.
 *
 * @param port       0 picks a free port
 * @param maxUnbound io-wq unbound worker cap; 0 leaves the ring's default
 */
public record EchoServerConfig(String host, int port, EchoImpl impl, boolean async, boolean legacyAsync,
                               int maxUnbound, int threads) {

    /** A server of {@code impl} on a free loopback port with default options. */
    public static EchoServerConfig loopback(EchoImpl impl) {
        return new EchoServerConfig("127.0.0.1", 0, impl, false, false, 0, 1);
    }
}

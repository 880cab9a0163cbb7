/**
 * jring: Linux io_uring's programming model in Java. Only {@code io.jring} and {@code io.jring.nio} are API; the engine
 * (io.jring.core, .sys, .tw, .iowq, .poll, .ops, .trace, .fault) is internal and not exported.
 * Run with {@code --enable-native-access=io.jring}.
 */
module io.jring {
    requires jdk.jfr;
    // com.sun.nio.file.ExtendedOpenOption.DIRECT, which io.jring.nio's file channels take.
    requires jdk.unsupported;

    exports io.jring;
    exports io.jring.nio;

    // Java's asynchronous channels on jring rings: AsynchronousChannelProvider.provider()
    // finds it here (or in META-INF/services on the class path) unless a system property names another.
    provides java.nio.channels.spi.AsynchronousChannelProvider with io.jring.nio.JringAsynchronousChannelProvider;
}

package io.jring.nio;

import java.io.IOException;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.IllegalChannelGroupException;
import java.nio.channels.spi.AsynchronousChannelProvider;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;

/**
 * jring's {@link AsynchronousChannelProvider}: channel groups on jring rings
 * ({@link JringAsynchronousChannelGroup}). Chosen for the whole JVM with
 * {@code -Djava.nio.channels.spi.AsynchronousChannelProvider=io.jring.nio.JringAsynchronousChannelProvider};
 * its socket channels are {@link JringAsynchronousSocketChannel} and
 * {@link JringAsynchronousServerSocketChannel}; {@link JringAsynchronousFileChannel} uses the same groups.
 *
 * <p>The default group (used when a channel is opened without a group or executor) has
 * {@code min(4, availableProcessors)} rings on daemon threads, made on first use; like the
 * JDK's, it cannot be shut down.
 */
public final class JringAsynchronousChannelProvider extends AsynchronousChannelProvider {
    private static final class Holder {
        static final JringAsynchronousChannelProvider INSTANCE = new JringAsynchronousChannelProvider();
    }

    /** Made on first use; written once under this provider's monitor, read volatile. */
    private volatile JringAsynchronousChannelGroup defaultGroup;

    /** The provider; the JDK calls this constructor when the system property names this class. */
    public JringAsynchronousChannelProvider() {
    }

    /** {@return the provider that {@link JringAsynchronousFileChannel} and groups opened directly use} */
    public static JringAsynchronousChannelProvider instance() {
        // The JVM's provider when it is this class (chosen by the system property), so that
        // every jring group of the JVM has the same provider.
        return AsynchronousChannelProvider.provider() instanceof JringAsynchronousChannelProvider p ? p : Holder.INSTANCE;
    }

    /** {@return this provider's default group, made on first use} */
    JringAsynchronousChannelGroup defaultGroup() {
        JringAsynchronousChannelGroup g = defaultGroup;
        if (g == null) {
            synchronized (this) {
                g = defaultGroup;
                if (g == null) {
                    int n = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
                    g = JringAsynchronousChannelGroup.create(this, n,
                            JringAsynchronousChannelGroup.namedThreads(true), null, true);
                    defaultGroup = g;
                }
            }
        }
        return g;
    }

    @Override
    public AsynchronousChannelGroup openAsynchronousChannelGroup(int nThreads, ThreadFactory threadFactory)
            throws IOException {
        if (nThreads <= 0) {
            throw new IllegalArgumentException("'nThreads' must be > 0");
        }
        return JringAsynchronousChannelGroup.create(this, nThreads, threadFactory, null, false);
    }

    @Override
    public AsynchronousChannelGroup openAsynchronousChannelGroup(ExecutorService executor, int initialSize)
            throws IOException {
        int cpus = Runtime.getRuntime().availableProcessors();
        int n = initialSize <= 0 ? Math.min(4, cpus) : Math.min(initialSize, cpus);
        return JringAsynchronousChannelGroup.create(this, Math.max(1, n),
                JringAsynchronousChannelGroup.namedThreads(true), executor, false);
    }

    @Override
    public AsynchronousServerSocketChannel openAsynchronousServerSocketChannel(AsynchronousChannelGroup group)
            throws IOException {
        return JringAsynchronousServerSocketChannel.open(groupOf(group));
    }

    @Override
    public AsynchronousSocketChannel openAsynchronousSocketChannel(AsynchronousChannelGroup group)
            throws IOException {
        return JringAsynchronousSocketChannel.open(groupOf(group));
    }

    /** The jring group a channel opened with {@code group} uses (null: the default group). */
    JringAsynchronousChannelGroup groupOf(AsynchronousChannelGroup group) {
        if (group == null) {
            return defaultGroup();
        }
        if (!(group instanceof JringAsynchronousChannelGroup g)) {
            throw new IllegalChannelGroupException();
        }
        return g;
    }
}

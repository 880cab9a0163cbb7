package io.jring.tool.udp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/** The alternative: a blocking JDK {@link DatagramChannel}, receive then send, one datagram at a time. */
final class JdkUdpEchoServer extends UdpEchoServer {
    private final DatagramChannel channel;

    JdkUdpEchoServer(InetSocketAddress bind) throws IOException {
        channel = DatagramChannel.open().bind(bind);
    }

    @Override
    InetSocketAddress address() {
        try {
            return (InetSocketAddress) channel.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    void serve() throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(65536);
        while (!stop) {
            buf.clear();
            SocketAddress from = channel.receive(buf);
            buf.flip();
            channel.send(buf, from);
        }
    }

    /** Closing the channel ends a blocked receive (AsynchronousCloseException, ignored once stopping). */
    @Override
    void wake() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    void release() {
        wake();
    }
}

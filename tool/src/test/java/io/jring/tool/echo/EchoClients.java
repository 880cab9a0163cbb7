package io.jring.tool.echo;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** Plain blocking-socket echo checks the server tests share. */
final class EchoClients {
    private EchoClients() {}

    static Socket connect(InetSocketAddress address) throws IOException {
        Socket s = new Socket();
        s.connect(address, 5_000);
        s.setSoTimeout(10_000);
        s.setTcpNoDelay(true);
        return s;
    }

    /** Sends {@code message} and checks the server sends exactly it back. */
    static void assertEchoes(Socket s, byte[] message) throws IOException {
        s.getOutputStream().write(message);
        s.getOutputStream().flush();
        assertArrayEquals(message, readFully(s.getInputStream(), message.length));
    }

    static byte[] readFully(InputStream in, int n) throws IOException {
        byte[] got = new byte[n];
        int off = 0;
        while (off < n) {
            int k = in.read(got, off, n - off);
            if (k < 0) {
                throw new IOException("end of stream after " + off + " of " + n + " bytes: "
                        + Arrays.toString(Arrays.copyOf(got, off)));
            }
            off += k;
        }
        return got;
    }

    static byte[] pattern(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }
}

package io.jring.tool.echo;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Mirrors {@link ListeningLine}: the line a parent parses to find the child server's port. */
class ListeningLineTest {

    @Test
    void ipv4RoundTrips() {
        InetSocketAddress a = new InetSocketAddress("127.0.0.1", 40123);
        assertEquals("listening on 127.0.0.1:40123", ListeningLine.format(a));
        assertEquals(a, ListeningLine.parse(ListeningLine.format(a)));
    }

    @Test
    void ipv6IsBracketed() {
        InetSocketAddress a = new InetSocketAddress("::1", 5000);
        String line = ListeningLine.format(a);
        assertEquals("listening on [0:0:0:0:0:0:0:1]:5000", line);
        assertEquals(a, ListeningLine.parse(line));
        assertEquals(a, ListeningLine.parse("listening on [::1]:5000"));
    }

    @Test
    void otherLinesAreNotListeningLines() {
        assertNull(ListeningLine.parse(null));
        assertNull(ListeningLine.parse(""));
        assertNull(ListeningLine.parse("WARNING: listening on 127.0.0.1:1"));
        assertNull(ListeningLine.parse("listening on 127.0.0.1"));
        assertNull(ListeningLine.parse("listening on 127.0.0.1:"));
        assertNull(ListeningLine.parse("listening on 127.0.0.1:0"));
        assertNull(ListeningLine.parse("listening on 127.0.0.1:65536"));
        assertNull(ListeningLine.parse("listening on 127.0.0.1:http"));
    }

    @Test
    void hostNamesAreRefusedWithoutALookup() {
        assertNull(ListeningLine.parse("listening on localhost:80"));
        assertNull(ListeningLine.parse("listening on dead:80"));
        assertNull(ListeningLine.parse("listening on [example.com]:80"));
    }

    @Test
    void trailingSpaceIsTolerated() {
        assertEquals(new InetSocketAddress("10.1.2.3", 9), ListeningLine.parse("listening on 10.1.2.3:9  "));
    }
}

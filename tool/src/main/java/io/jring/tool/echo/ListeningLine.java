package io.jring.tool.echo;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * The one line {@code jring echo-server} prints when it is ready: {@code listening on
 * 127.0.0.1:40123} (IPv6 in brackets: {@code listening on [::1]:40123}). A parent process
 * reads it to learn the port the server bound.
 */
public final class ListeningLine {

    static final String PREFIX = "listening on ";

    private ListeningLine() {}

    public static String format(InetSocketAddress address) {
        String host = address.getAddress().getHostAddress();
        return PREFIX + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + address.getPort();
    }

    /** The address in a listening line, or null if {@code line} is not one. */
    public static InetSocketAddress parse(String line) {
        if (line == null || !line.startsWith(PREFIX)) {
            return null;
        }
        String rest = line.substring(PREFIX.length()).trim();
        int colon = rest.lastIndexOf(':');
        if (colon <= 0 || colon == rest.length() - 1) {
            return null;
        }
        String host = rest.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(rest.substring(colon + 1));
        } catch (NumberFormatException e) {
            return null;
        }
        if (port < 1 || port > 65535 || !isIpLiteral(host)) {
            return null;
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /**
     * A dotted IPv4 address, or an IPv6 one (has a colon; hex digits, colons and dots only),
     * so {@link InetAddress#getByName} never does a name lookup.
     */
    private static boolean isIpLiteral(String host) {
        if (host.indexOf(':') < 0) {
            return host.matches("\\d{1,3}(\\.\\d{1,3}){3}");
        }
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (Character.digit(c, 16) < 0 && c != '.' && c != ':') {
                return false;
            }
        }
        return true;
    }
}

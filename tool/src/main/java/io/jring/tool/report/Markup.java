package io.jring.tool.report;

import java.util.Locale;

/** Text and numbers as they go into the report's XHTML and SVG: escaped, locale-independent. */
final class Markup {
    private Markup() {}

    /** {@code s} with the five XML specials escaped, safe in text and in quoted attributes. */
    static String text(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> {
                    // XML 1.0 forbids most control characters even as references: drop them.
                    if (c >= 0x20 || c == '\n' || c == '\t') {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    /** A coordinate with one decimal: 12.3. */
    static String px(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}

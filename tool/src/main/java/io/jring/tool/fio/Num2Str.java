package io.jring.tool.fio;

import java.util.Locale;

/**
 * fio's {@code num2str}: a number in at most {@code maxlen} digits with an SI (k, M, G) or
 * IEC (Ki, Mi, Gi) prefix, e.g. 87300 -> "87.3k", 357913941 B/s -> "341MiB/s", with fio's
 * "carry rounding". fio prints IOPS, bandwidth and sizes through it with 4 significant
 * figures, and latency min/max with 6.
 */
final class Num2Str {
    private Num2Str() {}

    static final String NONE = "";
    static final String BYTE = "B";
    static final String BYTE_PER_SEC = "B/s";

    private static final String[] SI = {"", "k", "M", "G", "T", "P", "E"};
    private static final String[] IEC = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};

    /** fio's default sig_figs for IOPS, bandwidth and sizes. */
    static String of(long num, boolean pow2, String unit) {
        return of(num, 4, 1, pow2, unit);
    }

    static String of(long num, int maxlen, int base, boolean pow2, String unit) {
        String[] prefix = pow2 ? IEC : SI;
        int thousand = pow2 ? 1024 : 1000;
        int post = 0;
        for (; base > 1; post++) {
            base /= thousand;
        }
        long modulo = -1;
        boolean carry = false;
        while (post < prefix.length) {
            if (Long.toUnsignedString(num).length() <= maxlen) {
                break;
            }
            modulo = Long.remainderUnsigned(num, thousand);
            num = Long.divideUnsigned(num, thousand);
            carry = modulo >= thousand / 2;
            post++;
        }
        if (post >= prefix.length) {
            post = 0;
        }
        if (modulo == -1) {
            return Long.toUnsignedString(num) + prefix[post] + unit;
        }
        int digits = Long.toUnsignedString(num).length();
        if (maxlen - digits <= 1) {
            if (carry) {
                num++;
            }
            return Long.toUnsignedString(num) + prefix[post] + unit;
        }
        String fraction = String.format(Locale.ROOT, "%." + (maxlen - digits - 1) + "f", (double) modulo / thousand);
        if (fraction.charAt(0) == '1') {
            num++;
        }
        return Long.toUnsignedString(num) + "." + fraction.substring(2) + prefix[post] + unit;
    }
}

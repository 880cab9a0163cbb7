package io.jring.tool.fio;

import picocli.CommandLine.ITypeConverter;

/**
 * fio's {@code size}: bytes ({@code 256m}), or a percentage of the file ({@code 50%}, fio's
 * size_percent): the job then works on that share of the existing file's size, no more than
 * what lies after its offset, rounded down to the smallest block size (fio's setup_files).
 *
 * @param bytes   the size in bytes; 0 with a percentage, or when not given
 * @param percent 1..100, or 0 for a size in bytes
 */
record RegionSize(long bytes, int percent) {

    /** The region of a file of {@code fileSize} bytes from {@code offset}, for a percentage. */
    long ofFile(long fileSize, long offset, int minBs) {
        long share = fileSize / 100 * percent + fileSize % 100 * percent / 100;   // fio: size * percent / 100
        long region = Math.min(share, fileSize - offset);
        return region - region % minBs;
    }

    /** picocli converter for {@code --size}. */
    static final class Converter implements ITypeConverter<RegionSize> {
        @Override
        public RegionSize convert(String value) {
            String s = value.trim();
            if (!s.endsWith("%")) {
                return new RegionSize(FioUnits.parseSize(s), 0);
            }
            int pct;
            try {
                pct = Integer.parseInt(s.substring(0, s.length() - 1).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + value + "' is not a percentage (1% to 100%)");
            }
            if (pct < 1 || pct > 100) {
                throw new IllegalArgumentException("'" + value + "' is not a percentage (1% to 100%)");
            }
            return new RegionSize(0, pct);
        }
    }
}

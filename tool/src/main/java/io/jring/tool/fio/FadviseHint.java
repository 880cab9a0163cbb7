package io.jring.tool.fio;

import java.util.Locale;

/**
 * fio's {@code fadvise_hint}: the posix_fadvise(2) advice given at every open of a job's file
 * (fio's {@code td_io_open_file}). {@code 1} (the default) advises by the pattern: random
 * I/O gets POSIX_FADV_RANDOM, which turns readahead off, sequential I/O gets
 * POSIX_FADV_SEQUENTIAL; {@code 0} gives none.
 */
enum FadviseHint {
    NONE("0"), TYPE("1"), RANDOM("random"), SEQUENTIAL("sequential"), NOREUSE("noreuse");

    private final String fioName;

    FadviseHint(String fioName) {
        this.fioName = fioName;
    }

    /** The advice for a job of pattern {@code rw}, or -1 for none. */
    int advice(Rw rw) {
        return switch (this) {
            case NONE -> -1;
            case TYPE -> rw.isRandom() ? Fadvise.RANDOM : Fadvise.SEQUENTIAL;
            case RANDOM -> Fadvise.RANDOM;
            case SEQUENTIAL -> Fadvise.SEQUENTIAL;
            case NOREUSE -> Fadvise.NOREUSE;
        };
    }

    static FadviseHint parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        for (FadviseHint h : values()) {
            if (h.fioName.equals(s)) {
                return h;
            }
        }
        return switch (s) {
            case "false", "no", "off" -> NONE;
            case "true", "yes", "on" -> TYPE;
            default -> throw new IllegalArgumentException("'" + text + "' is not an fadvise_hint: use 0, 1, random, sequential or noreuse");
        };
    }

    @Override
    public String toString() {
        return fioName;
    }

    /** picocli converter for {@code --fadvise_hint}. */
    static final class Converter implements picocli.CommandLine.ITypeConverter<FadviseHint> {
        @Override
        public FadviseHint convert(String value) {
            return parse(value);
        }
    }
}

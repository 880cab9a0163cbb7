package io.jring.tool.fio;

import picocli.CommandLine.ITypeConverter;

import java.util.Locale;

/**
 * fio's {@code --rw}: the I/O pattern of a job. Mixed patterns split reads and writes by
 * {@code --rwmixread} percent.
 */
public enum Rw {
    READ("read", false, true, false),
    WRITE("write", false, false, true),
    RANDREAD("randread", true, true, false),
    RANDWRITE("randwrite", true, false, true),
    /** Sequential mixed reads and writes; fio also spells it {@code readwrite}. */
    RW("rw", false, true, true),
    RANDRW("randrw", true, true, true);

    private final String fioName;
    private final boolean random;
    private final boolean reads;
    private final boolean writes;

    Rw(String fioName, boolean random, boolean reads, boolean writes) {
        this.fioName = fioName;
        this.random = random;
        this.reads = reads;
        this.writes = writes;
    }

    public String fioName() {
        return fioName;
    }

    public boolean isRandom() {
        return random;
    }

    public boolean hasReads() {
        return reads;
    }

    public boolean hasWrites() {
        return writes;
    }

    public boolean isMixed() {
        return reads && writes;
    }

    public static Rw parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.equals("readwrite")) {
            return RW;
        }
        for (Rw rw : values()) {
            if (rw.fioName.equals(s)) {
                return rw;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not an rw mode: read, write, randread, randwrite, rw (readwrite), randrw");
    }

    @Override
    public String toString() {
        return fioName;
    }

    /** picocli converter for {@code --rw}. */
    public static final class Converter implements ITypeConverter<Rw> {
        @Override
        public Rw convert(String value) {
            return parse(value);
        }
    }
}

package io.jring.tool.bench;

import io.jring.TaskWorkKind;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Task-work list strategies to measure: {@code all}, one kind, or a list such as
 * {@code MPSC,LOCKED} (case-insensitive). Kept in {@link TaskWorkKind} order.
 */
public record KindSet(List<TaskWorkKind> kinds) {

    public KindSet {
        kinds = List.copyOf(kinds);
    }

    public static KindSet all() {
        return new KindSet(List.of(TaskWorkKind.values()));
    }

    public static KindSet parse(String text) {
        String s = text.strip();
        if (s.equalsIgnoreCase("all")) {
            return all();
        }
        boolean[] chosen = new boolean[TaskWorkKind.values().length];
        for (String part : s.split(",")) {
            String name = part.strip().toUpperCase(Locale.ROOT);
            try {
                chosen[TaskWorkKind.valueOf(name).ordinal()] = true;
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("unknown kind '" + part.strip() + "'; the kinds are "
                        + List.of(TaskWorkKind.values()));
            }
        }
        List<TaskWorkKind> out = new ArrayList<>();
        for (TaskWorkKind k : TaskWorkKind.values()) {
            if (chosen[k.ordinal()]) {
                out.add(k);
            }
        }
        return new KindSet(out);
    }

    public boolean contains(TaskWorkKind k) {
        return kinds.contains(k);
    }

    /** As it is written on the command line: {@code all}, or the kinds separated by commas. */
    @Override
    public String toString() {
        if (kinds.size() == TaskWorkKind.values().length) {
            return "all";
        }
        StringBuilder sb = new StringBuilder();
        for (TaskWorkKind k : kinds) {
            sb.append(sb.isEmpty() ? "" : ",").append(k.name());
        }
        return sb.toString();
    }

    /** picocli converter. */
    public static final class Converter implements ITypeConverter<KindSet> {
        @Override
        public KindSet convert(String value) {
            return parse(value);
        }
    }
}

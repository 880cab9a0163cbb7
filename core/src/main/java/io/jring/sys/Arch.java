package io.jring.sys;

/**
 * The CPU architectures jring runs on. Struct layouts ({@code epoll_event}, {@code stat}) and
 * raw syscall numbers differ between them; everything else in libc is found by symbol name.
 */
public enum Arch {
    X86_64,
    AARCH64;

    /** The architecture of this JVM; class initialisation fails on any other. */
    public static final Arch CURRENT = detect();

    private static Arch detect() {
        String arch = System.getProperty("os.arch");
        return switch (arch) {
            case "amd64", "x86_64" -> X86_64;
            case "aarch64", "arm64" -> AARCH64;
            default -> throw new UnsupportedOperationException(
                    "jring supports Linux on x86_64 and aarch64, not os.arch=" + arch);
        };
    }
}

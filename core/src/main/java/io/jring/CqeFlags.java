package io.jring;

/** CQE flags ({@code IORING_CQE_F_*}), Linux bit values. */
public final class CqeFlags {
    private CqeFlags() {}

    /** The upper 16 bits of the flags hold the selected buffer id. */
    public static final int BUFFER = 1;
    /** More CQEs will follow for this (multishot) request. */
    public static final int MORE = 2;
    /** The socket still has data after this receive. */
    public static final int SOCK_NONEMPTY = 4;
    /** Shift of the buffer id inside the flags. */
    public static final int BUFFER_SHIFT = 16;

    /**
     * The buffer id carried by flags that have {@link #BUFFER}.
     *
     * @param flags a CQE's flags
     * @return the id of the provided buffer the request used
     */
    public static int bufferId(int flags) {
        return flags >>> BUFFER_SHIFT;
    }
}

package io.jring;

/**
 * {@link Sqe}'s prep methods for requests about other requests and rings: POLL_ADD and
 * POLL_REMOVE, TIMEOUT and its removal and update, LINK_TIMEOUT, ASYNC_CANCEL, MSG_RING.
 */
abstract sealed class SqeControlPreps extends SqeFilePreps permits SqeNetPreps {
    SqeControlPreps() {}

    /**
     * POLL_ADD, one-shot: completes once the file is ready; the result is the ready {@link Poll} mask.
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param pollMask {@link Poll} bits to wait for (ERR, HUP, NVAL and RDHUP are always reported)
     * @return this SQE
     */
    public Sqe prepPollAdd(int fd, int pollMask) {
        rw(Opcode.POLL_ADD, fd, null, 0, 0);
        opFlags = pollMask;
        return self();
    }

    /**
     * POLL_ADD, multishot: a CQE with {@link CqeFlags#MORE} for each readiness, until removed or
     * cancelled (the last CQE has no MORE).
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param pollMask {@link Poll} bits to wait for
     * @return this SQE
     */
    public Sqe prepPollMultishot(int fd, int pollMask) {
        prepPollAdd(fd, pollMask);
        len = Sqe.POLL_ADD_MULTI;
        return self();
    }

    /**
     * POLL_REMOVE: removes the POLL_ADD with that user data (it completes -ECANCELED; this SQE 0,
     * or -ENOENT if none is armed).
     *
     * @param targetUserData the POLL_ADD's user data
     * @return this SQE
     */
    public Sqe prepPollRemove(long targetUserData) {
        rw(Opcode.POLL_REMOVE, -1, null, 0, 0);
        addr2 = targetUserData;
        return self();
    }

    /**
     * TIMEOUT: completes -ETIME when the time comes, or 0 once {@code count} other CQEs were posted.
     *
     * @param nanos relative nanoseconds, or an absolute time with {@link Timeout#ABS}
     * @param count the CQEs that complete it early; 0: only the time counts
     * @param timeoutFlags {@link Timeout} bits
     * @return this SQE
     */
    public Sqe prepTimeout(long nanos, int count, int timeoutFlags) {
        rw(Opcode.TIMEOUT, -1, null, 1, count);
        opFlags = timeoutFlags;
        addr2 = nanos;
        return self();
    }

    /**
     * TIMEOUT_REMOVE: removes the TIMEOUT with that user data (it completes -ECANCELED; this SQE 0,
     * or -ENOENT if none is pending).
     *
     * @param targetUserData the TIMEOUT's user data
     * @return this SQE
     */
    public Sqe prepTimeoutRemove(long targetUserData) {
        rw(Opcode.TIMEOUT_REMOVE, -1, null, 0, 0);
        addr2 = targetUserData;
        return self();
    }

    /**
     * TIMEOUT_REMOVE that updates instead of removing (liburing's io_uring_prep_timeout_update):
     * the TIMEOUT with {@code targetUserData} (with {@code Timeout.LINK_TIMEOUT_UPDATE}: the
     * armed LINK_TIMEOUT) now expires after {@code nanos} (absolute with {@code Timeout.ABS}).
     * {@code Timeout.UPDATE} is always added, as liburing does.
     *
     * @param targetUserData the user data of the TIMEOUT or LINK_TIMEOUT
     * @param nanos its new expiry
     * @param timeoutFlags {@link Timeout} bits
     * @return this SQE
     */
    public Sqe prepTimeoutUpdate(long targetUserData, long nanos, int timeoutFlags) {
        rw(Opcode.TIMEOUT_REMOVE, -1, null, 0, 0);
        addr2 = targetUserData;
        addr3 = nanos;
        opFlags = timeoutFlags | Timeout.UPDATE;
        return self();
    }

    /**
     * LINK_TIMEOUT: bounds the SQE linked just before it (with {@link SqeFlags#IO_LINK}): on expiry
     * that SQE is cancelled and this one completes -ETIME; if that SQE finishes first, this one
     * completes -ECANCELED.
     *
     * @param nanos relative nanoseconds, or an absolute time with {@link Timeout#ABS}
     * @param timeoutFlags {@link Timeout} bits
     * @return this SQE
     */
    public Sqe prepLinkTimeout(long nanos, int timeoutFlags) {
        rw(Opcode.LINK_TIMEOUT, -1, null, 1, 0);
        opFlags = timeoutFlags;
        addr2 = nanos;
        return self();
    }

    /**
     * ASYNC_CANCEL by user data: the target completes -ECANCELED; this SQE 0 (with {@link Cancel#ALL}
     * or {@link Cancel#ANY}: the count), -ENOENT if nothing matched, -EALREADY if the target is
     * running and cannot be stopped.
     *
     * @param targetUserData the user data to match
     * @param cancelFlags {@link Cancel} bits
     * @return this SQE
     */
    public Sqe prepCancel(long targetUserData, int cancelFlags) {
        rw(Opcode.ASYNC_CANCEL, -1, null, 0, 0);
        addr2 = targetUserData;
        opFlags = cancelFlags;
        return self();
    }

    /**
     * ASYNC_CANCEL of the requests on a descriptor ({@link Cancel#FD} is added).
     *
     * @param fd the descriptor, or with {@link Cancel#FD_FIXED} a fixed-file slot
     * @param cancelFlags {@link Cancel} bits
     * @return this SQE
     */
    public Sqe prepCancelFd(int fd, int cancelFlags) {
        rw(Opcode.ASYNC_CANCEL, fd, null, 0, 0);
        opFlags = cancelFlags | Cancel.FD;
        return self();
    }

    /**
     * MSG_RING: posts a CQE to {@code target} with {@code res = len} and {@code userData = data};
     * this SQE's own CQE is 0 or -errno (-EBADFD: the target is closed). The target may be
     * owned by another thread.
     *
     * @param target the ring that gets the CQE (may be this ring)
     * @param len the target CQE's result
     * @param data the target CQE's user data
     * @param msgFlags {@link MsgRing} flags
     * @return this SQE
     */
    public Sqe prepMsgRing(IoUring target, int len, long data, int msgFlags) {
        rw(Opcode.MSG_RING, -1, null, len, data);
        opFlags = msgFlags;
        addr2 = MsgRing.DATA;
        arg = target;
        return self();
    }

    /**
     * MSG_RING with {@link MsgRing#FLAGS_PASS}: the target CQE carries {@code cqeFlags}.
     *
     * @param target the ring that gets the CQE
     * @param len the target CQE's result
     * @param data the target CQE's user data
     * @param msgFlags {@link MsgRing} flags (FLAGS_PASS is added)
     * @param cqeFlags the target CQE's flags
     * @return this SQE
     */
    public Sqe prepMsgRingCqeFlags(IoUring target, int len, long data, int msgFlags, int cqeFlags) {
        prepMsgRing(target, len, data, msgFlags | MsgRing.FLAGS_PASS);
        fileIndex = cqeFlags;
        return self();
    }

    /**
     * MSG_RING SEND_FD: moves this ring's fixed file {@code srcFixedIndex} into the target's fixed slot
     * {@code dstFixedIndex} (both 0-based; the SQE's file index is the slot + 1, as liburing's
     * io_uring_prep_msg_ring_fd writes it). The target gets a CQE with {@code userData = data}
     * unless {@link MsgRing#CQE_SKIP}; this SQE completes when the file is installed, with the install's result.
     *
     * @param target another ring, with a registered file table
     * @param srcFixedIndex the slot in this ring's table
     * @param dstFixedIndex the slot in the target's table
     * @param data the target CQE's user data
     * @param msgFlags {@link MsgRing} flags
     * @return this SQE
     */
    public Sqe prepMsgRingFd(IoUring target, int srcFixedIndex, int dstFixedIndex, long data, int msgFlags) {
        rw(Opcode.MSG_RING, -1, null, 0, data);
        opFlags = msgFlags;
        addr2 = MsgRing.SEND_FD;
        addr3 = srcFixedIndex;
        fileIndex = dstFixedIndex + 1;
        arg = target;
        return self();
    }

    /**
     * SEND_FD into any free slot of the target's table ({@link Sqe#FILE_INDEX_ALLOC}): both CQEs carry
     * the slot.
     *
     * @param target another ring, with a registered file table
     * @param srcFixedIndex the slot in this ring's table
     * @param data the target CQE's user data
     * @param msgFlags {@link MsgRing} flags
     * @return this SQE
     */
    public Sqe prepMsgRingFdAlloc(IoUring target, int srcFixedIndex, long data, int msgFlags) {
        prepMsgRingFd(target, srcFixedIndex, 0, data, msgFlags);
        fileIndex = Sqe.FILE_INDEX_ALLOC;
        return self();
    }
}

package io.jring.kernel;

import java.lang.foreign.MemorySegment;

/**
 * What a scenario needs of an SQE, with jring's {@link io.jring.Sqe} names and arguments, so
 * one {@link SqeSpec} can be written into a jring SQE ({@link JringRing}) and into a kernel SQE
 * ({@link KernelSqe}) alike. Each {@code prep*} resets the slot first.
 */
public interface SqeWriter {
    SqeWriter prepNop();

    SqeWriter prepRead(int fd, MemorySegment buf, long offset);

    SqeWriter prepWrite(int fd, MemorySegment buf, long offset);

    SqeWriter prepReadv(int fd, MemorySegment[] bufs, long offset);

    SqeWriter prepWritev(int fd, MemorySegment[] bufs, long offset);

    SqeWriter prepFsync(int fd, int fsyncFlags);

    SqeWriter prepClose(int fd);

    SqeWriter prepPollAdd(int fd, int pollMask);

    SqeWriter prepPollMultishot(int fd, int pollMask);

    SqeWriter prepPollRemove(long targetUserData);

    SqeWriter prepTimeout(long nanos, int count, int timeoutFlags);

    SqeWriter prepTimeoutRemove(long targetUserData);

    SqeWriter prepLinkTimeout(long nanos, int timeoutFlags);

    SqeWriter prepTimeoutUpdate(long targetUserData, long nanos, int timeoutFlags);

    SqeWriter prepCancel(long targetUserData, int cancelFlags);

    SqeWriter prepCancelFd(int fd, int cancelFlags);

    SqeWriter prepRecv(int fd, MemorySegment buf, int msgFlags);

    SqeWriter prepSend(int fd, MemorySegment buf, int msgFlags);

    SqeWriter prepProvideBuffers(MemorySegment region, int bufLen, int count, int groupId, int firstBid);

    SqeWriter prepRemoveBuffers(int count, int groupId);

    SqeWriter userData(long userData);

    SqeWriter flags(int sqeFlags);

    SqeWriter bufferGroup(int groupId);

    SqeWriter len(int len);

    SqeWriter opcode(int opcode);

    /** The SQE's op-flags word (rw_flags, msg_flags...). */
    SqeWriter opFlags(int opFlags);
}

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

    // Raw fields and ops for PrepIssueScenarios: each side writes the field where its own
    // SQE keeps it (same names as jring's Sqe setters).

    SqeWriter fd(int fd);

    SqeWriter off(long off);

    SqeWriter addr(MemorySegment addr);

    SqeWriter opFlags(int opFlags);

    SqeWriter ioprio(int ioprio);

    SqeWriter bufIndex(int bufIndex);

    SqeWriter fileIndex(int fileIndex);

    SqeWriter addr3(long addr3);

    SqeWriter prepOpenat(int dirfd, String path, int openFlags, int mode);

    SqeWriter prepSocket(int domain, int type, int protocol);

    /** MSG_RING DATA to the ring this SQE belongs to. */
    SqeWriter prepMsgRingSelf(int len, long data, int msgFlags);

    /** MSG_RING DATA to a descriptor that is no ring (jring: a target that is no IoUring). */
    SqeWriter prepMsgRingToDescriptor(int fd, int len, long data, int msgFlags);

    /** The MSG_RING command (jring: addr2, the kernel: addr). */
    SqeWriter msgRingCommand(int cmd);

    // Socket setup, fixed-file sockets, splice and tee (issue 23, BindListenScenarios and
    // SpliceScenarios): liburing's io_uring_prep_* layouts.

    SqeWriter prepBind(int fd, MemorySegment addr, int addrlen);

    SqeWriter prepListen(int fd, int backlog);

    SqeWriter prepConnect(int fd, MemorySegment addr, int addrlen);

    SqeWriter prepAccept(int fd, int acceptFlags);

    SqeWriter prepShutdown(int fd, int how);

    SqeWriter prepSplice(int fdIn, long offIn, int fdOut, long offOut, int nbytes, int spliceFlags);

    SqeWriter prepTee(int fdIn, int fdOut, int nbytes, int spliceFlags);

    SqeWriter prepFtruncate(int fd, long length);

    /** The kernel's addr2 (one field with off there; jring's own addr2 field). */
    SqeWriter addr2(long addr2);
}

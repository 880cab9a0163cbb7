/**
 * jring's public API: Linux io_uring's programming model in Java.
 *
 * <p>An {@link io.jring.IoUring} is a ring: the application takes submission queue entries
 * ({@link io.jring.Sqe}) with {@link io.jring.IoUring#getSqe()}, prepares each with a
 * {@code prep*} method (named after liburing's {@code io_uring_prep_*}), submits them with
 * {@link io.jring.IoUring#submit()} and reads one completion queue entry ({@link io.jring.Cqe})
 * per request. Opcodes, flag bits and errno values are Linux's (constant holders
 * {@link io.jring.Opcode}, {@link io.jring.SqeFlags}, {@link io.jring.CqeFlags},
 * {@link io.jring.Errno}, ...), and so are the semantics: links, drain, timeouts, cancel,
 * MSG_RING, multishot requests, provided buffers, registered files and buffers.
 *
 * <p>A request's failure is data: a CQE whose result is {@code -errno}. A misuse of the API is
 * an {@link io.jring.IoUringException} carrying the errno Linux would return. {@link io.jring.Fds}
 * creates the plain descriptors (files, pipes, sockets) a ring works on.
 *
 * <p>Buffers are native {@link java.lang.foreign.MemorySegment}s that must stay alive until
 * their CQE. The library calls native code through the Foreign Function and Memory API: run
 * with {@code --enable-native-access=io.jring} (module path) or
 * {@code --enable-native-access=ALL-UNNAMED} (class path).
 */
package io.jring;

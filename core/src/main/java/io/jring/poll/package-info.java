/**
 * Readiness: each task's epoll waiter and the waits armed in it (Linux's poll wait queues
 * and the task's sleep; the request side, io_uring/poll.c, is {@code io.jring.core.PollArming}).
 *
 * <ul>
 * <li>{@link io.jring.poll.Poller}: one per task context, where its owner sleeps when it
 *     has armed waits (DESIGN.md section 4);</li>
 * <li>{@link io.jring.poll.PollerRef}: the task's poller, opened by the first ring that uses
 *     it and closed by the last;</li>
 * <li>{@code EpollSet}: what the epoll set holds and which source each event goes to;</li>
 * <li>{@code ArmedFds} and {@code ArmedFd}: the fds waits are armed on, and arming one
 *     ({@code __io_arm_poll_handler}, arm-time {@code vfs_poll});</li>
 * <li>{@link io.jring.poll.PollWait}: one armed interest (a wait-queue entry);</li>
 * <li>{@code PollerWake}: the eventfd that ends the owner's epoll_wait;</li>
 * <li>{@code PollerThread}: the alternative where a thread waits on the armed fds
 *     ({@code -Djring.poller=thread}).</li>
 * </ul>
 *
 * <p>The poller builds on task work ({@code io.jring.tw}); task contexts see their poller
 * only as a {@link io.jring.tw.TaskPoller}.
 */
package io.jring.poll;

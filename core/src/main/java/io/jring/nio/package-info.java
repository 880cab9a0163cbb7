/**
 * Java's own asynchronous channels ({@code java.nio.channels}) on jring rings, so that code
 * written against NIO.2 runs on io_uring's model without a change.
 *
 * <ul>
 * <li>{@link io.jring.nio.JringAsynchronousChannelProvider}: the
 *     {@code AsynchronousChannelProvider}, chosen with
 *     {@code -Djava.nio.channels.spi.AsynchronousChannelProvider=io.jring.nio.JringAsynchronousChannelProvider};</li>
 * <li>{@link io.jring.nio.JringAsynchronousChannelGroup}: a channel group of N rings, one
 *     owner thread each;</li>
 * <li>{@link io.jring.nio.JringAsynchronousFileChannel}: {@code AsynchronousFileChannel};</li>
 * <li>{@link io.jring.nio.JringFileSystemProvider}: the default file system provider that
 *     hands out jring's {@code AsynchronousFileChannel}, chosen with
 *     {@code -Djava.nio.file.spi.DefaultFileSystemProvider=io.jring.nio.JringFileSystemProvider}.</li>
 * </ul>
 * The channels' behaviour is the {@code java.nio.channels} Javadoc's; each class says where
 * jring makes a choice the Javadoc leaves open. See docs/NIO.md.
 */
package io.jring.nio;

package io.jring.channel;

import java.io.IOException;
import java.net.URI;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Objects;

/**
 * A path of the platform's default file system, seen through jring's file system provider:
 * every operation is the platform path's, and every path it returns is wrapped again, so
 * that {@code Files} and {@code AsynchronousFileChannel.open} find jring's provider through
 * {@link #getFileSystem()}. Immutable.
 */
public final class WrappedPath implements Path {
    private final WrappedFileSystem fs;
    private final Path delegate;

    WrappedPath(WrappedFileSystem fs, Path delegate) {
        this.fs = fs;
        this.delegate = delegate;
    }

    /**
     * The platform path behind {@code p}.
     *
     * @param p a path of jring's default file system
     * @return the platform's path
     * @throws ProviderMismatchException if {@code p} belongs to another file system
     */
    public static Path unwrap(Path p) {
        Objects.requireNonNull(p, "path");
        if (p instanceof WrappedPath w) {
            return w.delegate;
        }
        throw new ProviderMismatchException("not a path of jring's default file system: " + p.getClass().getName());
    }

    private Path wrap(Path p) {
        return fs.wrap(p);
    }

    @Override
    public WrappedFileSystem getFileSystem() {
        return fs;
    }

    @Override
    public boolean isAbsolute() {
        return delegate.isAbsolute();
    }

    @Override
    public Path getRoot() {
        return wrap(delegate.getRoot());
    }

    @Override
    public Path getFileName() {
        return wrap(delegate.getFileName());
    }

    @Override
    public Path getParent() {
        return wrap(delegate.getParent());
    }

    @Override
    public int getNameCount() {
        return delegate.getNameCount();
    }

    @Override
    public Path getName(int index) {
        return wrap(delegate.getName(index));
    }

    @Override
    public Path subpath(int beginIndex, int endIndex) {
        return wrap(delegate.subpath(beginIndex, endIndex));
    }

    @Override
    public boolean startsWith(Path other) {
        return other instanceof WrappedPath w && delegate.startsWith(w.delegate);
    }

    @Override
    public boolean endsWith(Path other) {
        return other instanceof WrappedPath w && delegate.endsWith(w.delegate);
    }

    @Override
    public Path normalize() {
        return wrap(delegate.normalize());
    }

    @Override
    public Path resolve(Path other) {
        return wrap(delegate.resolve(unwrap(other)));
    }

    @Override
    public Path relativize(Path other) {
        return wrap(delegate.relativize(unwrap(other)));
    }

    @Override
    public URI toUri() {
        return delegate.toUri();
    }

    @Override
    public Path toAbsolutePath() {
        return wrap(delegate.toAbsolutePath());
    }

    @Override
    public Path toRealPath(LinkOption... options) throws IOException {
        return wrap(delegate.toRealPath(options));
    }

    @Override
    public java.io.File toFile() {
        return delegate.toFile();   // also when this file system is not (yet) the JVM's default
    }

    @Override
    public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers)
            throws IOException {
        return delegate.register(watcher, events, modifiers);
    }

    @Override
    public int compareTo(Path other) {
        return delegate.compareTo(unwrap(other));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WrappedPath w && delegate.equals(w.delegate);
    }

    @Override
    public int hashCode() {
        return delegate.hashCode();
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}

package io.jring.channel;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchService;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The platform's default file system seen through jring's file system provider: all of it
 * is the platform's, but its {@link #provider()} is jring's and its paths are
 * {@link WrappedPath}s. Immutable.
 */
public final class WrappedFileSystem extends FileSystem {
    private final FileSystemProvider provider;
    private final FileSystem delegate;

    /**
     * The platform file system {@code delegate} under {@code provider}.
     *
     * @param provider jring's provider
     * @param delegate the platform's file system
     */
    public WrappedFileSystem(FileSystemProvider provider, FileSystem delegate) {
        this.provider = provider;
        this.delegate = delegate;
    }

    /**
     * Wraps a platform path (null stays null).
     *
     * @param p a path of the platform's file system, or null
     * @return the path of this file system
     */
    public Path wrap(Path p) {
        return p == null ? null : new WrappedPath(this, p);
    }

    @Override
    public FileSystemProvider provider() {
        return provider;
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }

    @Override
    public boolean isOpen() {
        return delegate.isOpen();
    }

    @Override
    public boolean isReadOnly() {
        return delegate.isReadOnly();
    }

    @Override
    public String getSeparator() {
        return delegate.getSeparator();
    }

    @Override
    public Iterable<Path> getRootDirectories() {
        List<Path> roots = new ArrayList<>();
        for (Path r : delegate.getRootDirectories()) {
            roots.add(wrap(r));
        }
        return roots;
    }

    @Override
    public Iterable<FileStore> getFileStores() {
        return delegate.getFileStores();
    }

    @Override
    public Set<String> supportedFileAttributeViews() {
        return delegate.supportedFileAttributeViews();
    }

    @Override
    public Path getPath(String first, String... more) {
        return wrap(delegate.getPath(first, more));
    }

    @Override
    public PathMatcher getPathMatcher(String syntaxAndPattern) {
        PathMatcher m = delegate.getPathMatcher(syntaxAndPattern);
        return p -> m.matches(p instanceof WrappedPath ? WrappedPath.unwrap(p) : p);
    }

    @Override
    public UserPrincipalLookupService getUserPrincipalLookupService() {
        return delegate.getUserPrincipalLookupService();
    }

    @Override
    public WatchService newWatchService() throws IOException {
        return delegate.newWatchService();
    }
}

package io.jring.nio;

import io.jring.channel.WrappedFileSystem;
import io.jring.channel.WrappedPath;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.spi.FileSystemProvider;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/**
 * A default {@link FileSystemProvider} that is the platform's, except that
 * {@link #newAsynchronousFileChannel} opens a {@link JringAsynchronousFileChannel}. Chosen
 * for the whole JVM with
 * {@code -Djava.nio.file.spi.DefaultFileSystemProvider=io.jring.nio.JringFileSystemProvider}:
 * the JDK then calls {@link #JringFileSystemProvider(FileSystemProvider)} with its own
 * provider, and {@code FileSystems.getDefault()} is this provider's file system, whose
 * paths lead every {@code Files} call and {@code AsynchronousFileChannel.open} here. Every
 * other operation is the platform provider's, on the platform's path behind the given one.
 * {@link #newFileChannel} and {@link #newByteChannel} open a {@link JringFileChannel}, so
 * {@code FileChannel.open}, {@code Files.newByteChannel} and the streams {@code Files} makes
 * from them ({@code newInputStream}, {@code newOutputStream}, {@code readAllBytes},
 * {@code write}, {@code readString}...) run their reads and writes through jring's rings.
 */
public final class JringFileSystemProvider extends FileSystemProvider {
    private final FileSystemProvider platform;
    private final WrappedFileSystem fileSystem;

    /**
     * The provider over {@code platform}, as the JDK makes it for the system property.
     *
     * @param platform the platform's default provider (scheme {@code file})
     */
    public JringFileSystemProvider(FileSystemProvider platform) {
        this.platform = Objects.requireNonNull(platform, "platform");
        this.fileSystem = new WrappedFileSystem(this, platform.getFileSystem(URI.create("file:///")));
    }

    private static Path unwrap(Path p) {
        return WrappedPath.unwrap(p);
    }

    @Override
    public String getScheme() {
        return platform.getScheme();
    }

    @Override
    public FileSystem newFileSystem(URI uri, Map<String, ?> env) throws IOException {
        return platform.newFileSystem(uri, env);   // the default file system exists: the platform says so
    }

    @Override
    public FileSystem getFileSystem(URI uri) {
        platform.getFileSystem(uri);   // the platform's checks of the URI
        return fileSystem;
    }

    @Override
    public Path getPath(URI uri) {
        return fileSystem.wrap(platform.getPath(uri));
    }

    @Override
    public AsynchronousFileChannel newAsynchronousFileChannel(Path path, Set<? extends OpenOption> options,
                                                              ExecutorService executor, FileAttribute<?>... attrs)
            throws IOException {
        return JringAsynchronousFileChannel.open(unwrap(path), options, executor, attrs);
    }

    @Override
    public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        return JringFileChannel.open(unwrap(path), options, attrs);
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        return JringFileChannel.open(unwrap(path), options, attrs);
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        DirectoryStream<Path> ds = platform.newDirectoryStream(unwrap(dir), p -> filter.accept(fileSystem.wrap(p)));
        return new DirectoryStream<>() {
            @Override
            public Iterator<Path> iterator() {
                Iterator<Path> it = ds.iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public Path next() {
                        return fileSystem.wrap(it.next());
                    }
                };
            }

            @Override
            public void close() throws IOException {
                ds.close();
            }
        };
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
        platform.createDirectory(unwrap(dir), attrs);
    }

    @Override
    public void createSymbolicLink(Path link, Path target, FileAttribute<?>... attrs) throws IOException {
        platform.createSymbolicLink(unwrap(link), unwrap(target), attrs);
    }

    @Override
    public void createLink(Path link, Path existing) throws IOException {
        platform.createLink(unwrap(link), unwrap(existing));
    }

    @Override
    public Path readSymbolicLink(Path link) throws IOException {
        return fileSystem.wrap(platform.readSymbolicLink(unwrap(link)));
    }

    @Override
    public void delete(Path path) throws IOException {
        platform.delete(unwrap(path));
    }

    @Override
    public boolean deleteIfExists(Path path) throws IOException {
        return platform.deleteIfExists(unwrap(path));
    }

    @Override
    public void copy(Path source, Path target, CopyOption... options) throws IOException {
        platform.copy(unwrap(source), unwrap(target), options);
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) throws IOException {
        platform.move(unwrap(source), unwrap(target), options);
    }

    @Override
    public boolean isSameFile(Path path, Path path2) throws IOException {
        return platform.isSameFile(unwrap(path), unwrap(path2));
    }

    @Override
    public boolean isHidden(Path path) throws IOException {
        return platform.isHidden(unwrap(path));
    }

    @Override
    public FileStore getFileStore(Path path) throws IOException {
        return platform.getFileStore(unwrap(path));
    }

    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
        platform.checkAccess(unwrap(path), modes);
    }

    @Override
    public boolean exists(Path path, LinkOption... options) {
        return platform.exists(unwrap(path), options);
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        return platform.getFileAttributeView(unwrap(path), type, options);
    }

    @Override
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        return platform.readAttributes(unwrap(path), type, options);
    }

    @Override
    public <A extends BasicFileAttributes> A readAttributesIfExists(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        return platform.readAttributesIfExists(unwrap(path), type, options);
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
        return platform.readAttributes(unwrap(path), attributes, options);
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
        platform.setAttribute(unwrap(path), attribute, value, options);
    }
}

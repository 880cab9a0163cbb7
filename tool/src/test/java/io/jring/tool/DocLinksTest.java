package io.jring.tool;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The repository's Markdown: every relative link in README.md and docs/*.md names a file or
 * directory inside the repository, and every {@code #anchor} a heading of the file it points
 * to (GitHub's heading ids). Links with a scheme (https:) are not followed; absolute paths and
 * {@code file:} links are refused, since they cannot resolve in a clone.
 */
class DocLinksTest {
    /** An inline link or image: [text](target) or [text](target "title"). */
    private static final Pattern INLINE = Pattern.compile("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    /** A reference definition: [id]: target. */
    private static final Pattern REFERENCE = Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s.*)?$");
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

    private static final Path ROOT = repositoryRoot();

    @Test
    void everyLinkInTheReadmeResolvesInsideTheRepository() {
        Path readme = ROOT.resolve("README.md");
        assertTrue(Files.isRegularFile(readme), "no README.md in " + ROOT);
        List<String> broken = brokenLinks(readme);
        assertTrue(broken.isEmpty(), "broken links:\n" + String.join("\n", broken));
    }

    @Test
    void everyLinkInTheDocsResolvesInsideTheRepository() throws IOException {
        List<String> broken = new ArrayList<>();
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(p -> broken.addAll(brokenLinks(p)));
        }
        assertTrue(broken.isEmpty(), "broken links:\n" + String.join("\n", broken));
    }

    @Test
    void theCheckFindsAMissingFileAMissingAnchorAndAPathOutsideTheRepository(@TempDir Path dir)
            throws IOException {
        Path md = dir.resolve("page.md");
        Files.writeString(md, """
                # A page
                ## Semantics, as Linux (`Fds`)
                [ok](#semantics-as-linux-fds) [ok too](page.md#a-page) [site](https://example.org/x)
                [gone](missing.md) [no such heading](#nowhere) [outside](/etc/passwd)
                ```
                [in code](not-checked.md)
                ```
                and `[inline code](not-checked-either.md)`
                [ref]: also-missing.md
                """);
        List<String> broken = brokenLinks(md, dir);
        assertEquals(List.of("page.md:4: missing.md", "page.md:4: #nowhere", "page.md:4: /etc/passwd",
                "page.md:9: also-missing.md"), broken);
    }

    private static List<String> brokenLinks(Path md) {
        return brokenLinks(md, ROOT);
    }

    /** "file:line: target" for each link of {@code md} that does not resolve inside {@code root}. */
    static List<String> brokenLinks(Path md, Path root) {
        List<String> broken = new ArrayList<>();
        List<String> lines = read(md);
        boolean inFence = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.strip().startsWith("```")) {
                inFence = !inFence;
                continue;
            }
            if (inFence) {
                continue;
            }
            String text = line.replaceAll("`[^`]*`", "");
            List<String> targets = new ArrayList<>();
            Matcher m = INLINE.matcher(text);
            while (m.find()) {
                targets.add(m.group(1));
            }
            Matcher ref = REFERENCE.matcher(text);
            if (ref.matches()) {
                targets.add(ref.group(1));
            }
            for (String target : targets) {
                if (!resolves(md, root, target)) {
                    broken.add(root.relativize(md) + ":" + (i + 1) + ": " + target);
                }
            }
        }
        return broken;
    }

    private static boolean resolves(Path md, Path root, String target) {
        if (target.startsWith("file:") || target.startsWith("/")) {
            return false;
        }
        if (SCHEME.matcher(target).find()) {
            return true;
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path file = path.isEmpty() ? md : md.getParent().resolve(path).normalize();
        if (!file.startsWith(root) || !Files.exists(file)) {
            return false;
        }
        return anchor == null || (file.toString().endsWith(".md") && anchors(file).contains(anchor));
    }

    /** The ids GitHub gives a file's headings: lower case, punctuation dropped, spaces to '-', repeats numbered. */
    static Set<String> anchors(Path md) {
        Set<String> ids = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean inFence = false;
        for (String line : read(md)) {
            if (line.strip().startsWith("```")) {
                inFence = !inFence;
            }
            Matcher h = HEADING.matcher(line);
            if (inFence || !h.matches()) {
                continue;
            }
            String id = h.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
            int n = seen.merge(id, 1, Integer::sum);
            ids.add(n == 1 ? id : id + "-" + (n - 1));
        }
        return ids;
    }

    private static List<String> read(Path md) {
        try {
            return Files.readAllLines(md);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The repository: the tests run in tool/, its parent holds README.md. */
    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        return Files.isRegularFile(dir.resolve("README.md")) ? dir : dir.getParent();
    }
}

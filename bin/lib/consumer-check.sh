#!/usr/bin/env bash
# Checks README's "Depend on jring" section as a new user would follow it: installs jring
# (parent POM and jring-core) into a temporary local repository, writes a fresh project from
# the README's dependency snippet and program, builds it with Maven offline against that
# repository and runs it on the module path and on the class path, each with its
# --enable-native-access flag and without any WARNING. The temporary repository links every
# other artifact from ~/.m2 (read only) and holds jring itself, so ~/.m2 is left untouched.
#   bin/lib/consumer-check.sh     (1-2 minutes, most of it jring's build with its Javadoc jar;
#                                  not part of bin/test, run it after changing README or the POMs)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$root/bin/lib/jdk.sh"
m2=${JRING_M2:-$HOME/.m2/repository}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A local repository of links to ~/.m2's artifacts, io/jring left out: only ours is in it.
repo="$tmp/repo"
mkdir -p "$repo/io"
for d in "$m2"/*; do
  [ "$(basename "$d")" = io ] || ln -s "$d" "$repo/$(basename "$d")"
done
for d in "$m2"/io/*; do
  [ "$(basename "$d")" = jring ] || ln -s "$d" "$repo/io/$(basename "$d")"
done
mvn_() { mvn -o -q -B -Dmaven.repo.local="$repo" "$@"; }

echo "consumer-check: installing jring-core into a temporary repository"
(cd "$root" && mvn_ -Dmaven.test.skip=true -pl core -am install)
version=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' "$root/core/pom.xml" | head -1)
installed="$repo/io/jring/jring-core/$version"
for f in "jring-core-$version.jar" "jring-core-$version-sources.jar" "jring-core-$version-javadoc.jar" \
         "jring-core-$version.pom"; do
  [ -f "$installed/$f" ] || { echo "consumer-check: $f was not installed" >&2; exit 1; }
done
[ -f "$repo/io/jring/jring-parent/$version/jring-parent-$version.pom" ] \
  || { echo "consumer-check: the parent POM was not installed" >&2; exit 1; }

# The README's section: its first xml block (the dependency) and its java block (the program).
section=$(sed -n '/^## Depend on jring/,/^## /p' "$root/README.md")
block() { awk -v lang="$1" '$0 == "```" lang {on=1; next} on && $0 == "```" {exit} on {print}' <<<"$section"; }
dependency=$(block xml)
program=$(block java)
[ -n "$dependency" ] && [ -n "$program" ] || { echo "consumer-check: README's snippets not found" >&2; exit 1; }
pkg=$(sed -n 's/^package \([a-z.]*\);/\1/p' <<<"$program")
cls=$(sed -n 's/^public class \([A-Za-z]*\).*/\1/p' <<<"$program")

app="$tmp/consumer"
mkdir -p "$app/src/main/java/${pkg//.//}"
cat > "$app/pom.xml" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>demo</groupId>
  <artifactId>consumer</artifactId>
  <version>1</version>
  <properties>
    <maven.compiler.release>25</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
$dependency
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.14.0</version>
      </plugin>
      <!-- Only for this offline check: the version jring's own build has in ~/.m2
           (Maven 3.8's default, 2.6, needs artifacts a jring build never downloads). -->
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-resources-plugin</artifactId>
        <version>3.3.1</version>
      </plugin>
    </plugins>
  </build>
</project>
POM
printf '%s\n' "$program" > "$app/src/main/java/${pkg//.//}/$cls.java"
printf 'module %s {\n    requires io.jring;\n}\n' "$pkg" > "$app/src/main/java/module-info.java"

echo "consumer-check: building the consumer offline"
(cd "$app" && mvn_ compile)
jar="$installed/jring-core-$version.jar"
check() {
  local how=$1 out rc=0
  shift
  out=$(timeout 60 "$JAVA_HOME/bin/java" "$@" 2>&1) || rc=$?
  if [ "$rc" != 0 ] || grep -q 'WARNING' <<<"$out" || ! grep -q '^42 -> 2$' <<<"$out" \
      || ! grep -q '^SQEs 1, CQEs 1, in flight 0, CQ overflows 0$' <<<"$out"; then
    echo "consumer-check: $how failed (exit $rc):" >&2
    printf '%s\n' "$out" >&2
    exit 1
  fi
  echo "consumer-check: $how: $(tr '\n' ' ' <<<"$out")"
}
check "module path" --enable-native-access=io.jring -p "$jar:$app/target/classes" -m "$pkg/$pkg.$cls"
check "class path" --enable-native-access=ALL-UNNAMED -cp "$jar:$app/target/classes" "$pkg.$cls"
echo "consumer-check: passed"

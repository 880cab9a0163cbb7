# Sourced by bin/jring and bin/test: finds a JDK >= 25 and exports JAVA_HOME.
# Order: $JAVA_HOME if it is one, else the newest suitable JDK under /usr/lib/jvm.

jdk_feature_version() {
  # Prints the feature version (e.g. 25) of the JDK at $1, or nothing.
  local release="$1/release" v
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  if [ -f "$release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release")
  else
    v=$("$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
  fi
  printf '%s' "$v"
}

find_jdk25() {
  local v best="" bestv=0 d
  if [ -n "${JAVA_HOME:-}" ]; then
    v=$(jdk_feature_version "$JAVA_HOME")
    if [ -n "$v" ] && [ "$v" -ge 25 ]; then printf '%s' "$JAVA_HOME"; return 0; fi
  fi
  for d in /usr/lib/jvm/*; do
    [ -d "$d" ] || continue
    v=$(jdk_feature_version "$d")
    if [ -n "$v" ] && [ "$v" -ge 25 ] && [ "$v" -gt "$bestv" ]; then best="$d"; bestv="$v"; fi
  done
  [ -n "$best" ] && { printf '%s' "$best"; return 0; }
  return 1
}

if ! JAVA_HOME=$(find_jdk25); then
  echo "jring needs a JDK 25 or newer (java and javac)." >&2
  echo "  JAVA_HOME is '${JAVA_HOME:-unset}' and no JDK >= 25 was found under /usr/lib/jvm." >&2
  echo "  Install one (e.g. Temurin 25) and set JAVA_HOME to it." >&2
  exit 1
fi
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"

if ! command -v mvn >/dev/null 2>&1; then
  echo "jring builds with Apache Maven (3.8+), which is not on PATH: apt-get install maven" >&2
  exit 1
fi

# Sourced by ./rdmacm and scripts/*: sets RDMACM_JAVA_HOME to a JDK whose major version is >= 25.
# Looks at $JAVA_HOME first, then every JDK under /usr/lib/jvm; prints one clear line when none fits.

rdmacm_java_major() {
    # "25.0.1" -> 25, "17.0.15" -> 17, "1.8.0_412" or "1.8" -> 8, "26-ea" -> 26
    local version=
    # the JDK's release file first: asking java itself starts a JVM, which cost ./rdmacm 0.1-0.2 s a run
    # (two JVMs when the first JDK under /usr/lib/jvm is too old)
    if [ -r "$1/release" ]; then
        version=$(sed -n 's/^JAVA_VERSION="\([^"]*\)"$/\1/p' "$1/release")
    fi
    if [ -z "$version" ]; then
        version=$("$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
    fi
    # the leading number, also of the release file's "1.8.0_412" and "26-ea"
    version=${version#1.}
    version=${version%%[!0-9]*}
    echo "${version:-0}"
}

rdmacm_find_jdk() {
    local candidate
    for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
        [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
        if [ "$(rdmacm_java_major "$candidate")" -ge 25 ]; then
            RDMACM_JAVA_HOME=$candidate
            return 0
        fi
    done
    echo "rdmacm: no JDK 25 or newer found (looked at JAVA_HOME=${JAVA_HOME:-unset} and /usr/lib/jvm/*); install one, e.g. Temurin 25, and set JAVA_HOME" >&2
    return 1
}

# The JVM that runs the rdmacm command: its options, the training of its AOT cache and the options that
# use the cache; sourced by ./rdmacm, by dist/package and by the launcher it installs (as
# lib/jvm-options.sh), so that a checkout and an installed copy are trained and start alike.
# shellcheck shell=bash disable=SC2034
# The same at training and at use: the JVM refuses a cache made with other options.
# - no -Xshare:auto (the default): -XX:AOTCacheOutput refuses any -Xshare, and -XX:AOTCache falls back
#   to running without the cache, as -Xshare:auto did without the JDK's archive;
# - class linking (-XX:+AOTClassLinking, AOTCacheOutput's default) is given by each launcher with the
#   cache: the cache then also holds the lambdas, method handles and FFM stubs' classes resolved, a
#   third of the CPU of a start; a cache made without it (the training's fallback) is used without it.
rdmacm_jvm_options=(-XX:+UseSerialGC -XX:TieredStopAtLevel=1
    --enable-native-access=ALL-UNNAMED --add-exports java.base/jdk.internal.misc=ALL-UNNAMED)
# the JVM's own warnings go to stderr, never into a command's stdout (its default), which --json users
# parse; those about the cache (aot, cds) are off: a cache the JVM refuses, as after a JDK update, only
# makes the run slower
rdmacm_jvm_logging=(-Xlog:disable '-Xlog:all=warning,aot*=off,cds*=off:stderr')

# rdmacm_aot_train JAVA JAR CACHE LOG: the training run of the JVM's AOT cache (JEP 483) for JAR, as both
# launchers make it. dev.rdmacm.cli.AotTraining runs the commands whose start matters, on loopback, in one
# JVM. Class linking first; without it when that fails (Temurin 25.0.3 once aborted writing it, at
# archiveHeapWriter.cpp:757, for an earlier jar), a cache of the classes only, marked by CACHE.unlinked.
# The JVM's exit status does not tell: it is the training's, also when the child JVM that writes the cache
# crashed, leaving an empty file; so a run with -XX:AOTMode=on, which fails on a cache it cannot use, checks
# it. Everything goes to LOG; returns 1 when no cache could be made.
rdmacm_aot_train() {
    local java=$1 jar=$2 cache=$3 log=$4 tmp="$3.$$" linking
    # picocli's Java 5 classes as Java 8 ones with stack maps, which the cache keeps (it drops linked
    # Java 5 classes); the jar stays as it is when this fails, the cache is then only smaller
    "$java" -cp "$jar" dev.rdmacm.cli.LegacyBytecodeUpgrade "$jar" >"$log" 2>&1 </dev/null ||
        echo "rdmacm: picocli stays Java 5 bytecode, outside the AOT cache; log in $log" >&2
    for linking in -XX:+AOTClassLinking -XX:-AOTClassLinking; do
        if "$java" "${rdmacm_jvm_options[@]}" "$linking" -XX:AOTCacheOutput="$tmp" \
                -cp "$jar" dev.rdmacm.cli.AotTraining >>"$log" 2>&1 </dev/null &&
            "$java" "${rdmacm_jvm_options[@]}" "$linking" -XX:AOTCache="$tmp" -XX:AOTMode=on \
                -jar "$jar" --version >>"$log" 2>&1 </dev/null; then
            mv -f "$tmp" "$cache"
            rm -f "$tmp.config"
            if [ "$linking" = -XX:-AOTClassLinking ]; then : >"$cache.unlinked"; else rm -f "$cache.unlinked"; fi
            return 0
        fi
        rm -f "$tmp" "$tmp.config"
    done
    return 1
}

# rdmacm_use_aot_cache CACHE: sets rdmacm_aot_options to start with CACHE as it was trained (class linking
# on, or off where CACHE.unlinked says so), or to nothing when there is no CACHE
rdmacm_use_aot_cache() {
    rdmacm_aot_options=()
    [ -f "$1" ] || return 0
    if [ -f "$1.unlinked" ]; then
        rdmacm_aot_options=(-XX:-AOTClassLinking -XX:AOTCache="$1")
    else
        rdmacm_aot_options=(-XX:+AOTClassLinking -XX:AOTCache="$1")
    fi
}

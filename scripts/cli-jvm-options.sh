# The options of the JVM that runs the rdmacm command, sourced by ./rdmacm and by the launcher that
# dist/package installs (as lib/jvm-options.sh), so that a checkout and an installed copy start alike.
# shellcheck shell=bash disable=SC2034
# The same at training and at use: the JVM refuses a cache made with other options.
# - no -Xshare:auto (the default): -XX:AOTCacheOutput refuses any -Xshare, and -XX:AOTCache falls back
#   to running without the cache, as -Xshare:auto did without the JDK's archive;
# - -XX:-AOTClassLinking (AOTCacheOutput's default is on): with it Temurin 25.0.3 aborts while writing
#   this cache (archiveHeapWriter.cpp:757, "Metadata ... should have been archived"); without, the
#   cache has no resolved lambdas and method handles, only the classes, most of the gain.
rdmacm_jvm_options=(-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-AOTClassLinking
    --enable-native-access=ALL-UNNAMED --add-exports java.base/jdk.internal.misc=ALL-UNNAMED)
# the JVM's own warnings go to stderr, never into a command's stdout (its default), which --json users
# parse; those about the cache (aot, cds) are off: a cache the JVM refuses, as after a JDK update, only
# makes the run slower
rdmacm_jvm_logging=(-Xlog:disable '-Xlog:all=warning,aot*=off,cds*=off:stderr')

# The options of the JVM that runs the rdmacm command, sourced by ./rdmacm and by the launcher that
# dist/package installs (as lib/jvm-options.sh), so that a checkout and an installed copy start alike.
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

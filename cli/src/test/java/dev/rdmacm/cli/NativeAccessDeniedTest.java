package dev.rdmacm.cli;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A JVM that denies native access gets one line saying what to do, not a stack trace. */
class NativeAccessDeniedTest
{
    @Test
    void shouldSayHowToEnableNativeAccess() throws Exception
    {
        final Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        final Process process = new ProcessBuilder(List.of(java.toString(), "--illegal-native-access=deny",
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"), Main.class.getName(), "getaddrinfo", "127.0.0.1", "7471"))
            .redirectErrorStream(true).start();
        try
        {
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "java did not finish");
            assertEquals(1, process.exitValue(), output);
            assertEquals("rdmacm getaddrinfo: native access to libc (getaddrinfo) is denied: start the JVM with " +
                "--enable-native-access=ALL-UNNAMED (the rdmacm launcher and jar manifest do)\n", output);
        }
        finally
        {
            process.destroyForcibly();
        }
    }
}

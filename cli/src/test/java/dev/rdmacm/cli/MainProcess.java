package dev.rdmacm.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@link Main} in a child JVM, with an environment of its own ({@code SYSFS_PATH} naming an empty tree makes
 * libibverbs and sysfs list no device), as the {@code ./rdmacm} launcher starts it: its exit status and
 * output, or a failure when it has not ended within {@code seconds} (a server that went on listening).
 */
record MainProcess(int exit, String out, String err)
{
    static MainProcess run(final Path dir, final Map<String, String> environment, final int seconds, final String... args)
        throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        final Path out = Files.createTempFile(dir, "out", ".txt");
        final Path err = Files.createTempFile(dir, "err", ".txt");
        final ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(environment);
        final Process process = builder.start();
        try
        {
            process.getOutputStream().close();
            if (!process.waitFor(seconds, TimeUnit.SECONDS))
            {
                throw new AssertionError("rdmacm " + String.join(" ", args) + " still runs after " + seconds + " s; stderr: "
                    + Files.readString(err, StandardCharsets.UTF_8));
            }
            return new MainProcess(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        }
        finally
        {
            process.destroyForcibly();
        }
    }
}

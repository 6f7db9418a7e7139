package dev.rdmacm.libc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a procfs or sysctl file whole. Not {@code Files.readString}: such files report size 0, and
 * for those it returns only the first byte ({@code 3} of {@code 32768\t60999}).
 */
public final class ProcFile
{
    private ProcFile()
    {
    }

    /** The file's text, as ASCII. */
    public static String read(final Path file) throws IOException
    {
        try (InputStream in = Files.newInputStream(file))
        {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }
}

package dev.rdmacm.cli;

import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version printed by {@code rdmacm --version}: the project's version and the commit the jar was
 * built from, both written at build time by {@code scripts/build-info} into {@link #RESOURCE}. A build
 * outside a git checkout has no commit, and the line says so rather than guessing.
 */
public final class VersionProvider implements CommandLine.IVersionProvider
{
    /** Beside this class in the jar. */
    static final String RESOURCE = "build-info.properties";

    @Override
    public String[] getVersion()
    {
        return new String[] {
            line(read()),
            "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"
        };
    }

    /** {@code rdmacm-java VERSION (commit COMMIT)}, from the build's properties. */
    static String line(final Properties build)
    {
        final String version = build.getProperty("version", "");
        final String commit = build.getProperty("commit", "");
        return "rdmacm-java " + (version.isEmpty() ? "(version unknown: built without scripts/build-info)" : version)
            + (commit.isEmpty() ? " (commit unknown: not built from a git checkout)" : " (commit " + commit + ")");
    }

    private static Properties read()
    {
        final Properties build = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream(RESOURCE))
        {
            if (in != null)
            {
                build.load(in);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(RESOURCE + " in the jar: " + ex.getMessage(), ex);
        }
        return build;
    }
}

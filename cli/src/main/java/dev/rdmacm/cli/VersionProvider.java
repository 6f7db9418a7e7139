package dev.rdmacm.cli;

import picocli.CommandLine;

/** The version printed by {@code rdmacm --version}, taken from the jar manifest when there is one. */
public final class VersionProvider implements CommandLine.IVersionProvider
{
    @Override
    public String[] getVersion()
    {
        final String version = Main.class.getPackage().getImplementationVersion();
        return new String[] {
            "rdmacm-java " + (version == null ? "(development build)" : version),
            "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"
        };
    }
}

package dev.rdmacm.testing.guest;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The {@code java} options of the in-guest JUnit JVM ({@link GuestJvm}: C1 only, the serial collector,
 * native access, and its AOT cache), for a test that starts a JVM of its own in the guest with the same
 * class path, e.g. a command run as a user runs it. Such a JVM started with the JDK's defaults spends
 * its first ten and more seconds under TCG compiling and linking; with these it maps the classes the
 * cache holds (the JDK's and JUnit's) ready-linked, as the test JVM does. The cache is valid only for a
 * class path that starts with the one it was trained on, which the test JVM's own
 * ({@code java.class.path}) does.
 */
public final class GuestJavaOptions
{
    /** The system property {@link GuestJvm} passes the options in. */
    static final String PROPERTY = "rdmacm.guest.java-options";
    /** Between two options in {@link #PROPERTY}: no option of {@link GuestJvm} holds a space. */
    static final String SEPARATOR = " ";

    private GuestJavaOptions()
    {
    }

    /** The options, in a JVM that {@link GuestJUnit} started in a guest; empty elsewhere (on the host). */
    public static Optional<List<String>> ofThisGuest()
    {
        final String options = System.getProperty(PROPERTY);
        return options == null || options.isBlank() ? Optional.empty() :
            Optional.of(Arrays.asList(options.split(SEPARATOR)));
    }
}

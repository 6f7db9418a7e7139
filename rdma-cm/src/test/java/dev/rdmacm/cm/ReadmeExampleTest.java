package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's usage example is code, not prose: its one {@code ```java} block is compiled as it stands
 * against the test classpath with javax.tools, then run against 127.0.0.1 on this machine, whose sysfs
 * decides the outcome (no RDMA device: ADDR_ERROR ENODEV, as the kernel's cma_resolve_loopback says).
 */
class ReadmeExampleTest
{
    private static final Pattern JAVA_BLOCK = Pattern.compile("(?s)```java\\n(.*?)```");
    private static final Pattern CLASS_NAME = Pattern.compile("public (?:final )?class (\\w+)");

    @TempDir
    Path dir;

    @Test
    void shouldCompileAndRunTheReadmeExampleAgainstLoopback() throws Exception
    {
        final String source = readmeExample();
        final Matcher name = CLASS_NAME.matcher(source);
        assertTrue(name.find(), "the README example declares a public class");
        final Class<?> example = compile(name.group(1), source);

        final Method resolve = example.getMethod("resolve", InetAddress.class);
        final CmEvent event;
        try
        {
            event = (CmEvent)resolve.invoke(null, InetAddress.getByName("127.0.0.1"));
        }
        catch (final InvocationTargetException ex)
        {
            throw new AssertionError("the README example failed: " + ex.getCause(), ex.getCause());
        }
        final String described = (String)example.getMethod("describe", CmEvent.class).invoke(null, event);
        if (hasRdmaDevices())
        {
            assertNotEquals(CmEventType.ADDR_ERROR, event.type(), described);
        }
        else
        {
            final CmEvent.AddrError error = assertInstanceOf(CmEvent.AddrError.class, event, described);
            assertEquals(-Errno.ENODEV, error.status());
            assertEquals("no address (errno 19): ADDR_ERROR status -19 (ENODEV): no RDMA device for a loopback " +
                "destination", described);
        }
    }

    private static String readmeExample() throws Exception
    {
        Path directory = Path.of("").toAbsolutePath();
        while (directory != null && !Files.exists(directory.resolve("README.md")) ||
            directory != null && !Files.exists(directory.resolve("rdma-cm")))
        {
            directory = directory.getParent();
        }
        assertNotNull(directory, "the repository root (README.md beside rdma-cm/) above " + Path.of("").toAbsolutePath());
        final String readme = Files.readString(directory.resolve("README.md"), StandardCharsets.UTF_8);
        final Matcher block = JAVA_BLOCK.matcher(readme);
        assertTrue(block.find(), "README.md has a ```java block");
        final String source = block.group(1);
        assertTrue(!block.find(), "README.md has exactly one ```java block, the example");
        return source;
    }

    private Class<?> compile(final String className, final String source) throws Exception
    {
        final Path sources = Files.createDirectories(dir.resolve("src"));
        final Path classes = Files.createDirectories(dir.resolve("classes"));
        final Path file = Files.writeString(sources.resolve(className + ".java"), source, StandardCharsets.UTF_8);
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "a JDK, not a JRE, runs the tests");
        final DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8))
        {
            final List<String> options = List.of("-classpath", testClassPath(), "-d", classes.toString(),
                "-Xlint:all", "-Werror");
            final boolean compiled = javac.getTask(null, files, diagnostics, options, null,
                files.getJavaFileObjects(file)).call();
            assertTrue(compiled, "the README example compiles: " + diagnostics.getDiagnostics());
        }
        final URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
            ReadmeExampleTest.class.getClassLoader());
        return loader.loadClass(className);
    }

    /** Surefire runs the tests from a manifest-only jar; it names the real class path in this property. */
    private static String testClassPath()
    {
        final String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null ? surefire : System.getProperty("java.class.path");
    }

    /** What the kernel would resolve loopback with: an RDMA device in sysfs ({@code $SYSFS_PATH} or /sys). */
    private static boolean hasRdmaDevices() throws Exception
    {
        final String root = System.getenv().getOrDefault("SYSFS_PATH", "/sys");
        final Path devices = Path.of(root, "class", "infiniband");
        if (!Files.isDirectory(devices))
        {
            return false;
        }
        try (var entries = Files.list(devices))
        {
            return entries.findAny().isPresent();
        }
    }
}

package dev.rdmacm.testing;

import org.agrona.BitUtil;
import org.agrona.DirectBuffer;

import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Compares what this project writes by hand with what gcc computes from the installed C headers: a
 * set of C expressions (sizes, offsets, constants) evaluated by one compiled program, or the bytes a C
 * program leaves in a struct it filled with the header's own macros and setters.
 */
public final class CHeaders
{
    /** The flags OpenSM's {@code infiniband/iba/ib_types.h} needs to find its {@code complib} headers. */
    public static final String[] OPENSM_FLAGS = {"-I/usr/include/infiniband"};

    private CHeaders()
    {
    }

    /**
     * Evaluates every key of {@code expected} as a C expression after {@code includes} and asserts that
     * each equals its Java value; on a mismatch the failure shows both maps, sorted by expression.
     */
    public static void assertValues(final String includes, final Map<String, ? extends Number> expected,
        final String... gccFlags)
    {
        final StringBuilder source = new StringBuilder()
            .append("#include <stdio.h>\n#include <stddef.h>\n#include <stdint.h>\n").append(includes)
            .append("\nint main(void) {\n");
        for (final String expression : expected.keySet())
        {
            source.append("  printf(\"%s=%llu\\n\", \"").append(expression.replace("\"", "\\\""))
                .append("\", (unsigned long long)(").append(expression).append("));\n");
        }
        source.append("  return 0;\n}\n");
        final String output = CProgram.compileAndRun(source.toString(), gccFlags);

        final Map<String, String> fromC = new TreeMap<>();
        for (final String line : output.split("\n"))
        {
            final int eq = line.lastIndexOf('=');
            if (eq > 0)
            {
                fromC.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        final Map<String, String> fromJava = new TreeMap<>();
        expected.forEach((expression, value) -> fromJava.put(expression, Long.toUnsignedString(value.longValue())));
        assertEquals(fromJava, fromC, "Java constants (expected) vs gcc and the C headers (actual)");
    }

    /**
     * Runs {@code body} (C statements that declare and fill a variable named {@code variable}) and returns
     * the variable's bytes as lowercase hex.
     */
    public static String bytesOf(final String includes, final String body, final String variable,
        final String... gccFlags)
    {
        final String source = "#include <stdio.h>\n#include <string.h>\n#include <stdint.h>\n#include <endian.h>\n" +
            includes + "\nint main(void) {\n" + body + "\n" +
            "  const unsigned char *bytes_of_ = (const unsigned char *)&" + variable + ";\n" +
            "  for (size_t i = 0; i < sizeof(" + variable + "); i++) printf(\"%02x\", bytes_of_[i]);\n" +
            "  printf(\"\\n\");\n  return 0;\n}\n";
        return CProgram.compileAndRun(source, gccFlags).strip();
    }

    /** {@code length} bytes of {@code buffer} from {@code offset} as lowercase hex, to compare with {@link #bytesOf}. */
    public static String hex(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return BitUtil.toHex(bytes);
    }
}

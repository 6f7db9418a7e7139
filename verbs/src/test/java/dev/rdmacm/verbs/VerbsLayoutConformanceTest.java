package dev.rdmacm.verbs;

import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Compiles a C program against the installed {@code infiniband/verbs.h} that prints sizeof, alignof
 * and offsetof/sizeof of every named member of every struct in {@link IbvLayouts#ALL}, and compares
 * it line by line with what the Java layouts say.
 */
class VerbsLayoutConformanceTest
{
    @Test
    void shouldMatchTheInstalledHeaderForEveryStructAndMember()
    {
        Peers.requireFile("/usr/include/infiniband/verbs.h", "libibverbs-dev");
        final List<String> javaLines = new ArrayList<>();
        final StringBuilder c = new StringBuilder("""
            #include <stdio.h>
            #include <stddef.h>
            #include <infiniband/verbs.h>
            #define S(t) printf("S %s %zu %zu\\n", #t, sizeof(t), _Alignof(t))
            #define F(t, m) printf("F %s %s %zu %zu\\n", #t, #m, offsetof(t, m), sizeof(((t *)0)->m))
            int main(void) {
            """);
        for (final MemoryLayout layout : IbvLayouts.ALL)
        {
            final String type = layout.name().orElseThrow();
            javaLines.add("S " + type + " " + layout.byteSize() + " " + layout.byteAlignment());
            c.append("  S(").append(type).append(");\n");
            members((GroupLayout)layout, "", 0, type, javaLines, c);
        }
        c.append("  return 0;\n}\n");

        final List<String> cLines = CProgram.compileAndRun(c.toString()).lines().toList();

        assertTrue(javaLines.size() > 300, "expected every member of every struct, got " + javaLines.size());
        assertEquals(String.join("\n", cLines), String.join("\n", javaLines));
    }

    @Test
    void shouldMatchTheInstalledHeaderForEveryEnumerator() throws IllegalAccessException
    {
        Peers.requireFile("/usr/include/infiniband/verbs.h", "libibverbs-dev");
        final StringBuilder javaLines = new StringBuilder();
        final StringBuilder c = new StringBuilder("""
            #include <stdio.h>
            #include <infiniband/verbs.h>
            int main(void) {
            """);
        int count = 0;
        for (final Field field : IbvConstants.class.getFields())
        {
            if (Modifier.isStatic(field.getModifiers()) && field.getName().startsWith("IBV_"))
            {
                javaLines.append(field.getName()).append(' ').append(field.getInt(null)).append('\n');
                c.append("  printf(\"%s %d\\n\", \"").append(field.getName()).append("\", (int)")
                    .append(field.getName()).append(");\n");
                count++;
            }
        }
        c.append("  return 0;\n}\n");

        assertTrue(count > 30, "expected every enumerator, got " + count);
        assertEquals(javaLines.toString(), CProgram.compileAndRun(c.toString()));
    }

    @Test
    void shouldModelTheGidUnionWithEightByteAlignment()
    {
        assertEquals(8, IbvLayouts.IBV_GID.byteAlignment());
        assertEquals(24, IbvLayouts.IBV_GLOBAL_ROUTE.byteSize());
        assertEquals(52, IbvLayouts.IBV_PORT_ATTR.byteSize());
    }

    private static void members(final GroupLayout group, final String prefix, final long base, final String type,
        final List<String> javaLines, final StringBuilder c)
    {
        for (final MemoryLayout member : group.memberLayouts())
        {
            if (member instanceof PaddingLayout || member.name().isEmpty())
            {
                continue;
            }
            final String name = member.name().get();
            final long offset = base + group.byteOffset(MemoryLayout.PathElement.groupElement(name));
            if (name.startsWith("$"))
            {
                members((GroupLayout)member, prefix, offset, type, javaLines, c);
                continue;
            }
            final String path = prefix + name;
            javaLines.add("F " + type + " " + path + " " + offset + " " + member.byteSize());
            c.append("  F(").append(type).append(", ").append(path).append(");\n");
            if (member instanceof GroupLayout nested)
            {
                members(nested, path + ".", offset, type, javaLines, c);
            }
        }
    }
}

package dev.rdmacm.libc;

import dev.rdmacm.testing.CProgram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ErrnoTest
{
    @Test
    void shouldNameEveryErrnoAsGlibcDoes()
    {
        final String glibc = CProgram.compileAndRun("""
            #define _GNU_SOURCE
            #include <stdio.h>
            #include <string.h>
            int main(void) {
              for (int i = 1; i <= 133; i++) {
                const char *name = strerrorname_np(i);
                printf("%d %s\\n", i, name ? name : "-");
              }
              return 0;
            }
            """);
        final StringBuilder java = new StringBuilder();
        for (int i = 1; i <= Errno.MAX; i++)
        {
            final String name = Errno.name(i);
            java.append(i).append(' ').append(name.startsWith("E?") ? "-" : name).append('\n');
        }

        assertEquals(glibc, java.toString());
    }

    @Test
    void shouldDescribeEveryErrnoAsGlibcDoes()
    {
        final String glibc = CProgram.compileAndRun("""
            #include <stdio.h>
            #include <string.h>
            int main(void) {
              for (int i = 1; i <= 134; i++) {
                printf("%d %s\\n", i, strerror(i));
              }
              return 0;
            }
            """);
        final StringBuilder java = new StringBuilder();
        for (int i = 1; i <= Errno.MAX + 1; i++)
        {
            java.append(i).append(' ').append(Errno.description(i)).append('\n');
        }

        assertEquals(glibc, java.toString());
    }

    @Test
    void shouldDescribeAnErrnoByNumberNameAndText()
    {
        assertEquals("errno 110 ETIMEDOUT (Connection timed out)", Errno.describe(Errno.ETIMEDOUT));
    }

    @Test
    void shouldNameAnUnknownErrnoByItsNumber()
    {
        assertEquals("E?134", Errno.name(134));
        assertEquals("E?0", Errno.name(0));
    }
}

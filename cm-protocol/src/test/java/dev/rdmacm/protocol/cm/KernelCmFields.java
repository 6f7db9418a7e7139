package dev.rdmacm.protocol.cm;

import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.Peers;
import org.agrona.BitUtil;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The C side of the CM message checks: programs compiled with gcc against the installed umad_types.h,
 * umad_cm.h and OpenSM's iba/ib_cm_types.h, plus the kernel's field table
 * ({@code ibta-vol1-c12-fields.h}, the positions of include/rdma/ibta_vol1_c12.h as plain numbers).
 * Values are placed one bit at a time, most significant first, so that nothing of the Java masks and
 * shifts is reused.
 */
final class KernelCmFields
{
    private static final String HEADERS = """
        #include <infiniband/umad_types.h>
        #include <infiniband/umad_cm.h>
        #include <iba/ib_cm_types.h>
        """;
    private static final String PRELUDE = """
        #include <stdio.h>
        #include <stdint.h>
        #include <stddef.h>
        #include <string.h>
        #include <endian.h>
        /*HEADERS*/
        /*TABLE*/
        static void set_bits(uint8_t *m, unsigned byte, unsigned bit, unsigned width, uint64_t value)
        {
          for (unsigned i = 0; i < width; i++) {
            unsigned position = byte * 8 + bit + i;
            uint8_t mask = (uint8_t)(0x80u >> (position % 8));
            if ((value >> (width - 1 - i)) & 1) m[position / 8] |= mask; else m[position / 8] &= (uint8_t)~mask;
          }
        }
        static void set_block(uint8_t *m, unsigned byte, unsigned length, const char *hex)
        {
          for (unsigned i = 0; i < length; i++) sscanf(hex + 2 * i, "%2hhx", &m[byte + i]);
        }
        static void dump(const uint8_t *p, unsigned length)
        {
          for (unsigned i = 0; i < length; i++) printf("%02x", p[i]);
          printf("\\n");
        }
        #define SET(field, value) set_bits(msg, field, (uint64_t)(value))
        #define SET_BLOCK(field, hex) set_block(msg, field, hex)
        #define SCALAR(field) printf("%s %u %u %u\\n", #field, field)
        #define BLOCK(field) printf("%s %u %u\\n", #field, field)
        int main(void)
        {
          uint8_t mad[256];
          uint8_t *msg = mad + sizeof(struct umad_hdr);
          struct umad_hdr *hdr = (struct umad_hdr *)mad;
          (void)msg; (void)hdr;
        /*BODY*/
          return 0;
        }
        """;

    private KernelCmFields()
    {
    }

    /** Runs {@code body} inside main() after the table and helpers; returns its output. */
    static String run(final String body)
    {
        requireHeaders();
        return CProgram.compileAndRun(
            PRELUDE.replace("/*HEADERS*/", HEADERS).replace("/*TABLE*/", table()).replace("/*BODY*/", body),
            CHeaders.OPENSM_FLAGS);
    }

    private static void requireHeaders()
    {
        Peers.requireFile("/usr/include/infiniband/umad_cm.h", "libibumad-dev");
        Peers.requireFile("/usr/include/infiniband/iba/ib_cm_types.h", "libopensm-dev");
    }

    /**
     * Each named field's position in the kernel table, "byte bit width" or "byte length", plus the
     * "key value" lines that {@code more} prints.
     */
    static Map<String, String> positions(final List<String> scalars, final List<String> blocks, final String more)
    {
        final StringBuilder body = new StringBuilder(more);
        scalars.forEach(name -> body.append("  SCALAR(").append(name).append(");\n"));
        blocks.forEach(name -> body.append("  BLOCK(").append(name).append(");\n"));
        final Map<String, String> positions = new HashMap<>();
        for (final String line : run(body.toString()).split("\n"))
        {
            final int space = line.indexOf(' ');
            positions.put(line.substring(0, space), line.substring(space + 1));
        }
        return positions;
    }

    /**
     * Asserts that each C expression, evaluated against umad_types.h, umad_cm.h and OpenSM's
     * ib_cm_types.h, equals its Java value, e.g. {@code "cl_ntoh16(IB_REJ_INSUF_QP)" -> 1}.
     */
    static void assertHeaderValues(final Map<String, ? extends Number> expected)
    {
        requireHeaders();
        CHeaders.assertValues(HEADERS, expected, CHeaders.OPENSM_FLAGS);
    }

    /** C statements that start a CM MAD the way umad_types.h and umad_cm.h describe it. */
    static String header(final CmAttribute attribute, final long transactionId)
    {
        return String.format("""
              memset(mad, 0, sizeof(mad));
              hdr->base_version = 1;
              hdr->mgmt_class = UMAD_CLASS_CM;
              hdr->class_version = IB_MCLASS_CM_VER_2;
              hdr->method = UMAD_METHOD_SEND;
              hdr->tid = htobe64(0x%016xULL);
              hdr->attr_id = htobe16(UMAD_CM_ATTR_%s);
            """, transactionId, attribute.name());
    }

    static String setScalar(final String kernelName, final long value)
    {
        return String.format("  SET(%s, 0x%xULL);%n", kernelName, value);
    }

    static String setBlock(final String kernelName, final byte[] bytes)
    {
        return "  SET_BLOCK(" + kernelName + ", \"" + BitUtil.toHex(bytes) + "\");\n";
    }

    static String dumpMad()
    {
        return "  dump(mad, sizeof(mad));\n";
    }

    private static String table()
    {
        try (InputStream in = KernelCmFields.class.getResourceAsStream("ibta-vol1-c12-fields.h"))
        {
            if (in == null)
            {
                throw new AssertionError("test resource ibta-vol1-c12-fields.h missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot read ibta-vol1-c12-fields.h", ex);
        }
    }
}

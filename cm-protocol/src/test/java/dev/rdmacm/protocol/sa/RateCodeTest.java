package dev.rdmacm.protocol.sa;

import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RateCodeTest
{
    @Test
    void shouldMatchEnumIbvRateNames()
    {
        Peers.requireFile("/usr/include/infiniband/verbs.h", "libibverbs-dev");
        final Map<String, Integer> expected = new LinkedHashMap<>();
        for (final RateCode rate : RateCode.values())
        {
            expected.put("IBV_" + rate.name(), rate.code());
        }
        CHeaders.assertValues("#include <infiniband/verbs.h>", expected);
    }

    @Test
    void shouldMatchOpenSmRateCodes()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        final Map<String, Integer> expected = new LinkedHashMap<>();
        for (final RateCode rate : RateCode.values())
        {
            if (rate.code() <= 22)
            {
                expected.put("IB_PATH_RECORD_" + rate.name().replace("GBPS", "GBS"), rate.code());
            }
        }
        expected.put("IB_MIN_RATE", RateCode.MIN_CODE);
        CHeaders.assertValues("#include <iba/ib_types.h>", expected, CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldGiveTheMbpsThatLibibverbsGives()
    {
        Peers.requireFile("/usr/include/infiniband/verbs.h", "libibverbs-dev");
        final String fromC = CProgram.compileAndRun("""
            #include <stdio.h>
            #include <infiniband/verbs.h>
            int main(void) {
              for (int code = 0; code <= 25; code++) printf("%d=%d\\n", code, ibv_rate_to_mbps(code));
              return 0;
            }
            """, "-libverbs");

        final StringBuilder ours = new StringBuilder();
        for (int code = 0; code <= 25; code++)
        {
            ours.append(code).append('=').append(RateCode.isValid(code) ? RateCode.fromCode(code).mbps() : -1).append('\n');
        }
        assertEquals(fromC, ours.toString());
    }

    @Test
    void shouldDescribeAndParseNominalRates()
    {
        assertEquals("3 (10 Gb/s)", RateCode.describe(3));
        assertEquals("2 (2.5 Gb/s)", RateCode.describe(2));
        assertEquals("0 (reserved)", RateCode.describe(0));
        assertEquals(RateCode.RATE_56_GBPS, RateCode.parse("56"));
        assertEquals(RateCode.RATE_1200_GBPS, RateCode.fromCode(24));
    }

    @Test
    void shouldRejectACodeOutsideTheIbaRange()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> RateCode.fromCode(1));

        assertEquals("rate code 1 is not an IBA rate code 2-24", ex.getMessage());
    }

    @Test
    void shouldRejectARateThatIsNoIbRate()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> RateCode.parse("11"));

        assertEquals("rate '11' is not an IBA rate in Gb/s (2.5, 5, 10, 14, 20, 25, 28, 30, 40, 50, 56, 60, 80, " +
            "100, 112, 120, 168, 200, 300, 400, 600, 800, 1200)", ex.getMessage());
    }
}

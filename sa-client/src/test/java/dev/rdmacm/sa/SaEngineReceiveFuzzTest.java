package dev.rdmacm.sa;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.util.Arrays;

/**
 * Coverage-guided fuzz target (docs/fuzzing.md) of the SA engine's receive path ({@link SaEngine#onMad}):
 * MADs into a real engine with a Get and a GetTable in flight ({@link SaEngineUnderFuzz}). The input is a
 * sequence of {@code [control][length: 2 bytes][length bytes]}; control bit 0 stamps the MAD with the
 * TransactionID of query {@code control >> 2} (so that the fuzzer need not guess it), bit 1 sends it from
 * another port than the SA's. The contract: nothing escapes {@code onMad}, and after the deadlines both
 * queries have ended, with an answer or an {@link SaQueryException}, and the engine sends the next.
 * Seeds: what {@code ScriptedSa} answers (ClassPortInfo, a GetResp, a table in RMPP segments).
 */
class SaEngineReceiveFuzzTest
{
    @FuzzTest
    void shouldEndEveryQueryWhateverTheSaSends(final byte[] input)
    {
        final SaEngineUnderFuzz sa = new SaEngineUnderFuzz();
        int at = 0;
        while (input.length - at >= 3)
        {
            final int control = input[at] & 0xff;
            final int length = Math.min(((input[at + 1] & 0xff) << 8) | (input[at + 2] & 0xff), input.length - at - 3);
            final byte[] mad = Arrays.copyOfRange(input, at + 3, at + 3 + length);
            at += 3 + length;
            if ((control & 1) != 0 && mad.length >= 16)
            {
                SaEngineUnderFuzz.putTid(mad, sa.tid(control >> 2));
            }
            sa.receive((control & 2) == 0, mad);
        }
        sa.finish();
    }
}

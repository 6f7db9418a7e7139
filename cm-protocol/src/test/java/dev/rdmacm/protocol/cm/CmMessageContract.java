package dev.rdmacm.protocol.cm;

import org.junit.jupiter.api.Test;

/**
 * The checks every CM message test inherits: field positions against the kernel table and the
 * installed headers, byte equality with a C-built MAD, boundary round trips and the error rules.
 *
 * @param <M> the message under test.
 */
abstract class CmMessageContract<M extends CmMessage<M>>
{
    /** The message's fields and blocks, with the kernel names they are checked under. */
    abstract CmMessageSpec<M> spec();

    @Test
    void shouldPlaceEveryFieldWhereTheKernelTableAndIbCmTypesPutIt()
    {
        spec().assertPositionsMatchKernel();
    }

    @Test
    void shouldEncodeTheSameMadAsCWithMixedValues()
    {
        spec().assertEncodesAsC(false);
    }

    @Test
    void shouldEncodeTheSameMadAsCWithEveryFieldAtItsMaximum()
    {
        spec().assertEncodesAsC(true);
    }

    @Test
    void shouldRoundTripEveryFieldAtZeroAndMaximumWithoutDisturbingItsNeighbours()
    {
        spec().assertRoundTripsAtBoundaries();
    }

    @Test
    void shouldRejectValuesWiderThanTheirField()
    {
        spec().assertRejectsValuesOutOfRange();
    }

    @Test
    void shouldRejectMessageShorterThan232Bytes()
    {
        spec().assertRejectsShortMessage();
    }

    @Test
    void shouldRejectMadCarryingAnotherAttribute()
    {
        spec().assertRejectsMadOfAnotherAttribute();
    }
}

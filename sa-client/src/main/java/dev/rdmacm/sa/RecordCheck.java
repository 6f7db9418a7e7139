package dev.rdmacm.sa;

import org.agrona.DirectBuffer;

/**
 * A test every record of a response must pass to be accepted, e.g. "this PathRecord has the DGID we
 * asked for". A response with one failing record is dropped whole (and the query retried), so a
 * damaged or misdirected answer never reaches the caller.
 */
@FunctionalInterface
public interface RecordCheck
{
    RecordCheck ANY = (buffer, offset, length) -> true;

    boolean accepts(DirectBuffer buffer, int offset, int length);
}

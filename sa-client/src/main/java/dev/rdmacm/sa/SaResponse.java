package dev.rdmacm.sa;

import java.util.List;

/**
 * The accepted answer to an {@link SaRequest} with status 0.
 *
 * @param method       the response method (GetResp 0x81, GetTableResp 0x92...).
 * @param attributeId  the response attribute.
 * @param recordLength bytes per record (AttributeOffset x 8).
 * @param records      each record's bytes, in the order the SA sent them.
 * @param truncated    true when the table may have been cut at one MAD (umad2sim forwards no RMPP):
 *                     more records exist than arrived.
 */
public record SaResponse(int method, int attributeId, int recordLength, List<byte[]> records, boolean truncated)
{
}

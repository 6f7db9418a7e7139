package dev.rdmacm.addrinfo;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A hint address that is not one of the three layouts librdmacm knows (another family, or a length
 * that does not match its family): librdmacm copies such bytes through untouched, and so do we.
 */
public record OpaqueSockaddr(byte[] bytes) implements RdmaSockaddr
{
    public OpaqueSockaddr
    {
        bytes = bytes.clone();
    }

    @Override
    public int family()
    {
        return bytes.length < 2 ? AddressFamily.AF_UNSPEC : RdmaSockaddr.familyOf(bytes);
    }

    @Override
    public byte[] bytes()
    {
        return bytes.clone();
    }

    @Override
    public byte[] toBytes()
    {
        return bytes.clone();
    }

    @Override
    public String toText()
    {
        return "family " + family() + " bytes " + HexFormat.of().formatHex(bytes);
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof OpaqueSockaddr that && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString()
    {
        return "OpaqueSockaddr[" + toText() + "]";
    }
}

package dev.rdmacm.addrinfo;

import dev.rdmacm.libc.Errno;

import java.util.List;

/**
 * What {@code rdma_getaddrinfo} returns, typed: librdmacm returns 0, a negative {@code EAI_*} from glibc,
 * or -1 with {@code errno} — and -1 is also {@code EAI_BADFLAGS}. Here the three cannot be confused.
 */
public sealed interface AddrInfoResult
{
    /** The value the C call returns: 0, the EAI code, or -1 for an errno error. */
    int returnCode();

    /** The list {@code *res} points to: one entry, or two when an AF_IB entry is prepended. */
    record Success(List<RdmaAddrInfo> entries) implements AddrInfoResult
    {
        public Success
        {
            entries = List.copyOf(entries);
        }

        @Override
        public int returnCode()
        {
            return 0;
        }
    }

    /** glibc's {@code getaddrinfo} failed; returned verbatim by librdmacm. {@code message} is {@code gai_strerror}. */
    record EaiError(int code, String name, String message) implements AddrInfoResult
    {
        @Override
        public int returnCode()
        {
            return code;
        }
    }

    /** librdmacm's own failure: -1 with {@code errno}. {@code message} is {@code strerror}. */
    record ErrnoError(int errno, String name, String message) implements AddrInfoResult
    {
        public static ErrnoError of(final int errno)
        {
            return new ErrnoError(errno, Errno.name(errno), Errno.description(errno));
        }

        @Override
        public int returnCode()
        {
            return -1;
        }
    }
}

package dev.rdmacm.addrinfo;

import dev.rdmacm.libc.Libc;

/**
 * What {@code netdb.h} defines for the glibc name-service calls librdmacm itself makes: the hint flags,
 * socket types and protocols, and the layout of {@code struct addrinfo}. The calls themselves are
 * {@link Libc}'s, where every libc handle is looked up.
 * <p>
 * {@code struct addrinfo} on x86_64 Linux, 48 bytes:
 * <pre>
 *  0               4               8              12              16              20              24
 * +---------------+---------------+---------------+---------------+---------------+---------------+
 * | ai_flags      | ai_family     | ai_socktype   | ai_protocol   | ai_addrlen    | (padding)     |
 * +---------------+---------------+---------------+---------------+---------------+---------------+
 * | ai_addr (pointer)             | ai_canonname (pointer)        | ai_next (pointer)             |
 * +-------------------------------+-------------------------------+-------------------------------+
 * </pre>
 */
final class LibcNetdb
{
    static final int ADDRINFO_SIZE = 48;
    static final int AI_FLAGS_OFFSET = 0;
    static final int AI_FAMILY_OFFSET = 4;
    static final int AI_SOCKTYPE_OFFSET = 8;
    static final int AI_PROTOCOL_OFFSET = 12;
    static final int AI_ADDRLEN_OFFSET = 16;
    static final int AI_ADDR_OFFSET = 24;
    static final int AI_CANONNAME_OFFSET = 32;
    static final int AI_NEXT_OFFSET = 40;

    static final int AI_PASSIVE = 0x0001;
    static final int AI_NUMERICHOST = 0x0004;
    static final int SOCK_STREAM = 1;
    static final int SOCK_DGRAM = Libc.SOCK_DGRAM;
    static final int IPPROTO_TCP = 6;
    static final int IPPROTO_UDP = 17;

    private LibcNetdb()
    {
    }
}

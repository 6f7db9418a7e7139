package dev.rdmacm.addrinfo;

/** What glibc's {@code getaddrinfo} gave: its first result, or its error code. */
sealed interface GlibcAnswer
{
    /** The first {@code struct addrinfo} of the list; the rest is discarded, as librdmacm does. */
    record First(int flags, int family, int socktype, int protocol, byte[] addr, String canonName) implements GlibcAnswer
    {
    }

    /** A non-zero return; {@code errno} matters only for {@code EAI_SYSTEM}. */
    record Failed(int code, int errno) implements GlibcAnswer
    {
    }
}

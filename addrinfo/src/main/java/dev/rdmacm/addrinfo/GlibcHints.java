package dev.rdmacm.addrinfo;

/** The {@code struct addrinfo} hints librdmacm hands to glibc ({@code ucma_convert_to_ai}). */
record GlibcHints(int flags, int family, int socktype, int protocol)
{
}

package dev.rdmacm.addrinfo;

/** glibc's {@code EAI_*} return codes of {@code getaddrinfo} ({@code netdb.h}, x86_64 Linux). */
public final class EaiCode
{
    public static final int EAI_BADFLAGS = -1;
    public static final int EAI_NONAME = -2;
    public static final int EAI_AGAIN = -3;
    public static final int EAI_FAIL = -4;
    public static final int EAI_NODATA = -5;
    public static final int EAI_FAMILY = -6;
    public static final int EAI_SOCKTYPE = -7;
    public static final int EAI_SERVICE = -8;
    public static final int EAI_ADDRFAMILY = -9;
    public static final int EAI_MEMORY = -10;
    public static final int EAI_SYSTEM = -11;
    public static final int EAI_OVERFLOW = -12;

    private static final String[] NAMES = {"EAI_BADFLAGS", "EAI_NONAME", "EAI_AGAIN", "EAI_FAIL", "EAI_NODATA",
        "EAI_FAMILY", "EAI_SOCKTYPE", "EAI_SERVICE", "EAI_ADDRFAMILY", "EAI_MEMORY", "EAI_SYSTEM", "EAI_OVERFLOW"};

    private EaiCode()
    {
    }

    public static String name(final int code)
    {
        return code <= EAI_BADFLAGS && code >= EAI_OVERFLOW ? NAMES[-code - 1] : "EAI_" + code;
    }
}

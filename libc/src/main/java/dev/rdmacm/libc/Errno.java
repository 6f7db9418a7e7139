package dev.rdmacm.libc;

/**
 * The project's one table of Linux errno values on x86_64 (asm-generic numbering, 1 to 133): the
 * symbolic names as glibc's {@code strerrorname_np} prints them, so that an error names {@code EPERM}
 * rather than {@code 1}, and glibc's own text for each ({@code strerrordesc_np}) rather than a copy.
 * Constants exist for the values some module reports or reacts to; the RDMA CM reports failures as
 * (negative) errno and users compare them with the kernel's.
 */
public final class Errno
{
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int ENXIO = 6;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EBUSY = 16;
    public static final int ENODEV = 19;
    public static final int EINVAL = 22;
    public static final int ENOTTY = 25;
    public static final int ENOSPC = 28;
    public static final int EPIPE = 32;
    public static final int ENOSYS = 38;
    public static final int ENODATA = 61;
    public static final int EPROTO = 71;
    public static final int EPROTONOSUPPORT = 93;
    public static final int EOPNOTSUPP = 95;
    public static final int EAFNOSUPPORT = 97;
    public static final int EADDRINUSE = 98;
    public static final int EADDRNOTAVAIL = 99;
    public static final int ENETUNREACH = 101;
    public static final int ENOBUFS = 105;
    public static final int ETIMEDOUT = 110;
    public static final int ECONNREFUSED = 111;
    public static final int EHOSTUNREACH = 113;
    public static final int EINPROGRESS = 115;

    /** The highest errno the Linux x86_64 kernel defines (EHWPOISON). */
    public static final int MAX = 133;

    private static final String[] NAMES = new String[MAX + 1];

    static
    {
        NAMES[1] = "EPERM";
        NAMES[2] = "ENOENT";
        NAMES[3] = "ESRCH";
        NAMES[4] = "EINTR";
        NAMES[5] = "EIO";
        NAMES[6] = "ENXIO";
        NAMES[7] = "E2BIG";
        NAMES[8] = "ENOEXEC";
        NAMES[9] = "EBADF";
        NAMES[10] = "ECHILD";
        NAMES[11] = "EAGAIN";
        NAMES[12] = "ENOMEM";
        NAMES[13] = "EACCES";
        NAMES[14] = "EFAULT";
        NAMES[15] = "ENOTBLK";
        NAMES[16] = "EBUSY";
        NAMES[17] = "EEXIST";
        NAMES[18] = "EXDEV";
        NAMES[19] = "ENODEV";
        NAMES[20] = "ENOTDIR";
        NAMES[21] = "EISDIR";
        NAMES[22] = "EINVAL";
        NAMES[23] = "ENFILE";
        NAMES[24] = "EMFILE";
        NAMES[25] = "ENOTTY";
        NAMES[26] = "ETXTBSY";
        NAMES[27] = "EFBIG";
        NAMES[28] = "ENOSPC";
        NAMES[29] = "ESPIPE";
        NAMES[30] = "EROFS";
        NAMES[31] = "EMLINK";
        NAMES[32] = "EPIPE";
        NAMES[33] = "EDOM";
        NAMES[34] = "ERANGE";
        NAMES[35] = "EDEADLK";
        NAMES[36] = "ENAMETOOLONG";
        NAMES[37] = "ENOLCK";
        NAMES[38] = "ENOSYS";
        NAMES[39] = "ENOTEMPTY";
        NAMES[40] = "ELOOP";
        NAMES[42] = "ENOMSG";
        NAMES[43] = "EIDRM";
        NAMES[44] = "ECHRNG";
        NAMES[45] = "EL2NSYNC";
        NAMES[46] = "EL3HLT";
        NAMES[47] = "EL3RST";
        NAMES[48] = "ELNRNG";
        NAMES[49] = "EUNATCH";
        NAMES[50] = "ENOCSI";
        NAMES[51] = "EL2HLT";
        NAMES[52] = "EBADE";
        NAMES[53] = "EBADR";
        NAMES[54] = "EXFULL";
        NAMES[55] = "ENOANO";
        NAMES[56] = "EBADRQC";
        NAMES[57] = "EBADSLT";
        NAMES[59] = "EBFONT";
        NAMES[60] = "ENOSTR";
        NAMES[61] = "ENODATA";
        NAMES[62] = "ETIME";
        NAMES[63] = "ENOSR";
        NAMES[64] = "ENONET";
        NAMES[65] = "ENOPKG";
        NAMES[66] = "EREMOTE";
        NAMES[67] = "ENOLINK";
        NAMES[68] = "EADV";
        NAMES[69] = "ESRMNT";
        NAMES[70] = "ECOMM";
        NAMES[71] = "EPROTO";
        NAMES[72] = "EMULTIHOP";
        NAMES[73] = "EDOTDOT";
        NAMES[74] = "EBADMSG";
        NAMES[75] = "EOVERFLOW";
        NAMES[76] = "ENOTUNIQ";
        NAMES[77] = "EBADFD";
        NAMES[78] = "EREMCHG";
        NAMES[79] = "ELIBACC";
        NAMES[80] = "ELIBBAD";
        NAMES[81] = "ELIBSCN";
        NAMES[82] = "ELIBMAX";
        NAMES[83] = "ELIBEXEC";
        NAMES[84] = "EILSEQ";
        NAMES[85] = "ERESTART";
        NAMES[86] = "ESTRPIPE";
        NAMES[87] = "EUSERS";
        NAMES[88] = "ENOTSOCK";
        NAMES[89] = "EDESTADDRREQ";
        NAMES[90] = "EMSGSIZE";
        NAMES[91] = "EPROTOTYPE";
        NAMES[92] = "ENOPROTOOPT";
        NAMES[93] = "EPROTONOSUPPORT";
        NAMES[94] = "ESOCKTNOSUPPORT";
        NAMES[95] = "EOPNOTSUPP";
        NAMES[96] = "EPFNOSUPPORT";
        NAMES[97] = "EAFNOSUPPORT";
        NAMES[98] = "EADDRINUSE";
        NAMES[99] = "EADDRNOTAVAIL";
        NAMES[100] = "ENETDOWN";
        NAMES[101] = "ENETUNREACH";
        NAMES[102] = "ENETRESET";
        NAMES[103] = "ECONNABORTED";
        NAMES[104] = "ECONNRESET";
        NAMES[105] = "ENOBUFS";
        NAMES[106] = "EISCONN";
        NAMES[107] = "ENOTCONN";
        NAMES[108] = "ESHUTDOWN";
        NAMES[109] = "ETOOMANYREFS";
        NAMES[110] = "ETIMEDOUT";
        NAMES[111] = "ECONNREFUSED";
        NAMES[112] = "EHOSTDOWN";
        NAMES[113] = "EHOSTUNREACH";
        NAMES[114] = "EALREADY";
        NAMES[115] = "EINPROGRESS";
        NAMES[116] = "ESTALE";
        NAMES[117] = "EUCLEAN";
        NAMES[118] = "ENOTNAM";
        NAMES[119] = "ENAVAIL";
        NAMES[120] = "EISNAM";
        NAMES[121] = "EREMOTEIO";
        NAMES[122] = "EDQUOT";
        NAMES[123] = "ENOMEDIUM";
        NAMES[124] = "EMEDIUMTYPE";
        NAMES[125] = "ECANCELED";
        NAMES[126] = "ENOKEY";
        NAMES[127] = "EKEYEXPIRED";
        NAMES[128] = "EKEYREVOKED";
        NAMES[129] = "EKEYREJECTED";
        NAMES[130] = "EOWNERDEAD";
        NAMES[131] = "ENOTRECOVERABLE";
        NAMES[132] = "ERFKILL";
        NAMES[133] = "EHWPOISON";
    }

    private Errno()
    {
    }

    /** The symbolic name, e.g. {@code ENOSYS}, or {@code E?<n>} for a number Linux does not define. */
    public static String name(final int errno)
    {
        if (errno > 0 && errno <= MAX && NAMES[errno] != null)
        {
            return NAMES[errno];
        }
        return "E?" + errno;
    }

    /** The number of a symbolic name, e.g. 110 for {@code ETIMEDOUT}; -1 for a name Linux does not define. */
    public static int number(final String name)
    {
        for (int errno = 1; errno <= MAX; errno++)
        {
            if (name.equals(NAMES[errno]))
            {
                return errno;
            }
        }
        return -1;
    }

    /**
     * glibc's text for it, e.g. {@code Connection timed out} ({@code strerrordesc_np} through
     * {@link Libc}, which links libc only, never libibverbs); never null. Without the symbol (glibc
     * before 2.32), without native access or for a value glibc does not know, the text reads
     * "Unknown error N" as glibc's {@code strerror} would for an unknown value.
     */
    public static String description(final int errno)
    {
        final String text = Libc.strerrordesc(errno);
        return text == null ? "Unknown error " + errno : text;
    }

    /** {@code errno 101 ENETUNREACH (Network is unreachable)}: how an error message names an errno. */
    public static String describe(final int errno)
    {
        return "errno " + errno + " " + name(errno) + " (" + description(errno) + ")";
    }
}

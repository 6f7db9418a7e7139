package dev.rdmacm.cli;

/** cmtime's steps ({@code enum step} in cmtime.c), in its order, with the names its table prints. */
enum CmtimeStep
{
    CREATE_ID("create id"),
    BIND("bind addr"),
    RESOLVE_ADDR("resolve addr"),
    RESOLVE_ROUTE("resolve route"),
    CREATE_QP("create qp"),
    CONNECT("connect"),
    DISCONNECT("disconnect"),
    DESTROY("destroy");

    private final String label;

    CmtimeStep(final String label)
    {
        this.label = label;
    }

    /** The name in cmtime's table ({@code step_str}). */
    String label()
    {
        return label;
    }
}

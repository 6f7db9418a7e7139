/** The {@code rdmacm} command. */
module dev.rdmacm.cli
{
    requires dev.rdmacm.cm;
    requires dev.rdmacm.acm;
    requires dev.rdmacm.acm.backend;
    requires dev.rdmacm.files;
    requires dev.rdmacm.netlink;
    requires info.picocli;

    opens dev.rdmacm.cli to info.picocli;
    opens dev.rdmacm.cli.demo to info.picocli;
}

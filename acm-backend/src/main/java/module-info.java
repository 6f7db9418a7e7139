/** acm-server's misses answered by this stack's CM, and the server composed with them. */
module dev.rdmacm.acm.backend
{
    requires transitive dev.rdmacm.acm;
    requires transitive dev.rdmacm.cm;

    exports dev.rdmacm.acm.backend;
}

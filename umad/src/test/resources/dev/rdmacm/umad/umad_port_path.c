/*
 * The device file that libibumad opens for a port: "umad_port_path DEVICE PORT" prints the path of
 * umad_open_port's descriptor (/dev/infiniband/umadN), the oracle of UmadDevice.find. Test code,
 * compiled on the host while the guest boots (UmadInGuest.compileProbe) and run inside the guest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <infiniband/umad.h>

int main(int argc, char **argv)
{
    char link[64], path[256];
    if (argc != 3) { fprintf(stderr, "usage: umad_port_path DEVICE PORT\n"); return 2; }
    if (umad_init() < 0) { printf("umad_init failed\n"); return 1; }
    int portid = umad_open_port(argv[1], atoi(argv[2]));
    if (portid < 0) { printf("umad_open_port failed %d\n", portid); return 1; }
    snprintf(link, sizeof link, "/proc/self/fd/%d", umad_get_fd(portid));
    ssize_t n = readlink(link, path, sizeof path - 1);
    path[n < 0 ? 0 : n] = 0;
    printf("%s\n", path);
    return 0;
}

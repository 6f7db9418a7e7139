#!/usr/bin/env python3
"""Abuse clients for acm-server's manual reproductions (abuse-reproductions.sh): the ibacm client
protocol (librdmacm's acm.h) spoken raw over the unix socket. Not a test; prints figures."""
import ipaddress
import multiprocessing
import socket
import struct
import sys
import time

VERSION, RESOLVE, PERF_QUERY = 1, 1, 2
NODELAY = 1 << 30
COUNTERS = ["error", "resolve", "nodata", "addr_query", "addr_cache", "route_query", "route_cache"]


TYPE_PATH = 0x10


def resolve(src, dst, flags):
    """A PATH entry with SGID and DGID, as ib_acme -f g sends it (ibv_path_record: DGID at 8, SGID at 24)."""
    path = bytes(8) + ipaddress.IPv6Address(dst).packed + ipaddress.IPv6Address(src).packed + bytes(24)
    return struct.pack("<BBBBBBHQ", VERSION, RESOLVE, 0, 0, 0, 0, 16 + 72, 0) + struct.pack("<IHH", flags, TYPE_PATH, 0) + path


def recv_exactly(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise ConnectionError("closed by the server after %d of %d bytes" % (len(data), count))
        data += chunk
    return data


def recv_reply(sock):
    header = recv_exactly(sock, 16)
    opcode = header[1] & 0x0f
    length = struct.unpack("<H" if opcode == RESOLVE else ">H", header[6:8])[0]
    body = recv_exactly(sock, length - 16) if length > 16 else b""
    return header[2], header + body


def connect(path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    return sock


def flood_part(args):
    path, src, first, count, window = args
    statuses = {}
    sock = connect(path)
    sent = received = 0
    while received < count:
        batch = b""
        while sent < count and sent - received < window:
            index = first + sent
            batch += resolve(src, "fe80::1:0:%x:%x" % (index >> 16, index & 0xffff), NODELAY)
            sent += 1
        sock.sendall(batch)
        while received < sent:
            status, _ = recv_reply(sock)
            statuses[status] = statuses.get(status, 0) + 1
            received += 1
    sock.close()
    return statuses


def flood(path, src, count, connections):
    """COUNT NODELAY resolves of distinct unknown GIDs over CONNECTIONS connections, 16 in flight each."""
    share = count // connections
    start = time.monotonic()
    with multiprocessing.Pool(connections) as pool:
        parts = pool.map(flood_part, [(path, src, i * share, share, 16) for i in range(connections)])
    elapsed = time.monotonic() - start
    statuses = {}
    for part in parts:
        for status, n in part.items():
            statuses[status] = statuses.get(status, 0) + n
    names = {0: "SUCCESS", 1: "ENOMEM", 3: "ENODATA", 6: "ETIMEDOUT"}
    print("flood: %d NODELAY requests over %d connections in %.2f s (%.0f/s), replies %s" % (
        share * connections, connections, elapsed, share * connections / elapsed,
        ", ".join("%s %d" % (names.get(s, s), n) for s, n in sorted(statuses.items()))))


def perf(path):
    sock = connect(path)
    sock.sendall(struct.pack(">BBBBBBHQ", VERSION, PERF_QUERY, 0, 0, 0, 0, 16, 0))
    _, reply = recv_reply(sock)
    values = struct.unpack(">7Q", reply[16:16 + 56])
    print("perf: " + ", ".join("%s %d" % pair for pair in zip(COUNTERS, values)))


def one(path, src, dst):
    start = time.monotonic()
    sock = connect(path)
    sock.settimeout(30)
    sock.sendall(resolve(src, dst, 0))
    status, reply = recv_reply(sock)
    print("resolve %s: status %d, %d bytes, in %.1f ms" % (dst, status, len(reply), (time.monotonic() - start) * 1000))


def hold(path, count):
    """Opens COUNT connections that each complete one request, keeps them until stdin closes."""
    held = []
    for _ in range(count):
        sock = connect(path)
        sock.sendall(struct.pack(">BBBBBBHQ", VERSION, PERF_QUERY, 0, 0, 0, 0, 16, 0))
        recv_reply(sock)
        held.append(sock)
    print("held %d" % len(held), flush=True)
    sys.stdin.read()


def connect_many(path, count):
    """Opens COUNT connections that send nothing, keeps them until stdin closes (EMFILE on the server)."""
    held = []
    for _ in range(count):
        held.append(connect(path))
    print("connected %d" % len(held), flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    command, path = sys.argv[1], sys.argv[2]
    if command == "flood":
        flood(path, sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    elif command == "perf":
        perf(path)
    elif command == "one":
        one(path, sys.argv[3], sys.argv[4])
    elif command == "hold":
        hold(path, int(sys.argv[3]))
    elif command == "connect-many":
        connect_many(path, int(sys.argv[3]))

#!/usr/bin/env python3
"""Readiness probes that speak the real wire protocols, with no client library.

    probe.py kafka HOST PORT   Kafka Metadata request (v1); ok when the broker lists itself
    probe.py mongo HOST PORT   MongoDB OP_MSG {ping: 1, $db: "admin"}; ok when the reply has ok: 1

Exit status 0 when ready, 1 otherwise (the reason on stderr).
"""
import socket
import struct
import sys

TIMEOUT = 3.0


def recv_exact(sock, n):
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("connection closed by the server")
        buf += chunk
    return buf


# ------------------------------------------------------------------ Kafka
def kafka(host, port):
    client_id = b"wayfarer-probe"
    correlation_id = 7
    # request header v1: api_key=3 (Metadata), api_version=1, correlation_id, client_id
    header = struct.pack(">hhih", 3, 1, correlation_id, len(client_id)) + client_id
    body = struct.pack(">i", 0)  # topics: empty array -> brokers only, no topic metadata
    request = header + body
    with socket.create_connection((host, port), timeout=TIMEOUT) as sock:
        sock.sendall(struct.pack(">i", len(request)) + request)
        (size,) = struct.unpack(">i", recv_exact(sock, 4))
        data = recv_exact(sock, size)
    (corr, n_brokers) = struct.unpack_from(">ii", data, 0)
    if corr != correlation_id:
        raise ValueError("unexpected correlation id %d" % corr)
    off = 8
    brokers = []
    for _ in range(n_brokers):
        (node_id, host_len) = struct.unpack_from(">ih", data, off)
        off += 6
        bhost = data[off:off + host_len].decode()
        off += host_len
        (bport, rack_len) = struct.unpack_from(">ih", data, off)
        off += 6 + max(rack_len, 0)
        brokers.append("%d@%s:%d" % (node_id, bhost, bport))
    (controller_id,) = struct.unpack_from(">i", data, off)
    if not brokers:
        raise ValueError("metadata lists no live broker yet")
    return "brokers=%s controller=%d" % (",".join(brokers), controller_id)


# ------------------------------------------------------------------ MongoDB
def bson_cstring(s):
    return s.encode() + b"\x00"


def bson_doc(items):
    out = b""
    for key, value in items:
        if isinstance(value, int):
            out += b"\x10" + bson_cstring(key) + struct.pack("<i", value)
        elif isinstance(value, str):
            raw = value.encode() + b"\x00"
            out += b"\x02" + bson_cstring(key) + struct.pack("<i", len(raw)) + raw
        else:
            raise TypeError(key)
    return struct.pack("<i", len(out) + 5) + out + b"\x00"


def bson_top_level(doc):
    """Decodes the scalar top-level fields of a BSON document (skips nested ones)."""
    fields = {}
    off = 4
    end = struct.unpack_from("<i", doc, 0)[0] - 1
    fixed = {0x01: 8, 0x07: 12, 0x08: 1, 0x09: 8, 0x0A: 0, 0x10: 4, 0x11: 8, 0x12: 8, 0x13: 16}
    while off < end:
        etype = doc[off]
        off += 1
        nul = doc.index(b"\x00", off)
        name = doc[off:nul].decode()
        off = nul + 1
        if etype == 0x01:
            fields[name] = struct.unpack_from("<d", doc, off)[0]
        elif etype == 0x10:
            fields[name] = struct.unpack_from("<i", doc, off)[0]
        elif etype == 0x12:
            fields[name] = struct.unpack_from("<q", doc, off)[0]
        elif etype == 0x08:
            fields[name] = doc[off] == 1
        elif etype == 0x02:
            slen = struct.unpack_from("<i", doc, off)[0]
            fields[name] = doc[off + 4:off + 4 + slen - 1].decode(errors="replace")
            off += 4 + slen
            continue
        if etype in fixed:
            off += fixed[etype]
        elif etype in (0x03, 0x04):  # document, array
            off += struct.unpack_from("<i", doc, off)[0]
        elif etype == 0x05:  # binary
            off += 5 + struct.unpack_from("<i", doc, off)[0]
        else:
            break  # a type we do not need; "ok" comes first in practice
    return fields


def mongo(host, port):
    doc = bson_doc([("ping", 1), ("$db", "admin")])
    payload = struct.pack("<I", 0) + b"\x00" + doc  # flagBits, section kind 0 (body)
    request_id = 42
    header = struct.pack("<iiii", 16 + len(payload), request_id, 0, 2013)  # OP_MSG
    with socket.create_connection((host, port), timeout=TIMEOUT) as sock:
        sock.sendall(header + payload)
        (length, _, response_to, opcode) = struct.unpack("<iiii", recv_exact(sock, 16))
        body = recv_exact(sock, length - 16)
    if opcode != 2013 or response_to != request_id:
        raise ValueError("unexpected reply opcode=%d responseTo=%d" % (opcode, response_to))
    if body[4] != 0:
        raise ValueError("unexpected OP_MSG section kind %d" % body[4])
    fields = bson_top_level(body[5:])
    if fields.get("ok") != 1:
        raise ValueError("ping answered %r" % fields)
    return "ping ok"


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("kafka", "mongo"):
        print(__doc__, file=sys.stderr)
        return 2
    kind, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    try:
        print(globals()[kind](host, port))
        return 0
    except Exception as exc:  # noqa: BLE001 - any failure means "not ready"
        print("%s %s:%d not ready: %s" % (kind, host, port, exc), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

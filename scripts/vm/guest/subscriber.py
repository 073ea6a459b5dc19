#!/usr/bin/env python3
"""A socket client of liftbuddyd that writes every object it gets, with its
CLOCK_MONOTONIC arrival time, as JSON lines (for the BLE latency figure).

  subscriber.py SOCKET OUT.jsonl
Retries the connection until the socket exists; runs until killed.
"""
import json
import socket
import sys
import time


def main():
    path, out_path = sys.argv[1], sys.argv[2]
    deadline = time.monotonic() + 120
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    s.sendall(b'{"cmd":"watch","classes":["set","rep","rep_provisional","lift","status"]}\n')
    buffer = b""
    with open(out_path, "a", encoding="utf-8") as out:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return
            now = time.monotonic()
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                out.write(json.dumps({"mono": now, "object": json.loads(line)}) + "\n")
                out.flush()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A local origin for `gateway --origin`: serves recorded assembler responses under their navigation states, as an
ATG storefront answers `format=json`, on loopback. Used by `make run`, the process tests and `make bench-e2e`.

  test-origin.py --port 0 [--host 127.0.0.1] [--state STATE=FILE ...] [--prefix PATH=FILE ...] [--any FILE]
                 [--latency-ms N]

Prints `listening PORT` on stdout once it listens. A GET of a state named with --state answers that file; else the
file of the longest --prefix its path starts with; else, for a state starting with /, --any's file when given; else
404. Every answer carries an ETag (a hash of the bytes)
and answers 304 to a matching If-None-Match. Faults are switched on and off by POST /_control with a JSON object:
  {"latency_ms": N, "status": 500, "reset": true, "slow_body_ms": N, "oversize_bytes": N, "no_length": true,
   "body": "text instead of the file"}   ({} clears them)
GET /_count answers {"requests": N, "paths": {state: n}}: origin requests, control and count requests not counted.
"""
import argparse, hashlib, json, socket, struct, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Origin:
    def __init__(self, states, prefixes, any_file, latency_ms):
        self.states = {k: open(v, "rb").read() for k, v in states.items()}
        self.prefixes = sorted(((k, open(v, "rb").read()) for k, v in prefixes.items()), key=lambda p: -len(p[0]))
        self.any = open(any_file, "rb").read() if any_file else None
        self.lock = threading.Lock()
        self.faults = {"latency_ms": latency_ms}
        self.count = 0
        self.paths = {}


def handler(origin):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def answer(self, status, body, headers=()):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
            self.close_connection = True

        def do_POST(self):
            if self.path != "/_control":
                return self.answer(404, b"{}")
            length = int(self.headers.get("Content-Length") or 0)
            faults = json.loads(self.rfile.read(length) or b"{}")
            with origin.lock:
                origin.faults = faults
            self.answer(200, b"{}")

        def do_GET(self):
            if self.path == "/_count":
                with origin.lock:
                    body = json.dumps({"requests": origin.count, "paths": origin.paths}).encode()
                return self.answer(200, body, [("Content-Type", "application/json")])
            with origin.lock:
                origin.count += 1
                origin.paths[self.path] = origin.paths.get(self.path, 0) + 1
                faults = dict(origin.faults)
            if faults.get("latency_ms"):
                time.sleep(faults["latency_ms"] / 1000)
            if faults.get("reset"):
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.connection.close()
                self.close_connection = True
                return
            if faults.get("status"):
                return self.answer(faults["status"], b'{"error":"injected"}')
            body = origin.states.get(self.path)
            if body is None:
                path = self.path.split("?", 1)[0]
                body = next((b for p, b in origin.prefixes if path == p or path.startswith(p.rstrip("/") + "/")),
                            origin.any if self.path.startswith("/") else None)
            if "body" in faults:
                body = faults["body"].encode()
            if body is None:
                return self.answer(404, b'{"error":"no such state"}')
            if faults.get("oversize_bytes"):
                body = b" " * faults["oversize_bytes"] + body
            etag = '"' + hashlib.sha1(body).hexdigest()[:16] + '"'
            if self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.send_header("ETag", etag)
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/json; charset=UTF-8")
            self.send_header("ETag", etag)
            if not faults.get("no_length"):
                self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            if faults.get("slow_body_ms"):
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                time.sleep(faults["slow_body_ms"] / 1000)
                body = body[len(body) // 2:]
            self.wfile.write(body)
            self.close_connection = True

    return Handler


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--state", action="append", default=[], help="STATE=FILE")
    p.add_argument("--prefix", action="append", default=[], help="PATH=FILE: states under PATH")
    p.add_argument("--any", help="the file answered for any other state")
    p.add_argument("--latency-ms", type=int, default=0)
    a = p.parse_args()
    states = dict(s.rsplit("=", 1) for s in a.state)  # a state's query has = signs; a file name has none
    origin = Origin(states, dict(s.rsplit("=", 1) for s in a.prefix), a.any, a.latency_ms)
    ThreadingHTTPServer.daemon_threads = True
    ThreadingHTTPServer.request_queue_size = 1024
    server = ThreadingHTTPServer((a.host, a.port), handler(origin))
    print(f"listening {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()

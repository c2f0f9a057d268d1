#!/usr/bin/env python3
"""A loopback proxy in front of a real chat server that loosens what the client asked for (stdlib only).

  strip     deletes `response_format` from the request body: the server never hears of the schema, as a
            lenient server that accepts and ignores it.
  jsonmode  replaces any `response_format` with `{"type": "json_object"}` (no schema): a server that
            downgrades every schema to "some JSON".

Everything else is forwarded as is. Streamed answers (SSE, chunked) are passed on piece by piece as they
arrive, re-chunked, so the client still sees incremental streaming; when the client goes away the
upstream connection is closed too, so the server can stop generating.

Standalone: llama_proxy.py --upstream http://127.0.0.1:PORT --mode strip --port-file FILE
(listens on 127.0.0.1 with an OS-assigned port, written to FILE; exits when its parent dies).
"""
import argparse
import http.client
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
              "proxy-authorization", "proxy-authenticate", "content-length", "host", "date", "server"}


def rewrite(body, mode):
    """The request body the upstream server gets."""
    if not isinstance(body, dict) or "response_format" not in body:
        return body
    body = dict(body)
    if mode == "strip":
        del body["response_format"]
    elif mode == "jsonmode":
        body["response_format"] = {"type": "json_object"}
    return body


def make_handler(upstream, mode):
    target = urlsplit(upstream)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            self.forward(None)

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length)
            try:
                body = json.dumps(rewrite(json.loads(raw), mode)).encode()
            except ValueError:
                body = raw  # not JSON: the server shall judge it
            self.forward(body)

        def forward(self, body):
            conn = http.client.HTTPConnection(target.hostname, target.port, timeout=600)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
            if body is not None:
                headers["Content-Length"] = str(len(body))
            try:
                conn.request(self.command, self.path, body=body, headers=headers)
                resp = conn.getresponse()
            except OSError as e:
                payload = json.dumps({"error": {"message": "proxy: upstream unreachable: %s" % e}}).encode()
                self.send_response(502)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
                conn.close()
                return
            try:
                self.send_response(resp.status, resp.reason)
                for k, v in resp.getheaders():
                    if k.lower() not in HOP_BY_HOP:
                        self.send_header(k, v)
                if resp.getheader("Content-Length") is not None and resp.getheader("Transfer-Encoding") is None:
                    data = resp.read()
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                # Streamed: pass each piece on as soon as it arrives.
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                while True:
                    piece = resp.read1(65536)
                    if not piece:
                        break
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                    self.wfile.flush()
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True
            finally:
                conn.close()

    return Handler


def serve(upstream, mode, host="127.0.0.1"):
    """Starts a proxy on a free port in a daemon thread; returns the server (its port: server_address[1])."""
    server = ThreadingHTTPServer((host, 0), make_handler(upstream, mode))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--upstream", required=True)
    ap.add_argument("--mode", choices=["strip", "jsonmode"], required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--lifetime", type=float, default=14400,
                    help="a backstop only: the parent's death ends the peer; a whole suite on a loaded machine outlived 600 s")
    args = ap.parse_args()
    server = serve(args.upstream, args.mode)
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(tmp, args.port_file)
    parent = os.getppid()
    started = time.time()
    while time.time() - started < args.lifetime and os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Loopback OpenAI-style test peer for the GuidedModels client tests (standard library only).

Listens on 127.0.0.1 with an OS-assigned port, written to --port-file once bound. The first path segment
picks a scenario (e.g. POST /nospace/chat/completions); every request is recorded and GET /__requests
returns them as JSON. Exits by itself after --lifetime seconds or when its parent dies, so a crashed test
run leaves nothing behind.
"""
import argparse
import json
import os
import shutil
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RECORDED = []
COUNTERS = {}
LOCK = threading.Lock()


def chunk(content=None, finish=None, role=None, tool_calls=None, cid="chatcmpl-1"):
    delta = {}
    if role is not None:
        delta["role"] = role
    if content is not None:
        delta["content"] = content
    if tool_calls is not None:
        delta["tool_calls"] = tool_calls
    return json.dumps({"id": cid, "object": "chat.completion.chunk", "created": 1700000000, "model": "peer",
                       "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})


COMPLETION = {
    "id": "chatcmpl-9", "object": "chat.completion", "created": 1700000000, "model": "peer",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "{\"answer\": 42}"},
                 "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 7, "completion_tokens": 5, "total_tokens": 12},
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"  # the body ends when the connection closes: no chunked framing

    def log_message(self, *args):
        pass

    def do_GET(self):
        # /__requests?id=T: the requests a test sent (tagged with its X-Test-Id header)
        # /__closed_port: a port nothing listens on (bound, then released)
        if self.path.startswith("/__requests"):
            wanted = self.path.partition("?id=")[2]
            with LOCK:
                body = json.dumps([r for r in RECORDED if r["headers"].get("x-test-id", "") == wanted]).encode()
            self.json_bytes(body)
        elif self.path == "/__closed_port":
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
            s.close()
            self.json_bytes(json.dumps({"port": port}).encode())
        else:
            self.send_error(404)

    def json_bytes(self, body):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        with LOCK:
            RECORDED.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                             "body": raw.decode("utf-8", "replace")})
        scenario = self.path.lstrip("/").split("/", 1)[0].split("?", 1)[0]
        stream = bool(body and body.get("stream"))
        handler = getattr(self, "s_" + scenario.replace("-", "_"), None)
        if handler is None:
            self.json(404, {"error": {"message": "unknown scenario " + scenario, "type": "not_found"}})
            return
        handler(stream)

    # helpers

    def json(self, status, obj, headers=()):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def sse_head(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()

    def write(self, text):
        self.wfile.write(text.encode() if isinstance(text, str) else text)
        self.wfile.flush()

    def attempt(self):
        key = self.path + "|" + self.headers.get("X-Test-Id", "")
        with LOCK:
            COUNTERS[key] = COUNTERS.get(key, 0) + 1
            return COUNTERS[key]

    # scenarios: s_<name>(stream)

    def s_ok(self, stream):
        if not stream:
            self.json(200, COMPLETION)
            return
        self.sse_head()
        self.write("data: " + chunk(role="assistant", content="") + "\n\n")
        for piece in ["{\"answer\"", ": 42}"]:
            self.write("data: " + chunk(content=piece) + "\n\n")
        self.write("data: " + chunk(finish="stop") + "\n\n")
        usage = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1700000000, "model": "peer",
                 "choices": [], "usage": {"prompt_tokens": 7, "completion_tokens": 5, "total_tokens": 12}}
        self.write("data: " + json.dumps(usage) + "\n\n")
        self.write("data: [DONE]\n\n")

    def s_nospace(self, stream):
        self.sse_head()
        self.write("data:" + chunk(role="assistant", content="a") + "\n\n")
        self.write("data:" + chunk(content="b", finish="stop") + "\n\n")
        self.write("data:[DONE]\n\n")

    def s_crlf(self, stream):
        self.sse_head()
        self.write(b"\xef\xbb\xbf: ping\r\n\r\nretry: 2500\r\nid: 7\r\n")
        self.write("event: message\r\ndata: " + chunk(role="assistant", content="x") + "\r\n\r\n")
        self.write(": ping\r\n\r\n")
        # one JSON value split over two data lines: joined by LF, still valid JSON
        text = chunk(content="y", finish="stop")
        half = text.index(",") + 1
        self.write("data: " + text[:half] + "\r\ndata: " + text[half:] + "\r\n\r\n")
        self.write("data: [DONE]\r\n\r\n")

    def s_slow(self, stream):
        signal = self.headers.get("X-Signal-File", "")
        self.sse_head()
        self.write("data: " + chunk(role="assistant", content="first") + "\n\n")
        # generous: under a loaded test run the client's task may wait long for a thread
        deadline = time.time() + 60
        while signal and not os.path.exists(signal) and time.time() < deadline:
            time.sleep(0.01)
        last = "after-signal" if signal and os.path.exists(signal) else "timed-out"
        self.write("data: " + chunk(content=last, finish="stop") + "\n\ndata: [DONE]\n\n")

    def s_hang(self, stream):
        signal = self.headers.get("X-Signal-File", "")
        self.sse_head()
        self.write("data: " + chunk(role="assistant", content="first") + "\n\n")
        deadline = time.time() + 90
        try:
            while time.time() < deadline:
                time.sleep(0.05)
                self.write(": ping\n\n")
        except (BrokenPipeError, ConnectionResetError):
            if signal:
                open(signal + ".closed", "w").close()

    def s_ratelimit(self, stream):
        # 429 (Retry-After in seconds) for the first X-Fail-Times attempts, then a normal answer.
        fails = int(self.headers.get("X-Fail-Times", "1000"))
        if self.attempt() <= fails:
            self.json(429, {"error": {"message": "Rate limit reached", "type": "rate_limit_exceeded"}},
                      headers=[("Retry-After", self.headers.get("X-Retry-After", "1")), ("X-Request-Id", "req-429")])
            return
        self.s_ok(stream)

    def s_ratelimit_date(self, stream):
        self.json(429, {"error": {"message": "slow down"}},
                  headers=[("Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT")])

    def s_unavailable(self, stream):
        fails = int(self.headers.get("X-Fail-Times", "1000"))
        if self.attempt() <= fails:
            self.json(503, {"detail": "loading model"})
            return
        self.s_ok(stream)

    def s_gateway_timeout(self, stream):
        self.send_response(504)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        self.write("upstream timed out")

    def s_context(self, stream):
        self.json(400, {"error": {"message": "This model's maximum context length is 4096 tokens. However, you "
                                             "requested 5000 tokens (4000 in the messages, 1000 in the completion).",
                                  "type": "BadRequestError", "param": None, "code": 400}})

    def s_context_llamacpp(self, stream):
        self.json(400, {"error": {"code": 400, "message": "the request exceeds the available context size, "
                                  "try increasing it", "type": "exceed_context_size_error", "n_prompt_tokens": 5000,
                                  "n_ctx": 4096}})

    def s_bad_model(self, stream):
        self.json(404, {"error": {"message": "The model `nope` does not exist.", "type": "invalid_request_error",
                                  "param": "model", "code": "model_not_found"}})

    def s_malformed(self, stream):
        if not stream:
            data = b'{"choices": [{"message": '
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.write(data)
            return
        self.sse_head()
        self.write("data: " + chunk(role="assistant", content="ok") + "\n\n")
        self.write("data: {\"choices\": [\n\n")
        self.write("data: [DONE]\n\n")

    def s_early_close(self, stream):
        self.sse_head()
        self.write("data: " + chunk(role="assistant", content="partial") + "\n\n")
        self.write("data: " + chunk(content=" answ"))  # cut inside an event, then the connection closes

    def raw_chunked(self, events):
        # HTTP/1.1 chunked framing written by hand, then the socket closes without the final 0-size chunk:
        # to the client this is a connection lost mid-body, not a clean end.
        self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
        for e in events:
            data = ("data: " + e + "\n\n").encode()
            self.wfile.write(b"%x\r\n" % len(data) + data + b"\r\n")
        self.wfile.flush()
        self.close_connection = True

    def s_lost_chunked(self, stream):
        self.raw_chunked([chunk(role="assistant", content="partial")])

    def s_lost_after_finish(self, stream):
        self.raw_chunked([chunk(role="assistant", content="all"), chunk(finish="stop")])

    def s_error_midstream(self, stream):
        self.sse_head()
        self.write("data: " + chunk(role="assistant", content="partial") + "\n\n")
        self.write("data: " + json.dumps({"error": {"message": "CUDA out of memory", "type": "server_error",
                                                    "code": "oom"}}) + "\n\n")
        self.write("data: [DONE]\n\n")

    def s_error_event(self, stream):
        self.sse_head()
        self.write("event: error\ndata: upstream exploded\n\n")

    def s_json_error(self, stream):
        self.json(200, {"error": "model is loading"})

    def s_toolcalls(self, stream):
        self.sse_head()
        call0 = [{"index": 0, "id": "call_A", "type": "function", "function": {"name": "lookup", "arguments": ""}}]
        self.write("data: " + chunk(role="assistant", content="Let me check. ", tool_calls=call0) + "\n\n")
        again = [{"index": 0, "id": "call_A", "function": {"arguments": "{\"q\":"}}]
        self.write("data: " + chunk(content="One moment.", tool_calls=again) + "\n\n")
        more = [{"index": 0, "function": {"arguments": " 1}"}},
                {"index": 1, "id": "call_B", "type": "function", "function": {"name": "other", "arguments": "{}"}}]
        self.write("data: " + chunk(tool_calls=more) + "\n\n")
        self.write("data: " + chunk(finish="tool_calls") + "\n\n")
        self.write("data: [DONE]\n\n")

    def s_silent(self, stream):
        # headers, then nothing for 30 s: the client's idle timeout must fire first
        self.sse_head()
        time.sleep(30)

    def s_ollama(self, stream):
        # Ollama's native /api/chat: one JSON object, or NDJSON lines ending with "done": true
        final = {"model": "peer", "created_at": "2026-01-01T00:00:00Z",
                 "message": {"role": "assistant", "content": ""}, "done": True, "done_reason": "stop",
                 "prompt_eval_count": 7, "eval_count": 3}
        if not stream:
            whole = dict(final)
            whole["message"] = {"role": "assistant", "content": "{\"a\": 1}",
                                "tool_calls": [{"function": {"name": "f", "arguments": {"x": 1}}}]}
            self.json(200, whole)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.end_headers()
        for piece in ["{\"a\"", ": 1}"]:
            self.write(json.dumps({"model": "peer", "message": {"role": "assistant", "content": piece},
                                   "done": False}) + "\n")
        self.write(json.dumps(final))  # the last line without its newline is still whole

    def s_ollama_cut(self, stream):
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.end_headers()
        self.write(json.dumps({"model": "peer", "message": {"role": "assistant", "content": "x"}, "done": False}) + "\n")

    def s_nodone(self, stream):
        # ends with a finish reason but no [DONE]: complete (some servers do this)
        self.sse_head()
        self.write("data: " + chunk(role="assistant", content="done", finish="stop") + "\n\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--lifetime", type=float, default=14400,
                    help="a backstop only: the parent's death ends the peer; a whole suite on a loaded machine outlived 600 s")
    args = ap.parse_args()
    # The test process may spawn us with signals blocked (the mask is inherited): unblock and exit on TERM.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    workdir = os.path.dirname(os.path.abspath(args.port_file))

    def leave(*_):
        # The port file's directory is the test's scratch space (signal files): remove it on the way out.
        shutil.rmtree(workdir, ignore_errors=True)
        os._exit(0)

    signal.signal(signal.SIGTERM, leave)
    class Server(ThreadingHTTPServer):
        request_queue_size = 128  # the tests connect concurrently; the default backlog of 5 refuses some

    server = Server(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    parent = os.getppid()

    def watchdog():
        end = time.time() + args.lifetime
        while time.time() < end and os.getppid() == parent:
            time.sleep(0.2)
        leave()

    threading.Thread(target=watchdog, daemon=True).start()
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(tmp, args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())

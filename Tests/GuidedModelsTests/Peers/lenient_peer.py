#!/usr/bin/env python3
"""Loopback fake chat servers for the server-backend and schema-check tests (standard library only).

Listens on 127.0.0.1 with an OS-assigned port written to --port-file. The first path segment picks the
personality, e.g. POST /strict/chat/completions:

  strict    enforces llama-cpp-python's own form {response_format: {type: json_object, schema}} by answering
            a schema-valid instance; answers OpenAI's {type: json_schema} form with HTTP 500 (as
            llama-cpp-python does); ignores every other constraint member (answers like `lenient`).
  lenient   ignores response_format: plausible JSON with an invented field and the required ones missing.
  jsonmode  honours {type: json_object} only as "some JSON": an object with every declared property set
            to "Beijing" (or the string "Beijing" for non-object schemas).
  abort     streams {"name": "Ada", "invented": ...} one short piece per event; after the 5th piece it
            waits (up to 60 s) for the client to close the connection, and records how many events it
            wrote before the client went away.
  fixable   invalid on the first request of a conversation, {"name": "Ada", "age": 36} once the
            conversation contains a correction (a second user message).
  fenced    like fixable's good answer, inside a ```json fence with a sentence after it.
  reordered a valid {"age": 36, "name": "Ada"}: members in the other order than a schema declaring
            name first (JSON Schema does not order members; the early abort must not cancel it).

With `tools` in the request (OpenAI function calling):

  strict    honours them: calls the named tool (tool_choice {"type": "function"...}), else the first one,
            with schema-valid arguments.
  lenient   ignores tool_choice and the schemas: answers text under "required", calls another tool than
            the named one, and writes {"answer": "Beijing"} as the arguments.
  toolfix   invalid arguments on the first request of a conversation, valid ones after a correction.
  toolabort streams {"city": "Beijing", ...} as arguments, one short piece per event, waiting for the
            client's cancel as abort does.
  tooldelta streams a tool-call delta whose arguments are a number (malformed wire data).
  toolnoname streams argument fragments for a call that never gets a name.

Unknown models (name starting with "missing") get a 404 with an OpenAI error envelope. GET /__log?id=X
returns the requests tagged X-Test-Id: X. Exits after --lifetime seconds or when its parent dies.
"""
import argparse
import json
import os
import re
import select
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# "abort" and "toolabort": the line after which the client must have cancelled. In abort, line 5 is the 5th
# content piece, whose bytes cannot continue the schema; toolabort's client cancels earlier (its line 4
# holds the `B` of "Beijing"), so waiting after line 5 serves both.
ABORT_LINE = 5

LOG = []
LOCK = threading.Lock()


def instance(schema, root=None):
    """A schema-valid instance for the keywords the probe battery uses."""
    root = root if root is not None else schema
    if "$ref" in schema:
        target = root
        for part in schema["$ref"].lstrip("#/").split("/"):
            if part:
                target = target[part]
        return instance(target, root)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema:
        return instance(schema["anyOf"][0], root)
    t = schema.get("type")
    if t == "object":
        props = schema.get("properties", {})
        return {k: instance(props.get(k, {}), root) for k in schema.get("required", [])}
    if t == "array":
        return [instance(schema.get("items", {}), root) for _ in range(schema.get("minItems", 0))]
    if t == "string":
        if schema.get("format") == "date":
            return "2024-02-29"
        if schema.get("format") == "uuid":
            return "123e4567-e89b-12d3-a456-426614174000"
        if "pattern" in schema:
            return from_pattern(schema["pattern"])
        return "a" * max(schema.get("minLength", 0), 1)
    if t == "integer":
        return schema.get("minimum", 0)
    if t == "number":
        if "exclusiveMinimum" in schema:
            return schema["exclusiveMinimum"] + 0.5
        return schema.get("minimum", 0.5)
    return None


def from_pattern(pattern):
    """A match for simple anchored patterns: literals and [A-Z]/[0-9] classes with {n}."""
    out = []
    for cls, lit, count in re.findall(r"(\[[^\]]+\])|([^\[\]{}^$])|\{(\d+)\}", pattern):
        if cls:
            out.append(cls[1])
        elif lit:
            out.append(lit)
        elif count:
            out.append(out[-1] * (int(count) - 1))
    return "".join(out)


def lenient_answer(schema):
    return {"answer": "Beijing", "note": "I ignored the format", "invented_field": True}


def jsonmode_answer(schema):
    if schema.get("type") == "object" and "properties" in schema:
        return {k: "Beijing" for k in schema["properties"]}
    return "Beijing"


def tool_answer(mode, body):
    """(content, calls) for a request with tools; each call is (name, arguments text)."""
    tools = [t["function"] for t in body.get("tools", [])]
    choice = body.get("tool_choice")
    named = choice["function"]["name"] if isinstance(choice, dict) else None
    corrected = sum(1 for m in body.get("messages", []) if m.get("role") == "user") > 1
    if mode == "strict" or (mode == "toolfix" and corrected):
        if choice == "none":
            return "No tool needed.", []
        tool = next((t for t in tools if t["name"] == named), tools[0])
        return None, [(tool["name"], json.dumps(instance(tool.get("parameters", {}))))]
    if mode == "lenient":
        if choice == "required":
            return "Hello! No tool for that.", []
        other = next((t for t in tools if t["name"] != named), tools[0])
        return None, [(other["name"], json.dumps({"answer": "Beijing"}))]
    if mode == "toolabort":
        return None, [(tools[0]["name"], '{"city": "Beijing", "note": "' + "x" * 160 + '"}')]
    return None, [(tools[0]["name"], json.dumps({"answer": "Beijing"}))]


def pieces(text, size=4):
    return [text[i:i + size] for i in range(0, len(text), size)]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path.startswith("/__closed_port"):
            probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
            probe.close()
            self.send_json(200, {"port": port})
        elif self.path.startswith("/__log"):
            tid = self.path.split("id=", 1)[-1]
            with LOCK:
                entries = [e for e in LOG if e["id"] == tid]
            self.send_json(200, entries)
        else:
            self.send_json(404, {"error": {"message": "no such path"}})

    def send_json(self, status, obj):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        mode = self.path.strip("/").split("/")[0]
        entry = {"id": self.headers.get("X-Test-Id", ""), "path": self.path, "body": body,
                 "events_written": 0, "events_total": 0, "finished": False}
        with LOCK:
            LOG.append(entry)
        try:
            self.answer(mode, body, entry)
        finally:
            entry["finished"] = True

    def answer(self, mode, body, entry):
        if str(body.get("model", "")).startswith("missing"):
            self.send_json(404, {"error": {"message": "The model `%s` does not exist" % body["model"],
                                           "type": "invalid_request_error", "code": "model_not_found"}})
            return
        if body.get("tools") or mode in ("tooldelta", "toolnoname"):
            self.answer_tools(mode, body, entry)
            return
        rf = body.get("response_format") or {}
        schema = rf.get("schema") or (rf.get("json_schema") or {}).get("schema") or {}
        if mode == "strict":
            if rf.get("type") == "json_schema":
                self.send_json(500, {"error": {"message": "1 validation error for json_schema: Input should be "
                                               "'text' or 'json_object'", "type": "internal_server_error"}})
                return
            if rf.get("type") == "json_object" and "schema" in rf:
                text = json.dumps(instance(rf["schema"]))
            else:
                text = json.dumps(lenient_answer(schema))
        elif mode == "lenient":
            text = json.dumps(lenient_answer(schema))
        elif mode == "jsonmode":
            text = json.dumps(jsonmode_answer(schema)) if rf.get("type") == "json_object" else "Beijing is the capital."
        elif mode == "abort":
            text = '{"name": "Ada", "invented": "' + "x" * 160 + '"}'
        elif mode == "reordered":
            text = '{"age": 36, "name": "Ada"}'
        elif mode in ("fixable", "fenced"):
            corrected = sum(1 for m in body.get("messages", []) if m.get("role") == "user") > 1
            if mode == "fenced":
                text = '```json\n{"name": "Ada", "age": 36}\n```\nThat is the answer.'
            elif corrected:
                text = '{"name": "Ada", "age": 36}'
            else:
                text = '{"name": "Ada", "age": "thirty-six", "nickname": "Countess"}'
        else:
            self.send_json(404, {"error": {"message": "unknown mode " + mode}})
            return
        completion_tokens = len(pieces(text))
        usage = {"prompt_tokens": 10, "completion_tokens": completion_tokens, "total_tokens": 10 + completion_tokens}
        if not body.get("stream"):
            self.send_json(200, {"id": "chatcmpl-fake", "object": "chat.completion", "created": 1700000000,
                                 "model": body.get("model"), "usage": usage,
                                 "choices": [{"index": 0, "finish_reason": "stop",
                                              "message": {"role": "assistant", "content": text}}]})
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        events = [{"role": "assistant", "content": ""}] + [{"content": p} for p in pieces(text)]
        chunks = [{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": body.get("model"),
                   "choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in events]
        chunks.append({"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": body.get("model"),
                       "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
        if (body.get("stream_options") or {}).get("include_usage"):
            chunks.append({"id": "chatcmpl-fake", "object": "chat.completion.chunk", "choices": [], "usage": usage})
        lines = ["data: " + json.dumps(c) + "\n\n" for c in chunks] + ["data: [DONE]\n\n"]
        entry["events_total"] = len(lines)
        try:
            for k, line in enumerate(lines):
                self.wfile.write(line.encode())
                self.wfile.flush()
                entry["events_written"] += 1
                # In "abort" mode the client must cancel once it has the 5th content event (line 5). The
                # peer then waits for the client to close the connection before writing more, so the count
                # of events written does not depend on how fast a loaded machine schedules the client.
                if mode == "abort" and k == ABORT_LINE and self.client_closed_within(60):
                    break
                time.sleep(0.002)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True


    def client_closed_within(self, seconds):
        """Whether the client closes its end of the connection (end of file, or a reset) within `seconds`.
        The request was read whole, so anything readable now is the close."""
        conn = self.connection
        readable, _, _ = select.select([conn], [], [], seconds)
        if not readable:
            return False
        try:
            return conn.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def answer_tools(self, mode, body, entry):
        """Function-calling answers (see the module doc); streamed with the arguments in pieces."""
        if mode in ("tooldelta", "toolnoname"):
            content, calls = None, []
        else:
            content, calls = tool_answer(mode, body)
        usage = {"prompt_tokens": 10, "completion_tokens": 8, "total_tokens": 18}
        finish = "tool_calls" if calls else "stop"
        if not body.get("stream"):
            message = {"role": "assistant", "content": content}
            if calls:
                message["tool_calls"] = [{"id": "call_%d" % k, "type": "function",
                                          "function": {"name": n, "arguments": a}} for k, (n, a) in enumerate(calls)]
            self.send_json(200, {"id": "chatcmpl-fake", "object": "chat.completion", "created": 1700000000,
                                 "model": body.get("model"), "usage": usage,
                                 "choices": [{"index": 0, "finish_reason": finish, "message": message}]})
            return
        deltas = [{"role": "assistant", "content": content or ""}]
        if mode == "tooldelta":
            deltas.append({"tool_calls": [{"index": 0, "id": "call_0", "type": "function",
                                           "function": {"name": "get_weather", "arguments": 5}}]})
        elif mode == "toolnoname":
            deltas += [{"tool_calls": [{"index": 0, "function": {"arguments": p}}]} for p in pieces('{"city": "Paris"}')]
        for k, (name, arguments) in enumerate(calls):
            deltas.append({"tool_calls": [{"index": k, "id": "call_%d" % k, "type": "function",
                                           "function": {"name": name, "arguments": ""}}]})
            deltas += [{"tool_calls": [{"index": k, "function": {"arguments": p}}]} for p in pieces(arguments)]
        chunks = [{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": body.get("model"),
                   "choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in deltas]
        chunks.append({"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": body.get("model"),
                       "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
        if (body.get("stream_options") or {}).get("include_usage"):
            chunks.append({"id": "chatcmpl-fake", "object": "chat.completion.chunk", "choices": [], "usage": usage})
        lines = ["data: " + json.dumps(c) + "\n\n" for c in chunks] + ["data: [DONE]\n\n"]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        entry["events_total"] = len(lines)
        try:
            for k, line in enumerate(lines):
                self.wfile.write(line.encode())
                self.wfile.flush()
                entry["events_written"] += 1
                if mode == "toolabort" and k == ABORT_LINE and self.client_closed_within(60):
                    break
                time.sleep(0.002)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--lifetime", type=float, default=14400,
                    help="a backstop only: the parent's death ends the peer; a whole suite on a loaded machine outlived 600 s")
    args = ap.parse_args()
    class Server(ThreadingHTTPServer):
        # The suites connect concurrently; under load the default backlog of 5 overflowed and the kernel
        # reset connections (a loaded run of 2026-12-02: "Recv failure: Connection reset by peer").
        request_queue_size = 128

    server = Server(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(tmp, args.port_file)
    parent = os.getppid()
    started = time.time()

    def watchdog():
        while time.time() - started < args.lifetime and os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watchdog, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())

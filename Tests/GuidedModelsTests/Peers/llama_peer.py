#!/usr/bin/env python3
"""The real llama-cpp-python peer of the test suite: its OpenAI-compatible server and two loosening proxies.

Runs in one process, all on 127.0.0.1 with OS-assigned ports:
  server    llama-cpp-python's own server app (llama_cpp.server, the same app `python -m llama_cpp.server`
            serves) with the tiny model of make_tiny_gguf.py under the alias `tiny`, n_ctx 2048;
  strip     llama_proxy.py in front of it, deleting `response_format` (a lenient server);
  jsonmode  llama_proxy.py in front of it, downgrading `response_format` to `{type: json_object}`.
When all three listen, writes {"server": port, "strip": port, "jsonmode": port, "llama_cpp_python": version,
"model": path} to --port-file (atomically). Exits when its parent process dies or after --lifetime seconds.

The model is written once per version of make_tiny_gguf.py and of the vocabulary, into --model-dir (a
cache outside the repository), named by a hash of both.

Needs the packages that Peers/setup_llama_peer.sh installs (llama-cpp-python[server], gguf). Without them
it exits with status 3 and says so on stderr.
"""
import argparse
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def model_path(vocab, model_dir):
    h = hashlib.sha256()
    for path in (os.path.join(HERE, "make_tiny_gguf.py"), vocab):
        with open(path, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    return os.path.join(model_dir, "tiny-%s.gguf" % h.hexdigest()[:16])


def ensure_model(vocab, model_dir):
    path = model_path(vocab, model_dir)
    if not os.path.exists(path):
        os.makedirs(model_dir, exist_ok=True)
        # A private temporary name: two runs at once must not write into each other's file.
        tmp = "%s.%d.gguf" % (path[:-5], os.getpid())
        subprocess.run([sys.executable, os.path.join(HERE, "make_tiny_gguf.py"), "--vocab", vocab, "--out", tmp],
                       check=True)
        os.replace(tmp, path)
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vocab", required=True, help="qwen2.tokenizer.json")
    ap.add_argument("--model-dir", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--lifetime", type=float, default=14400,
                    help="a backstop only: the parent's death ends the peer; a whole suite on a loaded machine outlived 600 s")
    args = ap.parse_args()

    parent = os.getppid()
    started = time.time()

    def watchdog():
        while time.time() - started < args.lifetime and os.getppid() == parent:
            time.sleep(0.5)
        # The launcher's private directory (port file, stderr log) outlives a test process that exits
        # without tearing its peers down: remove it on the way out.
        directory = os.path.dirname(os.path.abspath(args.port_file))
        if os.path.basename(directory).startswith("llama-peer-"):
            shutil.rmtree(directory, ignore_errors=True)
        os._exit(0)

    threading.Thread(target=watchdog, daemon=True).start()

    try:
        import llama_cpp
        import uvicorn
        from llama_cpp.server.app import create_app
        from llama_cpp.server.settings import ModelSettings, ServerSettings
    except ImportError as e:
        sys.stderr.write("llama_peer: llama-cpp-python[server] is not installed for %s (%s); "
                         "run Tests/GuidedModelsTests/Peers/setup_llama_peer.sh\n" % (sys.executable, e))
        return 3
    sys.path.insert(0, HERE)
    import llama_proxy

    model = ensure_model(args.vocab, args.model_dir)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    port = sock.getsockname()[1]
    app = create_app(
        server_settings=ServerSettings(host="127.0.0.1", port=port),
        model_settings=[ModelSettings(model=model, model_alias="tiny", n_ctx=2048, n_threads=1, n_threads_batch=1,
                                      verbose=False)])
    upstream = "http://127.0.0.1:%d" % port
    strip = llama_proxy.serve(upstream, "strip")
    jsonmode = llama_proxy.serve(upstream, "jsonmode")
    info = {"server": port, "strip": strip.server_address[1], "jsonmode": jsonmode.server_address[1],
            "llama_cpp_python": llama_cpp.__version__, "model": model}
    # Connections made before uvicorn starts accepting wait in the listen backlog.
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        json.dump(info, f)
    os.rename(tmp, args.port_file)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_keep_alive=30))
    server.run(sockets=[sock])
    return 0


if __name__ == "__main__":
    sys.exit(main())

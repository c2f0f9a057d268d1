#!/usr/bin/env python3
"""llama.cpp's own `llama-server` as a peer of the test suite (standard library only).

Starts SERVER (the llama-server of scripts/setup-llama.sh) on MODEL under the alias `tiny`, on 127.0.0.1 with
an OS-assigned port (`--port 0`; the port is read from its "listening on" log line), one slot, one thread,
waits until /health answers 200 (the model is loaded), then writes {"port": P} to --port-file (atomically).
Exits, stopping the server, when its parent process dies or after --lifetime seconds. The server's log goes
to this process's stderr (PeerProcess keeps it for the error message).

Usage: llama_server_peer.py --server PATH --model PATH --port-file FILE [--lifetime S] [--ctx N]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.request


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--lifetime", type=float, default=14400,
                    help="a backstop only: the parent's death ends the peer; a whole suite on a loaded machine outlived 600 s")
    ap.add_argument("--ctx", type=int, default=2048)
    args = ap.parse_args()

    parent = os.getppid()
    started = time.time()
    server = subprocess.Popen(
        [args.server, "--model", args.model, "--alias", "tiny", "--host", "127.0.0.1", "--port", "0",
         "--ctx-size", str(args.ctx), "--parallel", "1", "--threads", "1", "--threads-http", "2", "--no-webui",
         "--no-warmup"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")

    port = []

    def pump():
        for line in server.stdout:
            sys.stderr.write(line)
            if not port:
                m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
                if m:
                    port.append(int(m.group(1)))

    threading.Thread(target=pump, daemon=True).start()

    def stop(status):
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(timeout=5)
            except subprocess.TimeoutExpired:
                server.kill()
        os._exit(status)

    reported = False
    while True:
        if os.getppid() != parent or time.time() - started > args.lifetime:
            stop(0)
        if server.poll() is not None:
            sys.stderr.write("llama_server_peer: llama-server exited with status %d\n" % server.returncode)
            os._exit(1)
        if port and not reported:
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/health" % port[0], timeout=2) as r:
                    ready = r.status == 200
            except Exception:
                ready = False
            if ready:
                tmp = args.port_file + ".tmp"
                with open(tmp, "w") as f:
                    json.dump({"port": port[0]}, f)
                os.rename(tmp, args.port_file)
                reported = True
        time.sleep(0.2)


if __name__ == "__main__":
    main()

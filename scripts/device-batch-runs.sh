#!/usr/bin/env bash
# The batch-fill runs for the device (docs/performance.md, "Batch fill on threads"): eager stealing
# against patience, rows sharing a grammar against private grammars, per-row times, first visits, a
# request joining a batch, and the pool alone. Made to travel: the device has no Swift toolchain.
#
# Prepare on the VM, in an ignored folder of the checkout (here .devrun, named in the run's `carry`):
#   echo .devrun/ >> .git/info/exclude; mkdir -p .devrun
#   swift build -c release --product guided-batch-bench --static-swift-stdlib --build-path /tmp/bstatic
#   cp /tmp/bstatic/release/guided-batch-bench .devrun/ && strip .devrun/guided-batch-bench
#   cp ../shared/vocab/qwen2.tokenizer.json /usr/lib/x86_64-linux-gnu/libpcre2-8.so.0 .devrun/
#   gzip .devrun/guided-batch-bench .devrun/qwen2.tokenizer.json      (the carry limit is 64 MiB)
# then run `bash scripts/device-batch-runs.sh .devrun` there (about 3 minutes; `--quick` after DIR: one
# process of each kind, about a minute).
set -uo pipefail
dir=${1:?usage: device-batch-runs.sh DIR [--quick]}
quick=${2:-}
cd "$dir"
for f in *.gz; do [ -e "$f" ] && gunzip -f "$f"; done
chmod +x guided-batch-bench
export LD_LIBRARY_PATH=$PWD
lscpu | grep -E "Model name|^CPU\(s\)|Thread|MHz|L2|L3"
B="./guided-batch-bench --tokenizer qwen2.tokenizer.json"
if [ "$quick" = --quick ]; then
    for p in 0 5; do echo "== visited states, patience $p us"; $B --warm --threads 1 8 16 --rounds 2000 --patience-us $p | tail -3; done
    echo "== visited states, private grammars"; $B --warm --threads 1 8 16 --rounds 2000 --private-grammars | tail -3
    echo "== visited states, row times"; $B --warm --row-times --threads 1 8 --rounds 500 | tail -6
    for p in 0 20; do echo "== first visits, patience $p us"; $B --cold --threads 1 8 --rounds 8 --patience-us $p | tail -2; done
    echo "== first visits, row times"; $B --cold --row-times --threads 1 8 --rounds 6 | tail -6
    exit 0
fi
for i in 1 2; do
    for p in 0 5 20; do echo "== visited states, patience $p us ($i)"; $B --warm --threads 1 8 16 --rounds 3000 --patience-us $p | tail -3; done
    echo "== visited states, private grammars ($i)"; $B --warm --threads 1 8 16 --rounds 3000 --private-grammars | tail -3
done
for p in 0 5; do echo "== visited states, row times, patience $p us"; $B --warm --row-times --threads 1 8 --rounds 1000 --patience-us $p | tail -6; done
for p in 0 5 20; do echo "== first visits, patience $p us"; $B --cold --threads 1 8 16 --rounds 16 --patience-us $p | tail -3; done
for p in 0 20; do echo "== first visits, row times, patience $p us"; $B --cold --row-times --threads 1 8 --rounds 12 --patience-us $p | tail -6; done
for p in 0 5; do echo "== one new request, patience $p us"; $B --mixed --threads 1 8 --rounds 150 --patience-us $p | tail -2; done
echo "== the pool alone"; $B --pool-floor --threads 1 8 --rounds 3000

#!/usr/bin/env bash
# Builds libGuidedDecodingC.so, the C ABI (Sources/GuidedDecodingC/include/guided_decoding.h), as one
# self-contained shared library: the Swift runtime, Foundation and Dispatch are linked in statically, so
# it loads on a machine without a Swift toolchain. Only system libraries and PCRE2 stay dynamic.
#
# Why not the SwiftPM product: `swift build --static-swift-stdlib` still links a dynamic-library
# product against the toolchain's libswiftCore.so and libFoundation.so. So SwiftPM compiles the targets
# (release), and swiftc links their object files with -static-stdlib; a version script exports the gd_*
# functions only, so the Swift runtime inside never clashes with another one in the same process.
#
# Usage: scripts/build-c-abi.sh [--output DIR]   (default: .build/c-abi; prints the library's path last)
set -euo pipefail
cd "$(dirname "$0")/.."

out=.build/c-abi
while [ $# -gt 0 ]; do
    case "$1" in
        --output) out="$2"; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "build-c-abi: unknown argument $1" >&2; exit 2 ;;
    esac
done

# The SwiftPM product links against the toolchain's shared libraries, but building it leaves the exact
# list of object files it linked (Objects.LinkFileList): those are relinked below. (A glob of the .build
# folders would also pick up objects of since-deleted sources.)
swift build -c release --product GuidedDecodingC >&2
bin=$(swift build -c release --show-bin-path)
list="$bin/GuidedDecodingC.product/Objects.LinkFileList"
[ -f "$list" ] || { echo "build-c-abi: $list not found (SwiftPM layout changed?)" >&2; exit 1; }
mapfile -t objects < <(sed -e "s/^'//" -e "s/'$//" "$list")
[ ${#objects[@]} -gt 0 ] || { echo "build-c-abi: no object files in $list" >&2; exit 1; }

mkdir -p "$out"
cat > "$out/exports.map" <<'MAP'
{ global: gd_*; local: *; };
MAP
lib="$out/libGuidedDecodingC.so"
# Foundation's own static archives name their dependencies (_FoundationICU, _FoundationCollections, ...)
# in autolink entries that the linker does not read from archives: list them, as one group.
static=$(dirname "$(dirname "$(realpath "$(command -v swiftc)")")")/lib/swift_static/linux
foundation=()
for a in Foundation FoundationEssentials FoundationInternationalization _FoundationCollections _FoundationICU \
         _FoundationCShims CoreFoundation; do
    foundation+=("$static/lib$a.a")
done
group=(-Xlinker --start-group)
for a in "${foundation[@]}"; do group+=(-Xlinker "$a"); done
group+=(-Xlinker --end-group)
swiftc -emit-library -static-stdlib -o "$lib" "${objects[@]}" \
    -lpcre2-8 \
    "${group[@]}" \
    -Xlinker --version-script="$out/exports.map" \
    -Xlinker -soname=libGuidedDecodingC.so \
    -Xlinker --gc-sections >&2
strip --strip-unneeded "$lib"
cp Sources/GuidedDecodingC/include/guided_decoding.h "$out/"

# Self-containment check: no shared library from the Swift toolchain may be needed.
if ldd "$lib" | grep -Eq 'swift|libFoundation|libdispatch|libBlocksRuntime|_FoundationICU|not found'; then
    echo "build-c-abi: $lib still needs toolchain libraries:" >&2
    ldd "$lib" >&2
    exit 1
fi
echo "$(cd "$out" && pwd)/libGuidedDecodingC.so"

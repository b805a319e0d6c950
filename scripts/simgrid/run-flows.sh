#!/usr/bin/env bash
# Replays a netsched flow file with SimGrid (flows.cpp), for the comparison of
# network/simgrid_test.go and results/benchmarks.md.
#
# Usage: scripts/simgrid/run-flows.sh FILE.json [maxmin|cm02] [--cfg=...]
# Prints CSV "flow,end" in the file's order on stdout. Builds flows.cpp with g++
# against libsimgrid-dev (Debian package) into $NETSCHED_SIMGRID_BUILD (default
# a temporary folder under ${TMPDIR:-/tmp}), again whenever flows.cpp is newer.
#
# SimGrid runs CM02 with latency and bandwidth factors 1, weight-S 0, no cross
# traffic, and surf/precision 1e-15 instead of 1e-9, so that it does not merge
# completions 1e-9 s apart (maxmin/precision stays 1e-5: at 1e-15 SimGrid's
# solver aborts on its own rounding errors). maxmin
# zeroes the links' latencies and starts each flow at its activation instead
# (flows2sg.py), which turns CM02's latency weighting and TCP bound off.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
file="${1:?usage: run-flows.sh FILE.json [maxmin|cm02] [--cfg=...]}"
model="${2:-maxmin}"
shift $(( $# >= 2 ? 2 : 1 ))
build="${NETSCHED_SIMGRID_BUILD:-${TMPDIR:-/tmp}/netsched-simgrid}"
mkdir -p "$build"
bin="$build/flows"
if [ ! -x "$bin" ] || [ "$here/flows.cpp" -nt "$bin" ]; then
  g++ -O2 -std=c++17 "$here/flows.cpp" -lsimgrid -o "$bin.tmp.$$"
  mv "$bin.tmp.$$" "$bin"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$here/flows2sg.py" "$file" "$model" "$work"
echo "flow,end"
"$bin" "$work/platform.xml" "$work/flows.txt" \
  --cfg=network/model:CM02 --cfg=network/latency-factor:1 --cfg=network/bandwidth-factor:1 \
  --cfg=network/weight-S:0 --cfg=network/crosstraffic:0 \
  --cfg=surf/precision:1e-15 \
  --log=root.thresh:warning "$@" | tr ' ' ','

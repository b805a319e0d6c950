#!/bin/sh
# actors.sh: issue 40's comparison of netsched's processes, actors and
# callbacks with SimGrid's actors, interleaved on one machine.
#
# Builds scripts/simgrid/actors.cpp with g++ against libsimgrid-dev and
# package sim's test binary, then runs ROUNDS rounds of: SimGrid's
# 100 actors × 10^4 Exp(1) sleeps, then BenchmarkSleepers (the same
# workload as callbacks, actors and processes). Every figure is CPU time
# (user+system) per sleep, measured inside each program around its run.
# Prints one line per round and the medians, with each Go form's ratio
# SimGrid / netsched (how many times faster netsched is).
#
# Usage (from the repository root): scripts/simgrid/actors.sh [ROUNDS]   (default 5)
# Runs under nice; the build products go to a temporary directory.
set -eu
rounds=${1:-5}
case $rounds in '' | *[!0-9]* | 0)
	echo "usage: $0 [ROUNDS >= 1]" >&2
	exit 2
	;;
esac
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! printf '#include <simgrid/s4u.hpp>\n' | g++ -std=c++17 -x c++ -fsyntax-only - 2>/dev/null; then
	echo "$0: g++ cannot find SimGrid's headers: apt-get install g++ libsimgrid-dev" >&2
	exit 2
fi
g++ -O2 -std=c++17 "$root/scripts/simgrid/actors.cpp" -o "$tmp/actors" -lsimgrid
(cd "$root" && go test -c -o "$tmp/sim.test" ./sim)

actors=100
sleeps=10000
n=$((actors * sleeps))
echo "round simgrid-ns callback-ns actor-ns process-ns | callback× actor× process×"
for r in $(seq "$rounds"); do
	sg=$(nice "$tmp/actors" $actors $sleeps "$r" | sed -n 's/.* cpu-s=//p')
	nice "$tmp/sim.test" -test.run '^$' -test.bench '^BenchmarkSleepers$' \
		-test.benchtime "${n}x" >"$tmp/go.txt"
	awk -v r="$r" -v sg="$sg" -v n="$n" '
		/^BenchmarkSleepers\// {
			split($1, f, "[/-]")
			for (i = 2; i < NF; i++) if ($(i + 1) == "cpu-ns/op") ns[f[2]] = $i
		}
		END {
			s = sg * 1e9 / n
			printf "%d %.1f %.1f %.1f %.1f | %.1f %.1f %.1f\n", r, s,
				ns["callback"], ns["actor"], ns["process"],
				s / ns["callback"], s / ns["actor"], s / ns["process"]
		}' "$tmp/go.txt"
done | tee "$tmp/rounds.txt"
awk '
	{ for (i = 2; i <= 5; i++) v[i, NR] = $i; for (i = 7; i <= 9; i++) v[i, NR] = $i }
	END {
		printf "median"
		for (i = 2; i <= 9; i++) {
			if (i == 6) { printf " |"; continue }
			m = 0
			for (k = 1; k <= NR; k++) a[k] = v[i, k]
			for (k = 2; k <= NR; k++) for (j = k; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
			m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
			printf " %.1f", m
		}
		printf "\n"
	}' "$tmp/rounds.txt"

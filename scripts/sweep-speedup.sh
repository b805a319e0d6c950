#!/usr/bin/env bash
# sweep-speedup.sh [ROUNDS]: measures BenchmarkSweep's speed-up from a second
# worker on a noisy machine. Each round runs the 1-job and the 2-job benchmark
# back to back (-benchtime 40x each, in turn first), so that both see the same
# moment of the host; the script prints the medians, the median of the per-round speed-ups
# and their quartiles. Then, as a ceiling, it runs the 1-job benchmark in one
# GOMAXPROCS=1 process alone and in two such processes side by side: the
# throughput two independent processes get from two cores.
#
# Used for results/benchmarks.md (issue 3). Needs only Go and awk.
set -euo pipefail
rounds=${1:-20}
cd "$(dirname "$0")/../sweep"
bin=$(mktemp -d)/sweep.test
go test -c -o "$bin" .
bench() { # bench JOBS: ns/op of one run of the benchmark
	"$bin" -test.run XXX -test.bench "BenchmarkSweep\$/^jobs=$1\$" -test.benchtime 40x | awk '/^Bench/ {print $3}'
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
quartiles() { sort -g | awk '{v[NR] = $1} END {printf "%.2f %.2f %.2f", v[int(NR/4)+1], v[int(NR/2)+1], v[int(3*NR/4)+1]}'; }

one=() two=() ratio=()
for ((i = 0; i < rounds; i++)); do
	if ((i % 2)); then b=$(bench 2) a=$(bench 1); else a=$(bench 1) b=$(bench 2); fi
	one+=("$a") two+=("$b") ratio+=("$(awk -v a="$a" -v b="$b" 'BEGIN {print a / b}')")
done
m1=$(printf '%s\n' "${one[@]}" | median) m2=$(printf '%s\n' "${two[@]}" | median)
awk -v a="$m1" -v b="$m2" 'BEGIN {printf "1 job: median %.0f runs/s; 2 jobs: median %.0f runs/s; ratio of medians %.2fx\n", 1e12 / a, 1e12 / b, a / b}'
echo "per-round speed-up (1st quartile, median, 3rd quartile) over $rounds rounds: $(printf '%s\n' "${ratio[@]}" | quartiles)"

alone=() pair=()
for ((i = 0; i < rounds / 2 + 1; i++)); do
	alone+=("$(GOMAXPROCS=1 bench 1)")
	GOMAXPROCS=1 bench 1 >"$bin.p" &
	q=$(GOMAXPROCS=1 bench 1)
	wait
	pair+=("$(awk -v p="$(cat "$bin.p")" -v q="$q" 'BEGIN {print (p + q) / 2}')")
done
ma=$(printf '%s\n' "${alone[@]}" | median) mp=$(printf '%s\n' "${pair[@]}" | median)
awk -v a="$ma" -v p="$mp" 'BEGIN {printf "ceiling: one GOMAXPROCS=1 process %.0f runs/s; two side by side %.0f runs/s in all (%.2fx)\n", 1e12 / a, 2e12 / p, 2 * a / p}'

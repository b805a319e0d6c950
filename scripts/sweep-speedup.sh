#!/usr/bin/env bash
# sweep-speedup.sh [ROUNDS]: measures BenchmarkSweep's speed-up from a second
# worker on a noisy machine.
#
# Each round runs the 1-job and the 2-job benchmark back to back
# (-benchtime 40x each, in turn first), so that both see the same moment of
# the host; the script prints the medians, and the quartiles of the
# per-round speed-ups. Since runs/s = cpus / cpu-ns/run, each speed-up is
# exactly the CPUs the second worker adds (1 job's cpus against 2 jobs')
# divided by what a run's CPU time grows when both cores work; the script
# prints the quartiles of both factors.
#
# Then, as a ceiling, each round runs for one second each: the 1-job
# benchmark in one GOMAXPROCS=1 process alone, then in two such processes
# side by side (their runs/s added up: both run for the whole second, so
# neither gets the machine to itself), then the 2-job benchmark. It prints
# what two independent processes get from two cores, and what the 2-job
# sweep gets of that.
#
# BIN=PATH uses a test binary of the sweep package already built (go test -c),
# to compare two versions of the code.
#
# Used for results/benchmarks.md (issue 3). Needs only Go and awk.
set -euo pipefail
rounds=${1:-20}
cd "$(dirname "$0")/../sweep"
bin=${BIN:-$(mktemp -d)/sweep.test}
[ -n "${BIN:-}" ] || go test -c -o "$bin" .
measure() { # measure JOBS: "ns/op cpus cpu-ns/run" of 40 sweeps of 1,000 runs
	"$bin" -test.run XXX -test.bench "BenchmarkSweep\$/^jobs=$1\$" -test.benchtime 40x |
		awk '/^Bench/ {for (i = 2; i < NF; i++) m[$(i + 1)] = $i; print m["ns/op"], m["cpus"], m["cpu-ns/run"]}'
}
rate() { # rate JOBS: runs/s over one second
	"$bin" -test.run XXX -test.bench "BenchmarkSweep\$/^jobs=$1\$" -test.benchtime 1s |
		awk '/^Bench/ {for (i = 2; i < NF; i++) if ($(i + 1) == "runs/s") print $i}'
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
quartiles() { sort -g | awk '{v[NR] = $1} END {printf "%.2f %.2f %.2f", v[int(NR/4)+1], v[int(NR/2)+1], v[int(3*NR/4)+1]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {print a / b}'; }

one=() two=() speedup=() cpus=() cost=()
for ((i = 0; i < rounds; i++)); do
	if ((i % 2)); then b=($(measure 2)) a=($(measure 1)); else a=($(measure 1)) b=($(measure 2)); fi
	one+=("${a[0]}") two+=("${b[0]}") speedup+=("$(ratio "${a[0]}" "${b[0]}")")
	cpus+=("$(ratio "${b[1]}" "${a[1]}")") cost+=("$(ratio "${b[2]}" "${a[2]}")")
done
q() { printf '%s\n' "$@" | quartiles; }
m1=$(printf '%s\n' "${one[@]}" | median) m2=$(printf '%s\n' "${two[@]}" | median)
awk -v a="$m1" -v b="$m2" 'BEGIN {printf "1 job: median %.0f runs/s; 2 jobs: median %.0f runs/s; ratio of medians %.2fx\n", 1e12 / a, 1e12 / b, a / b}'
echo "per-round quartiles over $rounds rounds (1st, median, 3rd):"
echo "  speed-up                          $(q "${speedup[@]}")"
echo "  CPUs used, 2 jobs / 1 job         $(q "${cpus[@]}")"
echo "  CPU time of a run, 2 jobs / 1 job $(q "${cost[@]}")"

ceiling=() share=()
for ((i = 0; i < rounds / 2 + 1; i++)); do
	alone=$(GOMAXPROCS=1 rate 1)
	GOMAXPROCS=1 rate 1 >"$bin.p" &
	q=$(GOMAXPROCS=1 rate 1)
	wait
	pair=$(awk -v p="$(cat "$bin.p")" -v q="$q" 'BEGIN {print p + q}')
	jobs2=$(rate 2)
	ceiling+=("$(ratio "$pair" "$alone")") share+=("$(ratio "$jobs2" "$pair")")
done
echo "ceiling: two GOMAXPROCS=1 processes side by side against one alone (quartiles): $(printf '%s\n' "${ceiling[@]}" | quartiles)"
echo "the 2-job sweep against those two processes (quartiles): $(printf '%s\n' "${share[@]}" | quartiles)"

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
# Then, as a ceiling, each round measures over a two-second wall-clock window
# (scripts/sweepwindow): the 1-job sweep in one process alone, in two
# processes side by side (their runs/s added up; both are measured over the
# same window, so neither gets the machine to itself), and the 2-job sweep.
# It prints what two independent processes get from two cores, what the
# 2-job sweep gets of that, and the CPU time of a run in each case.
#
# BIN=PATH uses a test binary of the sweep package already built (go test -c),
# to compare two versions of the code.
#
# Used for results/benchmarks.md (issue 3). Needs only Go and awk.
set -euo pipefail
rounds=${1:-20}
cd "$(dirname "$0")/../sweep"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${BIN:-$tmp/sweep.test}
[ -n "${BIN:-}" ] || go test -c -o "$bin" .
measure() { # measure JOBS: "ns/op cpus cpu-ns/run" of 40 sweeps of 1,000 runs
	"$bin" -test.run XXX -test.bench "BenchmarkSweep\$/^jobs=$1\$" -test.benchtime 40x |
		awk '/^Bench/ {for (i = 2; i < NF; i++) m[$(i + 1)] = $i; print m["ns/op"], m["cpus"], m["cpu-ns/run"]}'
}
window() { # window PROCESSES JOBS: "runs/s cpu-ns/run" summed and averaged over the processes
	local from=$(($(date +%s%N) + 300000000)) k
	for ((k = 0; k < $1; k++)); do
		"$win" -start "$from" -end $((from + 2000000000)) -jobs "$2" >"$tmp/w$k" &
	done
	wait
	cat "$tmp"/w* | awk '{r += $1; c += $2} END {print r, c / NR}'
	rm -f "$tmp"/w*
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

win=$tmp/sweepwindow
go build -o "$win" ../scripts/sweepwindow
ceiling=() share=() speedw=() cost2=() costj=()
for ((i = 0; i < rounds / 2 + 1; i++)); do
	alone=($(window 1 1)) pair=($(window 2 1)) jobs2=($(window 1 2))
	ceiling+=("$(ratio "${pair[0]}" "${alone[0]}")") share+=("$(ratio "${jobs2[0]}" "${pair[0]}")")
	speedw+=("$(ratio "${jobs2[0]}" "${alone[0]}")") cost2+=("$(ratio "${pair[1]}" "${alone[1]}")") costj+=("$(ratio "${jobs2[1]}" "${alone[1]}")")
done
echo "over a shared 2 s window, $((rounds / 2 + 1)) rounds (quartiles):"
echo "  ceiling: two 1-job processes against one        $(q "${ceiling[@]}")"
echo "  the 2-job sweep against those two processes     $(q "${share[@]}")"
echo "  the 2-job sweep against one 1-job process       $(q "${speedw[@]}")"
echo "  CPU time of a run, two processes / one alone    $(q "${cost2[@]}")"
echo "  CPU time of a run, the 2-job sweep / one alone  $(q "${costj[@]}")"

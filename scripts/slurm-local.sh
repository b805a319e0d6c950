#!/usr/bin/env bash
# slurm-local.sh: run scripts/sweep.sbatch on a real, one-node Slurm.
#
# Installs slurm-wlm and munge with apt-get when they are missing (needs root),
# starts munged, slurmctld and slurmd with their state under a temporary
# folder (one node of 1 CPU, proctrack/linuxproc, task/none, SlurmUser root,
# ports of their own), submits a bundled sweep as an array of 4 shards,
# cancels one array task half-way and resubmits it, merges the shards,
# compares the merge with the unsharded sweep byte for byte, and shuts
# everything down, whatever happens.
#
# Usage: scripts/slurm-local.sh            (from anywhere; exit 0 = equal)
# Environment: SLURM_LOCAL_KEEP=1 keeps the temporary folder for a post-mortem.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

say() { echo "slurm-local: $*"; }
die() { echo "slurm-local: $*" >&2; exit 1; }

install_slurm() {
  command -v slurmctld >/dev/null && command -v munged >/dev/null && return
  [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null ||
    die "slurm-wlm and munge are missing and cannot be installed (needs root and apt-get)"
  say "installing slurm-wlm and munge with apt-get"
  apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1 ||
    { apt-get update -qq && apt-get install -y -qq slurm-wlm munge >/dev/null; }
}

state=$(mktemp -d /tmp/slurm-local.XXXXXX)
pids=()
cleanup() {
  set +e
  if [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ]; then
    scancel --quiet --user root 2>/dev/null
  fi
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
  if [ "${SLURM_LOCAL_KEEP:-}" = 1 ]; then say "kept $state"; else rm -rf "$state"; fi
}
trap cleanup EXIT

# free_port prints a TCP port nothing listens on.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

start_munge() {
  mkdir -p "$state/munge"
  chmod 700 "$state/munge"
  dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$state/munge/munge.key"
  munged --force --key-file="$state/munge/munge.key" --socket="$state/munge/munge.socket" \
    --pid-file="$state/munge/munged.pid" --log-file="$state/munge/munged.log" \
    --seed-file="$state/munge/munged.seed"
  for _ in $(seq 50); do [ -S "$state/munge/munge.socket" ] && break; sleep 0.1; done
  [ -S "$state/munge/munge.socket" ] || die "munged did not start: $(cat "$state/munge/munged.log")"
  pids+=("$(cat "$state/munge/munged.pid")")
}

write_conf() {
  local host
  host=$(hostname -s)
  mkdir -p "$state/ctld" "$state/spool" "$state/log"
  cat >"$state/slurm.conf" <<EOF
ClusterName=netsched-local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$state/munge/munge.socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
NodeName=$host CPUs=1 State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$state/slurm.conf
}

start_slurm() {
  slurmctld -f "$SLURM_CONF" -c
  slurmd -f "$SLURM_CONF"
  for _ in $(seq 100); do
    [ -s "$state/slurmctld.pid" ] && [ -s "$state/slurmd.pid" ] && break
    sleep 0.1
  done
  pids+=("$(cat "$state/slurmctld.pid")" "$(cat "$state/slurmd.pid")")
  for _ in $(seq 150); do
    case $(sinfo -h -o %T 2>/dev/null) in idle*|mixed*) return ;; esac
    sleep 0.2
  done
  die "the node never came up: $(sinfo 2>&1); $(tail -5 "$state/log/slurmd.log")"
}

# wait_jobs waits until no job of the array runs or waits.
wait_jobs() {
  for _ in $(seq 1800); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return
    sleep 0.2
  done
  die "job $1 did not finish within 6 minutes"
}

install_slurm
say "state under $state"
start_munge
write_conf
start_slurm
say "one-node Slurm up: $(sinfo -h -o '%n %c CPUs %T')"

bin=$state/netsched
(cd "$repo" && go build -o "$bin" ./cmd/netsched)
work=$state/work
mkdir -p "$work"
sweep=(clustering-gauss --set rho=1:100:0.025)

say "submitting the sweep as an array of 4"
cd "$work"
job=$(NETSCHED=$bin SHARDS=$work/shards sbatch --parsable --array=0-3 \
  "$repo/scripts/sweep.sbatch" "${sweep[@]}")
job=${job%%;*}

say "waiting for shard 1 to be half-way, then cancelling it"
journal=$work/shards/shard-1.csv.partial
for _ in $(seq 600); do
  [ -f "$journal" ] && [ "$(wc -l <"$journal")" -gt 1000 ] && break
  sleep 0.1
done
[ -f "$journal" ] || die "shard 1 never started: $(cat "$work"/netsched-sweep-*_1.out 2>/dev/null)"
scancel "${job}_1"
for _ in $(seq 100); do [ -z "$(squeue -h -j "${job}_1" 2>/dev/null)" ] && break; sleep 0.1; done
[ -f "$work/shards/shard-1.csv" ] && die "shard 1 finished before it could be cancelled; make the sweep longer"
say "cancelled ${job}_1 with $(($(wc -l <"$journal") - 1)) rows in its journal"

say "resubmitting shard 1"
rejob=$(NETSCHED=$bin SHARDS=$work/shards SHARD_COUNT=4 sbatch --parsable --array=1 \
  "$repo/scripts/sweep.sbatch" "${sweep[@]}")
wait_jobs "$job"
wait_jobs "${rejob%%;*}"
for i in 0 1 2 3; do
  [ -f "$work/shards/shard-$i.csv" ] || die "shard $i missing: $(cat "$work"/netsched-sweep-*_"$i".out)"
done
[ -e "$journal" ] && die "shard 1's journal is still there after its resubmission"

"$bin" merge -o "$work/merged.csv" "$work"/shards/shard-*.csv
"$bin" sweep "${sweep[@]}" --quiet -o "$work/whole.csv"
cmp "$work/merged.csv" "$work/whole.csv" || die "the merged shards differ from the unsharded sweep"
say "PASS: 4 shards on Slurm, shard 1 cancelled half-way and resubmitted; merge equals the whole sweep ($(($(wc -l <"$work/whole.csv") - 1)) rows)"

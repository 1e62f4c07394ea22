#!/usr/bin/env bash
# Local services for development and CI: a Docker engine and a single-node Slurm, on loopback only.
#
#   bash scripts/dev-services.sh up docker   # install (if needed) and start dockerd, build gym-pipeline/base:bookworm
#   bash scripts/dev-services.sh up slurm    # install (if needed) and start munged, slurmctld and slurmd
#   bash scripts/dev-services.sh up slurm 2  # and a second single-node cluster: one per test worker
#   bash scripts/dev-services.sh down        # stop everything `up` started (by pid file), leave nothing running
#
# `up` is idempotent (a second `up` while running does nothing) and prints the `export` lines to use
# the service (eval them: `eval "$(bash scripts/dev-services.sh up slurm)"`); its progress goes to stderr.
# State (pid files, logs, configs, Docker's data) lives in ${GYM_PIPELINE_SERVICES_DIR:-/tmp/gym-pipeline-services}.
# See ../shared/docs/real_components.md for why the engine runs without a bridge and Slurm without cgroups.
set -euo pipefail

STATE_DIR=${GYM_PIPELINE_SERVICES_DIR:-/tmp/gym-pipeline-services}
BASE_IMAGE=gym-pipeline/base:bookworm
DOCKER_SOCKET=/var/run/docker.sock
DOCKER_DIR=$STATE_DIR/docker
MUNGE_DIR=$STATE_DIR/slurm/munge  # one munged authenticates every cluster
MUNGE_SOCKET=$MUNGE_DIR/munge.socket

say() { echo "dev-services: $*" >&2; }
die() { say "error: $*"; exit 1; }

alive() {  # pid: running, not a zombie (this machine's init reaps orphans late)
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  [ "$(echo "${stat##*) }" | cut -d' ' -f1)" != Z ]
}

# A pid file's process is ours only while it is alive and still runs the program that wrote it
# (a recycled pid must never be signalled).
running_pid() {  # pidfile program -> prints the pid when alive
  local pidfile=$1 program=$2 pid
  { pid=$(tr -d ' \n' <"$pidfile"); } 2>/dev/null || return 1  # gone, or removed by its daemon meanwhile
  [[ $pid =~ ^[0-9]+$ ]] && alive "$pid" || return 1
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$program" ] || return 1
  echo "$pid"
}

forget_stale() {  # pidfile program: a daemon killed without cleanup leaves a pid file that blocks its restart
  running_pid "$1" "$2" >/dev/null || rm -f "$1"
}

stop_pidfile() {  # pidfile program: SIGTERM, up to 15 s, then SIGKILL
  local pidfile=$1 program=$2 pid
  if pid=$(running_pid "$pidfile" "$program"); then
    say "stopping $program (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 150); do
      alive "$pid" || break
      sleep 0.1
    done
    if alive "$pid"; then
      say "$program did not stop in 15 s: SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$pidfile"
}

wait_until() {  # seconds command... : retry the command every 0.5 s until it succeeds
  local seconds=$1
  shift
  for _ in $(seq $((seconds * 2))); do
    if "$@" >/dev/null; then return 0; fi
    sleep 0.5
  done
  return 1
}

apt_install() {  # packages... : install those missing, without starting their services
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || die "installing ${missing[*]} needs root (apt-get)"
  say "installing ${missing[*]} (apt-get)"
  # Debian's maintainer scripts would start the packages' own daemons (dockerd with its 172.17/16
  # bridge, a system munged): policy-rc.d forbids that while installing.
  local policy=/usr/sbin/policy-rc.d own_policy=0
  if [ ! -e $policy ]; then
    printf '#!/bin/sh\nexit 101\n' >$policy && chmod +x $policy && own_policy=1
  fi
  local status=0
  mkdir -p "$STATE_DIR"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
    >>"$STATE_DIR/apt.log" 2>&1 || status=$?
  if [ $own_policy -eq 1 ]; then rm -f $policy; fi
  [ $status -eq 0 ] || { tail -n 20 "$STATE_DIR/apt.log" >&2; die "apt-get failed (exit $status)"; }
}

# ------------------------------------------------------------------------------------------ Docker

docker_answers() { DOCKER_HOST=unix://$DOCKER_SOCKET docker info >/dev/null 2>&1; }

dockerd_ready() {  # pid: the engine answers; stops the script at once if dockerd has exited
  docker_answers && return 0
  alive "$1" || { tail -n 20 "$DOCKER_DIR/dockerd.log" >&2; die "dockerd exited"; }
  return 1
}

docker_up() {
  apt_install docker.io debootstrap
  mkdir -p "$DOCKER_DIR"
  if docker_answers; then
    say "docker engine already answers on $DOCKER_SOCKET"
  else
    forget_stale "$DOCKER_DIR/dockerd.pid" dockerd
    # dockerd reuses the containerd its pid file names while that pid exists, even as a zombie.
    forget_stale /var/run/docker/containerd/containerd.pid containerd
    say "starting dockerd (no bridge, no iptables; log: $DOCKER_DIR/dockerd.log)"
    # Its own session, so it outlives this shell and ignores the caller's Ctrl-C; no TCP listener.
    setsid dockerd --bridge=none --iptables=false --ip-masq=false \
      --host "unix://$DOCKER_SOCKET" --data-root "$DOCKER_DIR/data" --pidfile "$DOCKER_DIR/dockerd.pid" \
      </dev/null >>"$DOCKER_DIR/dockerd.log" 2>&1 &
    wait_until 60 dockerd_ready $! || { tail -n 20 "$DOCKER_DIR/dockerd.log" >&2; die "dockerd did not answer in 60 s"; }
  fi
  export DOCKER_HOST=unix://$DOCKER_SOCKET
  if docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
    say "image $BASE_IMAGE already built"
  else
    build_base_image
  fi
  echo "export DOCKER_HOST=unix://$DOCKER_SOCKET"
}

build_base_image() {
  # No image registry is reachable: a Debian root file system from Debian's own packages.
  local rootfs=$DOCKER_DIR/rootfs.build
  rm -rf "$rootfs"
  say "building $BASE_IMAGE (debootstrap bookworm, then docker import)"
  debootstrap --variant=minbase --include=python3 bookworm "$rootfs" http://deb.debian.org/debian \
    >"$DOCKER_DIR/debootstrap.log" 2>&1 || { tail -n 20 "$DOCKER_DIR/debootstrap.log" >&2; die "debootstrap failed"; }
  tar -C "$rootfs" -c . | docker import - "$BASE_IMAGE" >/dev/null
  rm -rf "$rootfs"
  docker run --rm --network none "$BASE_IMAGE" python3 -c 'print("base image ok")' >&2
}

docker_down() {
  if running_pid "$DOCKER_DIR/dockerd.pid" dockerd >/dev/null; then
    # Containers first (any left by an interrupted test), so dockerd's shutdown leaves no shim behind.
    local containers
    containers=$(DOCKER_HOST=unix://$DOCKER_SOCKET docker ps -aq 2>/dev/null || true)
    if [ -n "$containers" ]; then
      say "removing containers: $(echo "$containers" | tr '\n' ' ')"
      # shellcheck disable=SC2086
      DOCKER_HOST=unix://$DOCKER_SOCKET docker rm -f $containers >/dev/null 2>&1 || true
    fi
  fi
  stop_pidfile "$DOCKER_DIR/dockerd.pid" dockerd
}

# ------------------------------------------------------------------------------------------- Slurm

# Cluster 1 is the one everything uses (its SLURM_CONF is printed); clusters 2... exist so that each test worker
# has a node to itself (scripts/test.sh): a test's jobs never queue behind another worker's.
use_cluster() {  # n: set the variables of the nth single-node cluster
  local n=$1
  SLURM_DIR=$STATE_DIR/slurm$([ "$n" -eq 1 ] || echo "-$n")
  SLURM_CONF_FILE=$SLURM_DIR/slurm.conf
  SLURMCTLD_PORT=$((16817 + 10 * (n - 1)))
  SLURMD_PORT=$((SLURMCTLD_PORT + 1))
  CLUSTER_NAME=gympipeline$([ "$n" -eq 1 ] || echo "$n")
  FIRST_JOB_ID=$((1 + 1000000 * (n - 1)))  # job ids of two clusters never meet (a test finds a job's processes by id)
}

slurm_env() { SLURM_CONF=$SLURM_CONF_FILE "$@"; }

write_slurm_conf() {
  local node cpus memory_mb
  node=$(hostname -s)
  cpus=$(nproc)
  memory_mb=$(( $(awk '/^MemTotal:/ {print $2}' /proc/meminfo) / 1024 * 9 / 10 ))
  mkdir -p "$SLURM_DIR/state" "$SLURM_DIR/spool"
  cat >"$SLURM_CONF_FILE" <<EOF
# Generated by scripts/dev-services.sh: a single-node Slurm for development and CI, loopback only.
ClusterName=$CLUSTER_NAME
FirstJobId=$FIRST_JOB_ID
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$SLURMCTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCKET
CredType=cred/munge
# No cgroups here: processes are tracked through /proc, tasks are not confined.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=4096
# Memory limits (--mem) are enforced by polling each task's memory every second: over the limit,
# the step is killed and the job ends OUT_OF_MEMORY.
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=1
JobAcctGatherParams=OverMemoryKill
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
# Without accounting, a finished job vanishes from squeue after MinJobAge seconds.
MinJobAge=5
KillWait=5
ReturnToService=2
MailProg=/bin/true
MpiDefault=none
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool
SlurmctldPidFile=$SLURM_DIR/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/slurmd.pid
SlurmctldLogFile=$SLURM_DIR/slurmctld.log
SlurmdLogFile=$SLURM_DIR/slurmd.log
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory_mb State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}

# slurmctld and slurmd cannot be told an address to listen on (they bind every interface): a firewall
# rule keeps their ports to loopback.
loopback_only_firewall() {  # -I | -C | -D
  iptables "$1" INPUT ! -i lo -p tcp --dport "$SLURMCTLD_PORT:$SLURMD_PORT" -j DROP \
    -m comment --comment gym-pipeline-dev-services
}

node_ready() {  # the node accepts jobs
  local state
  state=$(slurm_env sinfo -h -n "$(hostname -s)" -o %T 2>/dev/null) || return 1
  [[ $state =~ ^(idle|mixed|allocated|completing)$ ]]
}

munge_up() {
  mkdir -p "$MUNGE_DIR"
  chmod 700 "$MUNGE_DIR"
  running_pid "$MUNGE_DIR/munged.pid" munged >/dev/null && return 0
  if [ ! -s "$MUNGE_DIR/munge.key" ]; then
    if [ -s /etc/munge/munge.key ]; then
      cp /etc/munge/munge.key "$MUNGE_DIR/munge.key"
    else
      mungekey --create --keyfile "$MUNGE_DIR/munge.key"
    fi
    chmod 600 "$MUNGE_DIR/munge.key"
  fi
  forget_stale "$MUNGE_DIR/munged.pid" munged
  say "starting munged (socket $MUNGE_SOCKET)"
  # --force: munged otherwise refuses a socket folder that others cannot enter (ours is private).
  munged --force --socket="$MUNGE_SOCKET" --key-file="$MUNGE_DIR/munge.key" \
    --pid-file="$MUNGE_DIR/munged.pid" --log-file="$MUNGE_DIR/munged.log" \
    --seed-file="$MUNGE_DIR/munged.seed" 2>>"$MUNGE_DIR/munged.log"
  wait_until 10 running_pid "$MUNGE_DIR/munged.pid" munged || die "munged did not start (log: $MUNGE_DIR/munged.log)"
}

cluster_up() {  # the cluster use_cluster chose: slurmctld and slurmd, until its node accepts jobs
  loopback_only_firewall -C 2>/dev/null || loopback_only_firewall -I
  local started=0
  if ! running_pid "$SLURM_DIR/slurmctld.pid" slurmctld >/dev/null; then
    write_slurm_conf
    forget_stale "$SLURM_DIR/slurmctld.pid" slurmctld
    say "starting slurmctld (port $SLURMCTLD_PORT; log: $SLURM_DIR/slurmctld.log)"
    setsid slurmctld -f "$SLURM_CONF_FILE" </dev/null >>"$SLURM_DIR/slurmctld.out" 2>&1
    started=1
  fi
  if ! running_pid "$SLURM_DIR/slurmd.pid" slurmd >/dev/null; then
    forget_stale "$SLURM_DIR/slurmd.pid" slurmd
    say "starting slurmd (port $SLURMD_PORT; log: $SLURM_DIR/slurmd.log)"
    setsid slurmd -f "$SLURM_CONF_FILE" </dev/null >>"$SLURM_DIR/slurmd.out" 2>&1
    started=1
  fi
  local daemon
  for daemon in slurmctld slurmd; do
    wait_until 10 running_pid "$SLURM_DIR/$daemon.pid" $daemon ||
      { tail -n 20 "$SLURM_DIR/$daemon.log" "$SLURM_DIR/$daemon.out" >&2 || true; die "$daemon did not start"; }
  done
  if ! wait_until 60 node_ready; then
    tail -n 20 "$SLURM_DIR/slurmctld.log" "$SLURM_DIR/slurmd.log" >&2 || true
    die "the Slurm node did not become idle in 60 s (sinfo: $(slurm_env sinfo -h -o '%T %E' 2>&1 || true))"
  fi
  [ $started -eq 1 ] || say "slurm already running (SLURM_CONF=$SLURM_CONF_FILE)"
}

slurm_up() {  # clusters: how many single-node clusters (1 unless the tests ask for one per worker)
  local clusters=${1:-1} n confs=()
  [[ $clusters =~ ^[1-9]$ ]] || die "the number of Slurm clusters must be 1 to 9, not '$clusters'"
  apt_install slurmctld slurmd slurm-client munge iptables
  munge_up
  for n in $(seq "$clusters"); do
    use_cluster "$n"
    cluster_up
    confs+=("$SLURM_CONF_FILE")
  done
  echo "export SLURM_CONF=${confs[0]}"
  [ "$clusters" -eq 1 ] || echo "export GYM_PIPELINE_SLURM_CONFS=$(IFS=:; echo "${confs[*]}")"
}

queue_empty() { [ -z "$(slurm_env squeue -h -o %i 2>/dev/null)" ]; }

slurm_down() {  # every cluster `up` started, then munged
  local dir n
  for dir in "$STATE_DIR"/slurm "$STATE_DIR"/slurm-[0-9]; do
    [ -d "$dir" ] || continue
    n=${dir##*slurm}  # "" for cluster 1, "-2" for cluster 2
    n=${n#-}
    use_cluster "${n:-1}"
    if running_pid "$SLURM_DIR/slurmctld.pid" slurmctld >/dev/null; then
      # Jobs first: slurmstepd and the job's processes would outlive slurmd.
      local jobs
      jobs=$(slurm_env squeue -h -o %i 2>/dev/null || true)
      if [ -n "$jobs" ]; then
        say "cancelling jobs: $(echo "$jobs" | tr '\n' ' ')"
        # shellcheck disable=SC2086
        slurm_env scancel $jobs 2>/dev/null || true
        wait_until 20 queue_empty || true
      fi
    fi
    stop_pidfile "$SLURM_DIR/slurmd.pid" slurmd
    stop_pidfile "$SLURM_DIR/slurmctld.pid" slurmctld
    while command -v iptables >/dev/null && loopback_only_firewall -C 2>/dev/null; do loopback_only_firewall -D; done
  done
  stop_pidfile "$MUNGE_DIR/munged.pid" munged
}

case "${1:-} ${2:-}" in
  "up docker") docker_up ;;
  "up slurm") slurm_up "${3:-1}" ;;
  "down "*) slurm_down; docker_down; say "stopped" ;;
  *) echo "usage: $0 up docker | up slurm [clusters] | down" >&2; exit 2 ;;
esac

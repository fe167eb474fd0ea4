#!/usr/bin/env bash
# Local servers for the remote conformance tests (tests/library/remote_conformance.rs), two
# implementations of each protocol, so that no server's quirks pass for the protocol:
#   * S3:   s3s-fs (checks SigV4 signatures), built once into a cache directory;
#           moto (Python, the AWS mock), installed once into a venv in the cache;
#   * SFTP: OpenSSH sshd with its own host key, client key, known_hosts and ssh_config;
#           rclone serve sftp (Go, github.com/pkg/sftp), same client key and known_hosts;
#   * Azure Blob Storage: Azurite (Microsoft's emulator, from npm), installed once into
#     the cache (one implementation only: there is no second emulator to install here).
# All listen on 127.0.0.1 on free ports picked at start.
#
# Usage: scripts/test-servers.sh start|stop|env|status
#   start   install what is missing, (re)start both servers, wait until they answer,
#           write the environment file and print its path
#   stop    stop the servers started by `start` and remove their state
#   env     print the `export VAR=...` lines (fails if the servers are not running);
#           use as:  servers_env=$(scripts/test-servers.sh env) && eval "$servers_env"
#   status  say whether the servers are running
#
# Variables written for the tests (see tests/library/remote_conformance.rs):
#   AWS_ENDPOINT AWS_ALLOW_HTTP AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_DEFAULT_REGION
#   TANGLE_TEST_S3_BUCKET   a bucket that exists on that endpoint
#   TANGLE_TEST_SFTP_URL    sftp://USER@127.0.0.1:PORT/DIR (a directory the tests may use)
#   TANGLE_SSH_COMMAND      "ssh -F STATE/ssh/ssh_config" (how tangle runs ssh)
#   TANGLE_TEST_SSH_CONFIG  that ssh_config;  TANGLE_TEST_SSH_KEY  the client key
#   TANGLE_TEST_MOTO_ENDPOINT, TANGLE_TEST_MOTO_BUCKET   moto's endpoint and a bucket there
#   TANGLE_TEST_RCLONE_SFTP_URL  sftp://USER@127.0.0.1:PORT/ (the root rclone serves)
#   TANGLE_TEST_RCLONE_DIR       that root as a local directory
#   AZURE_STORAGE_USE_EMULATOR=true, AZURITE_BLOB_STORAGE_URL   Azurite's blob endpoint
#   TANGLE_TEST_AZURE_CONTAINER  a container that exists there
#
# Settings: TANGLE_TEST_CACHE (default ~/.cache/tangle-test) keeps the s3s-fs build and
# the moto venv;
# TANGLE_TEST_STATE (default ${TMPDIR:-/tmp}/tangle-test-servers-UID) holds keys, data,
# logs and pid files while the servers run.
set -euo pipefail

CACHE="${TANGLE_TEST_CACHE:-$HOME/.cache/tangle-test}"
STATE="${TANGLE_TEST_STATE:-${TMPDIR:-/tmp}/tangle-test-servers-$(id -u)}"
S3S_VERSION=0.14.1
S3S_ROOT="$CACHE/s3s"
S3S_BIN="$S3S_ROOT/bin/s3s-fs"
SSHD=/usr/sbin/sshd
BUCKET=tangle-test
MOTO_VERSION=5.2.5
MOTO_VENV="$CACHE/moto-$MOTO_VERSION"
MOTO_BUCKET=tangle-test-moto
AZURITE_VERSION=3.35.0
AZURITE_ROOT="$CACHE/azurite-$AZURITE_VERSION"
AZURE_CONTAINER=tangle-test
S3_ACCESS_KEY=tangle-test-access
S3_SECRET_KEY=tangle-test-secret-key
READY_TIMEOUT=30 # seconds

log() { echo "test-servers: $*" >&2; }
die() {
  log "error: $*"
  exit 1
}

as_root() {
  if [ "$(id -u)" = 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die "need root (or sudo) to run: $*"
  fi
}

install_sshd() {
  [ -x "$SSHD" ] && command -v ssh >/dev/null && command -v ssh-keygen >/dev/null && return
  log "installing openssh-server"
  apt_install openssh-server openssh-client
  [ -x "$SSHD" ] || die "$SSHD missing after installing openssh-server"
}

apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  if ! as_root apt-get install -y --no-install-recommends "$@" >&2; then
    as_root apt-get update >&2
    as_root apt-get install -y --no-install-recommends "$@" >&2
  fi
}

install_rclone() {
  command -v rclone >/dev/null && return
  log "installing rclone"
  apt_install rclone
  command -v rclone >/dev/null || die "rclone missing after installing it"
}

install_moto() {
  [ -x "$MOTO_VENV/bin/moto_server" ] && return
  command -v python3 >/dev/null || apt_install python3 python3-venv
  log "installing moto $MOTO_VERSION into $MOTO_VENV (about a minute, once)"
  rm -rf "$MOTO_VENV"
  if ! python3 -m venv "$MOTO_VENV" >&2; then
    apt_install python3-venv
    python3 -m venv "$MOTO_VENV" >&2
  fi
  "$MOTO_VENV/bin/pip" install --quiet "moto[server]==$MOTO_VERSION" >&2
  [ -x "$MOTO_VENV/bin/moto_server" ] || die "moto_server missing after installing moto"
}

install_azurite() {
  [ -x "$AZURITE_ROOT/node_modules/.bin/azurite-blob" ] && return
  command -v npm >/dev/null || die "npm is needed to install Azurite"
  log "installing Azurite $AZURITE_VERSION into $AZURITE_ROOT (about a minute, once)"
  mkdir -p "$AZURITE_ROOT"
  npm install --prefix "$AZURITE_ROOT" --no-audit --no-fund --silent "azurite@$AZURITE_VERSION" >&2
  [ -x "$AZURITE_ROOT/node_modules/.bin/azurite-blob" ] || die "azurite-blob missing after npm install"
}

install_s3s() {
  [ -x "$S3S_BIN" ] && [ "$("$S3S_BIN" --version 2>/dev/null)" = "s3s-fs $S3S_VERSION" ] && return
  command -v cargo >/dev/null || die "cargo is needed to build s3s-fs"
  log "building s3s-fs $S3S_VERSION into $S3S_ROOT (takes a few minutes, once)"
  mkdir -p "$S3S_ROOT"
  # Niced: scripts/test.sh builds tangle meanwhile, which is what the tests wait for.
  nice -n 10 cargo install "s3s-fs@$S3S_VERSION" --features binary --locked --force --root "$S3S_ROOT" >&2
}

free_port() {
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
    return
  fi
  local p
  for _ in $(seq 100); do
    p=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return
    fi
  done
  die "no free port found"
}

# wait_for DESCRIPTION PIDFILE COMMAND...: poll COMMAND until it succeeds (bounded).
wait_for() {
  local what=$1 pidfile=$2
  shift 2
  local deadline=$((SECONDS + READY_TIMEOUT))
  until "$@" >/dev/null 2>&1; do
    if ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
      die "$what exited during start-up; its log: $(tail -20 "$STATE/$what.log" 2>/dev/null)"
    fi
    if [ $SECONDS -ge $deadline ]; then
      die "$what did not answer within ${READY_TIMEOUT}s; its log: $(tail -20 "$STATE/$what.log" 2>/dev/null)"
    fi
    sleep 0.1
  done
}

sftp_ready() {
  echo pwd | sftp -q -F "$STATE/ssh/ssh_config" -P "$1" -b - "$2@127.0.0.1"
}

tcp_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

running() {
  local f
  for f in s3s sshd moto rclone azurite; do
    [ -f "$STATE/$f.pid" ] && kill -0 "$(cat "$STATE/$f.pid")" 2>/dev/null || return 1
  done
  [ -f "$STATE/env" ]
}

start_s3() {
  mkdir -p "$STATE/s3/$BUCKET"
  S3_PORT=$(free_port)
  setsid "$S3S_BIN" --host 127.0.0.1 --port "$S3_PORT" \
    --access-key "$S3_ACCESS_KEY" --secret-key "$S3_SECRET_KEY" "$STATE/s3" \
    </dev/null >"$STATE/s3s.log" 2>&1 &
  echo $! >"$STATE/s3s.pid"
  wait_for s3s "$STATE/s3s.pid" tcp_open "$S3_PORT"
}

start_sftp() {
  local ssh="$STATE/ssh" user
  user=$(id -un)
  mkdir -p "$ssh" "$STATE/sftp"
  chmod 700 "$ssh"
  ssh-keygen -q -t ed25519 -N '' -C tangle-test-host -f "$ssh/host_ed25519" >/dev/null
  ssh-keygen -q -t ed25519 -N '' -C tangle-test-client -f "$ssh/id_ed25519" >/dev/null
  cp "$ssh/id_ed25519.pub" "$ssh/authorized_keys.$user"
  [ "$(id -u)" = 0 ] && mkdir -p /run/sshd
  SSH_PORT=$(free_port)
  cat >"$ssh/sshd_config" <<EOF
Port $SSH_PORT
ListenAddress 127.0.0.1
HostKey $ssh/host_ed25519
PidFile $ssh/sshd.pid
AuthorizedKeysFile $ssh/authorized_keys.%u
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
UsePAM no
StrictModes no
MaxStartups 200
MaxSessions 200
Subsystem sftp internal-sftp
EOF
  # Newer sshd penalise clients that disconnect early (as the host-key test does).
  if "$SSHD" -t -f "$ssh/sshd_config" -o PerSourcePenalties=no >/dev/null 2>&1; then
    echo "PerSourcePenalties no" >>"$ssh/sshd_config"
  fi
  "$SSHD" -t -f "$ssh/sshd_config" >&2 || die "sshd rejects its test config"
  printf '[127.0.0.1]:%s %s\n' "$SSH_PORT" "$(cut -d' ' -f1,2 "$ssh/host_ed25519.pub")" \
    >"$ssh/known_hosts"
  cat >"$ssh/ssh_config" <<EOF
Host *
  IdentityFile $ssh/id_ed25519
  IdentitiesOnly yes
  UserKnownHostsFile $ssh/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  BatchMode yes
  ConnectTimeout 10
  LogLevel ERROR
EOF
  setsid "$SSHD" -D -e -f "$ssh/sshd_config" </dev/null >"$STATE/sshd.log" 2>&1 &
  echo $! >"$STATE/sshd.pid"
  wait_for sshd "$STATE/sshd.pid" \
    ssh -F "$ssh/ssh_config" -p "$SSH_PORT" -l "$user" 127.0.0.1 true
  SFTP_URL="sftp://$user@127.0.0.1:$SSH_PORT$STATE/sftp"
}

start_moto() {
  MOTO_PORT=$(free_port)
  setsid "$MOTO_VENV/bin/moto_server" -H 127.0.0.1 -p "$MOTO_PORT" \
    </dev/null >"$STATE/moto.log" 2>&1 &
  echo $! >"$STATE/moto.pid"
  wait_for moto "$STATE/moto.pid" tcp_open "$MOTO_PORT"
  # moto keeps buckets in memory: create the test bucket on every start.
  python3 -c 'import sys, urllib.request as u; u.urlopen(u.Request(sys.argv[1], method="PUT"))' \
    "http://127.0.0.1:$MOTO_PORT/$MOTO_BUCKET" || die "could not create bucket $MOTO_BUCKET on moto"
}

# rclone serves STATE/rclone over SFTP with the same client key as sshd; its host key
# joins sshd's in known_hosts. Directory listings are not cached (--dir-cache-time 0),
# as the tests change the directory behind the server's back.
start_rclone() {
  local ssh="$STATE/ssh" user
  user=$(id -un)
  mkdir -p "$STATE/rclone"
  ssh-keygen -q -t ed25519 -N '' -C tangle-test-rclone -f "$ssh/rclone_host_ed25519" >/dev/null
  RCLONE_PORT=$(free_port)
  setsid rclone serve sftp "$STATE/rclone" --addr "127.0.0.1:$RCLONE_PORT" \
    --key "$ssh/rclone_host_ed25519" --authorized-keys "$ssh/id_ed25519.pub" \
    --dir-cache-time 0s --config /dev/null </dev/null >"$STATE/rclone.log" 2>&1 &
  echo $! >"$STATE/rclone.pid"
  printf '[127.0.0.1]:%s %s\n' "$RCLONE_PORT" "$(cut -d' ' -f1,2 "$ssh/rclone_host_ed25519.pub")" \
    >>"$ssh/known_hosts"
  wait_for rclone "$STATE/rclone.pid" sftp_ready "$RCLONE_PORT" "$user"
  RCLONE_URL="sftp://$user@127.0.0.1:$RCLONE_PORT/"
}

# Azurite keeps its blobs in memory; the well-known emulator account (devstoreaccount1)
# signs requests. The test container is created with a SharedKey-signed PUT.
start_azurite() {
  AZURITE_PORT=$(free_port)
  setsid "$AZURITE_ROOT/node_modules/.bin/azurite-blob" --blobHost 127.0.0.1 \
    --blobPort "$AZURITE_PORT" --inMemoryPersistence --disableTelemetry --skipApiVersionCheck \
    --silent </dev/null >"$STATE/azurite.log" 2>&1 &
  echo $! >"$STATE/azurite.pid"
  wait_for azurite "$STATE/azurite.pid" tcp_open "$AZURITE_PORT"
  python3 - "$AZURITE_PORT" "$AZURE_CONTAINER" <<'PY' || die "could not create container $AZURE_CONTAINER on Azurite"
import base64, hashlib, hmac, sys, urllib.request
from email.utils import formatdate
port, container, account = sys.argv[1], sys.argv[2], "devstoreaccount1"
key = base64.b64decode("Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==")
date, version = formatdate(usegmt=True), "2021-08-06"
to_sign = ("PUT\n" + "\n" * 11 + f"x-ms-date:{date}\nx-ms-version:{version}\n"
           + f"/{account}/{account}/{container}\nrestype:container")
sig = base64.b64encode(hmac.new(key, to_sign.encode(), hashlib.sha256).digest()).decode()
urllib.request.urlopen(urllib.request.Request(
    f"http://127.0.0.1:{port}/{account}/{container}?restype=container", method="PUT",
    headers={"x-ms-date": date, "x-ms-version": version, "Content-Length": "0",
             "Authorization": f"SharedKey {account}:{sig}"}))
PY
}

write_env() {
  {
    printf 'export AWS_ENDPOINT=%q\n' "http://127.0.0.1:$S3_PORT"
    printf 'export AWS_ALLOW_HTTP=true\n'
    printf 'export AWS_ACCESS_KEY_ID=%q\n' "$S3_ACCESS_KEY"
    printf 'export AWS_SECRET_ACCESS_KEY=%q\n' "$S3_SECRET_KEY"
    printf 'export AWS_DEFAULT_REGION=us-east-1\n'
    printf 'export TANGLE_TEST_S3_BUCKET=%q\n' "$BUCKET"
    printf 'export TANGLE_TEST_SFTP_URL=%q\n' "$SFTP_URL"
    printf 'export TANGLE_SSH_COMMAND=%q\n' "ssh -F $STATE/ssh/ssh_config"
    printf 'export TANGLE_TEST_SSH_CONFIG=%q\n' "$STATE/ssh/ssh_config"
    printf 'export TANGLE_TEST_SSH_KEY=%q\n' "$STATE/ssh/id_ed25519"
    printf 'export TANGLE_TEST_MOTO_ENDPOINT=%q\n' "http://127.0.0.1:$MOTO_PORT"
    printf 'export TANGLE_TEST_MOTO_BUCKET=%q\n' "$MOTO_BUCKET"
    printf 'export TANGLE_TEST_RCLONE_SFTP_URL=%q\n' "$RCLONE_URL"
    printf 'export TANGLE_TEST_RCLONE_DIR=%q\n' "$STATE/rclone"
    printf 'export AZURE_STORAGE_USE_EMULATOR=true\n'
    printf 'export AZURITE_BLOB_STORAGE_URL=%q\n' "http://127.0.0.1:$AZURITE_PORT"
    printf 'export TANGLE_TEST_AZURE_CONTAINER=%q\n' "$AZURE_CONTAINER"
  } >"$STATE/env.tmp"
  mv "$STATE/env.tmp" "$STATE/env"
}

stop() {
  local f pid
  for f in s3s sshd moto rclone azurite; do
    [ -f "$STATE/$f.pid" ] || continue
    pid=$(cat "$STATE/$f.pid")
    if kill "$pid" 2>/dev/null; then
      local deadline=$((SECONDS + 10))
      while kill -0 "$pid" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$STATE/$f.pid"
  done
  case "$STATE" in
  /tmp/* | "${TMPDIR:-/tmp}"/*) rm -rf "$STATE" ;;
  *) rm -f "$STATE/env" ;;
  esac
}

case "${1:-}" in
start)
  install_sshd
  install_s3s
  install_rclone
  install_moto
  install_azurite
  stop
  mkdir -p "$STATE"
  start_s3
  start_sftp
  start_moto
  start_rclone
  start_azurite
  write_env
  log "S3 on http://127.0.0.1:$S3_PORT (bucket $BUCKET), SFTP at $SFTP_URL"
  log "moto S3 on http://127.0.0.1:$MOTO_PORT (bucket $MOTO_BUCKET), rclone SFTP at $RCLONE_URL"
  log "Azurite on http://127.0.0.1:$AZURITE_PORT (container $AZURE_CONTAINER)"
  echo "$STATE/env"
  ;;
stop) stop ;;
env)
  running || die "the test servers are not running (scripts/test-servers.sh start)"
  cat "$STATE/env"
  ;;
status)
  if running; then
    echo "running ($STATE)"
  else
    echo "not running"
    exit 1
  fi
  ;;
*)
  echo "usage: $0 start|stop|env|status" >&2
  exit 2
  ;;
esac

#!/usr/bin/env bash
# Run the whole test suite: formatting, lints, unit tests, and the end-to-end tests that
# drive the real binary against real remotes (a local S3-compatible server and an sshd on
# 127.0.0.1, both installed and started by scripts/test-servers.sh on a fresh machine).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fmt --check
# The library's layers depend downwards only (src/lib.rs; tested by test_check_layers.py).
scripts/check_layers.py
python3 -m unittest discover -s scripts -p 'test_*.py'

# tests/e2e/xattrs.rs sets attributes and ACLs with setfattr (attr) and setfacl (acl) and
# compares restores with rsync -aHAXn; tests/e2e/lock_seams.rs runs a backup under
# faketime (a host whose clock is an hour behind); tests/e2e/import.rs imports a
# repository made by the real restic.
install_tools() {
  local missing=()
  for tool in rsync:rsync setfacl:acl setfattr:attr faketime:faketime restic:restic; do
    command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  local as_root=()
  [ "$(id -u)" = 0 ] || as_root=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  if ! "${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; then
    "${as_root[@]}" apt-get update
    "${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
  fi
}

# Those tools and the test servers (scripts/test-servers.sh: downloads, and a build of
# s3s-fs) are installed, and the servers started, in the background while the lints and
# the builds below run: the compiler's serial phases leave a core idle, and downloads
# need none. The tests wait for them.
servers_log=$(mktemp)
(install_tools && scripts/test-servers.sh start) >"$servers_log" 2>&1 &
servers=$!
trap 'wait "$servers" 2>/dev/null || true; scripts/test-servers.sh stop; rm -f "$servers_log"' EXIT
# Lints run inside the builds: clippy-driver as the compiler of this package's own
# crates lints each one while compiling it, as `cargo clippy -- -D warnings` would. A
# separate `cargo clippy` runs in check mode, whose artifacts no build can use, so every
# dependency would be compiled twice.
clippy_driver=$(rustup which clippy-driver 2>/dev/null || command -v clippy-driver) || {
  echo "test.sh: clippy-driver not found (rustup component add clippy)" >&2
  exit 1
}
export RUSTC_WORKSPACE_WRAPPER=$clippy_driver
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"

# The shipped build (no test-only remotes), linted; its binary must not offer the
# test-only remotes.
cargo build --locked --quiet
# A real password, so that only the scheme can be what is refused.
refusal=$(TANGLE_PASSWORD=check TANGLE_CACHE_DIR="$(mktemp -d)" target/debug/tangle init \
  --remote memory://a --remote memory://b --remote memory://c 2>&1 >/dev/null) || true
case "$refusal" in
  *"unsupported URL scheme memory://"*) ;;
  *)
    echo "test.sh: the shipped binary accepts memory:// remotes: $refusal" >&2
    exit 1
    ;;
esac

# Everything with the `testing` feature, linted: the tests need it (memory:// and
# fault-injecting remotes, direct remote writes); the benches are built here only to be
# linted.
cargo build --locked --quiet --all-targets --features testing

if ! wait "$servers"; then
  echo "test.sh: installing or starting the test servers failed:" >&2
  cat "$servers_log" >&2
  exit 1
fi
servers_env=$(scripts/test-servers.sh env)
eval "$servers_env"

if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run --locked --no-fail-fast --features testing
else
  cargo test --locked --no-fail-fast --features testing
fi

#!/usr/bin/env bash
# Build tangle and back up a directory into a default local repository spread over
# three directories (a stand-in for three disks). Safe to run again: the repository and
# password are created once and reused, and later runs are incremental.
#
#   scripts/quickstart.sh [PATH...]        (default: /usr/share/doc)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${TANGLE_BIN:-}" ]; then
  bin="$TANGLE_BIN"   # a binary built already (the test suite runs this script with one)
else
  command -v cargo >/dev/null || { echo "cargo not found: install Rust from https://rustup.rs" >&2; exit 1; }
  cargo build --release --locked
  bin="$PWD/target/release/tangle"
fi

data="${TANGLE_HOME:-${XDG_DATA_HOME:-$HOME/.local/share}/tangle}"
config="${XDG_CONFIG_HOME:-$HOME/.config}/tangle"
mkdir -p "$data" "$config"
pwfile="$config/password"
if [ ! -s "$pwfile" ]; then
  (umask 077; head -c 24 /dev/urandom | base64 > "$pwfile")
  echo "generated a password in $pwfile (keep a copy somewhere safe)"
fi
export TANGLE_REPO="$data/remote-1"
if [ ! -e "$data/remote-1/config" ]; then
  "$bin" --password-file "$pwfile" init --remote "$data/remote-1" --remote "$data/remote-2" --remote "$data/remote-3"
fi
[ $# -gt 0 ] || set -- /usr/share/doc
"$bin" --password-file "$pwfile" backup "$@"
"$bin" --password-file "$pwfile" snapshots
echo
echo "repository: $TANGLE_REPO (and remote-2, remote-3 beside it); password file: $pwfile"
echo "try: $bin -r $TANGLE_REPO --password-file $pwfile ls latest | head"

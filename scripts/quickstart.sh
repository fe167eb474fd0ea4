#!/usr/bin/env bash
# Build tangle and back up a directory into a default local repository spread over
# three directories (a stand-in for three disks). Safe to run again: the repository and
# password are created once and reused, and later runs are incremental.
#
#   scripts/quickstart.sh [PATH...]        (default: /usr/share/doc)
set -euo pipefail
if [ $# -gt 0 ]; then  # the paths as the caller meant them, before the cd below
  abs=(); for p in "$@"; do abs+=("$(realpath -m -- "$p")"); done; set -- "${abs[@]}"
fi
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
[ $# -gt 0 ] || set -- /usr/share/doc
repo="$data/remote-1"
if [ ! -e "$repo/config" ]; then
  "$bin" --password-file "$pwfile" init --remote "$repo" --remote "$data/remote-2" --remote "$data/remote-3"
fi

# The default profile: what every later `tangle` command uses when it names no
# repository (no -r, TANGLE_REPO or -P). It pins the owner key init made, so a remote that
# serves another owner's config is refused. An existing default profile is left alone.
profile="$config/default.toml"
if [ ! -e "$profile" ]; then
  owner=$("$bin" --password-file "$pwfile" -r "$repo" --json cat config |
    sed -n 's/.*"owner_fingerprint": *"\([0-9a-f]*\)".*/\1/p' | head -n 1)
  [ -n "$owner" ] || { echo "cannot read the owner fingerprint from $repo" >&2; exit 1; }
  (umask 077; cat > "$profile" <<TOML
# Written by scripts/quickstart.sh: the repository \`tangle\` uses when no -r or -P is given.
[repository]
remotes = ["$repo", "$data/remote-2", "$data/remote-3"]
password-file = "$pwfile"
owner = "$owner"

[backup]
sources = [$(for p in "$@"; do printf '"%s", ' "$(printf '%s' "$p" | sed 's/[\\"]/\\&/g')"; done | sed 's/, $//')]
TOML
  )
  echo "wrote the default profile $profile (owner key $owner pinned)"
fi

"$bin" --password-file "$pwfile" -r "$repo" backup "$@"
"$bin" --password-file "$pwfile" -r "$repo" snapshots
echo
echo "repository: $repo (and remote-2, remote-3 beside it); password file: $pwfile"
case ":$PATH:" in
  *":$(dirname "$bin"):"*) ;;
  *) echo "put tangle on your PATH: cargo install --locked --path .   (or: export PATH=\"$(dirname "$bin"):\$PATH\")" ;;
esac
echo "then try: tangle ls latest | head      (the default profile $profile names the repository)"

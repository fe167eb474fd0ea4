#!/usr/bin/env bash
# Run the whole test suite: formatting, lints, unit tests, and the end-to-end tests that
# drive the real binary against real remotes (a local S3-compatible server and an sshd on
# 127.0.0.1, both installed and started by scripts/test-servers.sh on a fresh machine).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fmt --check
cargo clippy --all-targets --locked -- -D warnings

scripts/test-servers.sh start >/dev/null
trap 'scripts/test-servers.sh stop' EXIT
servers_env=$(scripts/test-servers.sh env)
eval "$servers_env"

if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run --locked --no-fail-fast
else
  cargo test --locked --no-fail-fast
fi

#!/usr/bin/env bash
# Run the whole test suite: formatting, lints, unit tests, and the end-to-end tests that
# drive the real binary. Installs what the tests need on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fmt --check
cargo clippy --all-targets --locked -- -D warnings
if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run --locked --no-fail-fast
else
  cargo test --locked --no-fail-fast
fi

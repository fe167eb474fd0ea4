#!/usr/bin/env bash
# Fuzz every decoder of what a remote serves: scripts/fuzz.sh SECONDS [TARGET...]
#
# Runs each cargo-fuzz target under fuzz/ (all of them unless named) for SECONDS, one
# after the other in a single process each, with the committed corpus (fuzz/corpus/<t>)
# and the kept regressions (fuzz/regressions/<t>) as seeds. New inputs go to
# fuzz/work/<t> (git-ignored), crashes to fuzz/artifacts/<t>/. Any allocation or RSS
# above MEM_MB (default 512) and any input slower than TIMEOUT seconds (default 10)
# counts as a crash. RUNS=N also stops each target after N executions (whichever comes
# first). Prints per target the executions and libFuzzer's final cov/ft, and exits
# non-zero if any target crashed.
#
# Needs the nightly toolchain and cargo-fuzz (installed here if missing). After a long
# run, fold what was found into the committed corpus (in fuzz/, per target t):
#   target/x86_64-unknown-linux-gnu/release/$t -merge=1 new corpus/$t work/$t
#   rm -r corpus/$t && mv new corpus/$t
# and keep each fixed crash as fuzz/regressions/<t>/<name>: tests/library/fuzz_corpus.rs replays both.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

if [[ $# -lt 1 || ! $1 =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/fuzz.sh SECONDS [TARGET...]" >&2
  exit 2
fi
seconds=$1
shift
mem_mb=${MEM_MB:-512}
timeout=${TIMEOUT:-10}
runs=${RUNS:--1}

if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz.sh: the nightly toolchain is needed (rustup toolchain install nightly)" >&2
  exit 2
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi

if [[ $# -gt 0 ]]; then
  targets=("$@")
else
  mapfile -t targets < <(cargo +nightly fuzz list)
fi
mkdir -p work
if ! cargo +nightly fuzz build >work/build.log 2>&1; then
  cat work/build.log >&2
  exit 2
fi

failed=()
printf '%-12s %12s %8s %8s  %s\n' target executions cov ft result
for t in "${targets[@]}"; do
  mkdir -p "work/$t" "artifacts/$t" "regressions/$t"
  log="work/$t.log"
  # One process (no -jobs: with it libFuzzer forks workers that log to files).
  status=0
  cargo +nightly fuzz run "$t" "work/$t" "corpus/$t" "regressions/$t" -- \
    -max_total_time="$seconds" -runs="$runs" -timeout="$timeout" \
    -rss_limit_mb="$mem_mb" -malloc_limit_mb="$mem_mb" \
    -print_final_stats=1 >"$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  if [[ $status -eq 0 ]]; then
    result=ok
  else
    result="CRASH (exit $status; see fuzz/$log and fuzz/artifacts/$t/)"
    failed+=("$t")
  fi
  printf '%-12s %12s %8s %8s  %s\n' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$result"
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz.sh: crashes in: ${failed[*]}" >&2
  exit 1
fi

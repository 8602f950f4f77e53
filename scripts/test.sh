#!/usr/bin/env bash
# The tests of make test, after its set-up, vet and gofmt check:
#   - go test ./... without the mutation matrix, its output as it comes;
#   - beside it, the mutation matrix and the host mutants (verbose, built
#     with -tags glasshostfaults, the only build in which the host can be
#     broken), into a file printed when both are done: go test ./... keeps
#     about one of two cores busy (its long pole, the conformance package,
#     mostly waits on the browser), the matrix the other;
#   - then the list of fault kinds the fault specs cover.
# It exits non-zero when any of them fails, and stops the matrix when it is
# interrupted.
# Environment: GO (default go), TEST_TIMEOUT (each package's bound,
# default 60m), GOTEST_FLAGS (more flags for every go test, split on spaces).
set -uo pipefail
cd "$(dirname "$0")/.."

go=${GO:-go}
timeout=${TEST_TIMEOUT:-60m}
# shellcheck disable=SC2206 # flags are split on spaces on purpose
flags=(${GOTEST_FLAGS:-})

matrix_log=$(mktemp "${TMPDIR:-/tmp}/glass-matrix.XXXXXX")
matrix_pid=
packages_pid=
cleanup() {
  for pid in $matrix_pid $packages_pid; do
    kill -- "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  rm -f "$matrix_log"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

matrix=("$go" test -timeout "$timeout" "${flags[@]}" -tags glasshostfaults \
  -run '^(TestMutationMatrix|TestEveryHostMutantBreaksTheHost)$' -v ./conformance)
packages=("$go" test -timeout "$timeout" "${flags[@]}" -skip '^TestMutationMatrix$' ./...)

echo "${matrix[*]} (beside the next command; its output follows it)"
"${matrix[@]}" >"$matrix_log" 2>&1 &
matrix_pid=$!

# In the background too, so that a signal is handled at once (bash runs a
# trap only once its foreground command has ended).
echo "${packages[*]}"
"${packages[@]}" &
packages_pid=$!
wait "$packages_pid"
packages_rc=$?
packages_pid=

wait "$matrix_pid"
matrix_rc=$?
matrix_pid=
echo
echo "${matrix[*]}"
cat "$matrix_log"

faults=("$go" test "${flags[@]}" -run '^TestFaultKinds$' -v ./glasstest)
echo "${faults[*]}"
"${faults[@]}"
faults_rc=$?

if [ "$packages_rc" -ne 0 ] || [ "$matrix_rc" -ne 0 ] || [ "$faults_rc" -ne 0 ]; then
  echo "make test: failed (go test ./...: exit $packages_rc; the mutation matrix: exit $matrix_rc; fault kinds: exit $faults_rc)" >&2
  exit 1
fi

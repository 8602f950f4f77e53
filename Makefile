# The commands of the README:
#   make demo     glass-conformance against the embedded Todo example
#   make test     every test, after the same set-up
#   make install  glass-conformance from this checkout, on PATH
# Both install what is missing first (scripts/setup.sh) and nothing twice.

GO ?= go
GOTEST_FLAGS ?=
# TEST_TIMEOUT bounds each package's tests. go test's default, 10m, is
# less than the browser packages take on a small shared machine (the
# conformance package and the mutation matrix of ~330 rows each take well
# over 10 minutes on two loaded cores); a hang
# still ends, with every goroutine's stack.
TEST_TIMEOUT ?= 60m
FUZZTIME ?= 5000x

.PHONY: setup test demo vet fmt-check unit fuzz bench flake install

setup:
	@scripts/setup.sh

demo: setup
	$(GO) run ./cmd/glass-conformance run

# The tests are scripts/test.sh: go test ./... without the mutation
# matrix, and beside it the matrix (verbose, built with -tags
# glasshostfaults, the only build in which the host can be broken), whose
# output is printed when both are done; then the list of fault kinds the
# fault specs cover. go test ./... keeps about one of the two cores busy
# (its long pole, the conformance package, mostly waits on the browser), so
# the matrix beside it uses the other (BENCHMARKS.md).
test: setup vet fmt-check
	@GO='$(GO)' TEST_TIMEOUT='$(TEST_TIMEOUT)' GOTEST_FLAGS='$(GOTEST_FLAGS)' scripts/test.sh

# install is the from-source install, for where Glass is not on the module
# proxy: go install of this checkout into GOBIN (else GOPATH/bin), saying
# where the binary went and, when that directory is not on PATH, how to
# add it. It builds without -trimpath, so that glass-conformance init can
# name this checkout in the replace directive of the go.mod it writes.
install:
	$(GO) install ./cmd/glass-conformance
	@bin=$$($(GO) env GOBIN); [ -n "$$bin" ] || bin=$$($(GO) env GOPATH)/bin; \
	echo "installed $$bin/glass-conformance"; \
	case ":$$PATH:" in *":$$bin:"*) ;; \
	*) echo "$$bin is not on your PATH; add it, for example with this line in your shell's profile:"; \
	   echo "  export PATH=\"$$bin:\$$PATH\"";; esac

# The host mutants exist only in a build with -tags glasshostfaults: vet
# that build too.
vet:
	$(GO) vet ./... ./bench/testdata/registered
	$(GO) vet -tags glasshostfaults ./glasstest ./conformance

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# fuzz runs every fuzz target of the repository for $(FUZZTIME) each (a
# count of inputs, or a duration such as 5m); a short run is part of make
# test. The default is a count, not a duration: on a loaded machine a run of
# a few seconds could end ("context deadline exceeded") before its workers
# had gathered the corpus' coverage, failing with no failing input. Minimising a new input is capped at 100
# runs so a short run fuzzes instead of minimising. A failing input is
# written under the package's testdata/fuzz/ and replays in every later
# go test.
fuzz:
	@set -e; for f in $$(grep -l '^func Fuzz' $$(git ls-files '*_test.go' 2>/dev/null || find . -name '*_test.go')); do \
	  for t in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$f); do \
	    echo "$(GO) test ./$$(dirname $$f) -run '^$$' -fuzz '^$$t\$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 100x"; \
	    $(GO) test ./$$(dirname $$f) -run '^$$' -fuzz "^$$t\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 100x; \
	  done; \
	done

test: fuzz

# flake runs every test of $(PKGS) $(N) times and lists each test and
# Ginkgo spec whose verdict changed between runs; the target is none. A
# quick check: make flake N=2 PKGS=./matchers/... The output of every run
# is kept in a temporary directory the first line names, or in FLAKE_DIR:
# run again with the same FLAKE_DIR, an interrupted make flake goes on from
# the first run that did not finish (only on the same tree and packages).
N ?= 20
PKGS ?= ./...
FLAKE_DIR ?=
flake: setup
	$(GO) run ./scripts/flake -n $(N) -timeout $(TEST_TIMEOUT) $(if $(FLAKE_DIR),-dir $(FLAKE_DIR)) $(PKGS)

# bench prints the benchmark table of BENCHMARKS.md: Glass next to plain
# playwright-go and a bare round trip, scaling to 10,000 records, the cost
# of a spec, of a typical spec, of a conformance run and of the same rules
# registered in a Ginkgo suite (go run ./bench; BENCHFLAGS=-quick for
# a smoke run), then the Go benchmarks of the pure-Go hot paths in
# benchstat's form (BENCH_COUNT runs each).
BENCH_COUNT ?= 6
BENCHFLAGS ?=
bench: setup
	$(GO) run ./bench $(BENCHFLAGS)
	$(GO) test ./receipt ./schema ./matchers ./internal/scrub -run '^$$' -bench . -count $(BENCH_COUNT)

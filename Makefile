# The two commands of the README:
#   make demo   glass-conformance against the embedded Todo example
#   make test   every test, after the same set-up
# Both install what is missing first (scripts/setup.sh) and nothing twice.

GO ?= go
GOTEST_FLAGS ?=
FUZZTIME ?= 3s

.PHONY: setup test demo vet fmt-check unit fuzz bench

setup:
	@scripts/setup.sh

demo: setup
	$(GO) run ./cmd/glass-conformance run

# The mutation matrix runs on its own, verbose, so that make test prints the
# matrix and the score (go test shows a passing package's output only with -v).
test: setup vet fmt-check
	$(GO) test $(GOTEST_FLAGS) -skip '^TestMutationMatrix$$' ./...
	$(GO) test $(GOTEST_FLAGS) -run '^TestMutationMatrix$$' -v ./conformance

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

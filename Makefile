# superclaude — build, install, test, vet (Linux and macOS), bench.
GO      ?= go
BIN     ?= bin/superclaude
PREFIX  ?= $(HOME)/.local
# What `superclaude +version` names (internal/version): the nearest tag (or
# the commit), the commit, and its date. Outside a git checkout, "dev" and
# whatever Go recorded.
VERSION ?= $(or $(shell git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null | sed 's/^v//'),dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
DATE    ?= $(shell TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ 2>/dev/null)
VPKG    := github.com/superclaude/superclaude/internal/version
LDFLAGS := -X $(VPKG).version=$(VERSION) -X $(VPKG).commit=$(COMMIT) -X $(VPKG).date=$(DATE)

.PHONY: build install test vet fuzz bench bench-suite e2e examples release-check goreleaser k8s-check image ci clean

# Static (no cgo): no dynamic loader and libc start-up, about 1.5 ms of
# every run, which a one-shot run (`superclaude --version`) would pay over
# claude's own cost (docs/benchmarks.md).
build:
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/superclaude

install: build
	install -d $(PREFIX)/bin
	install -m 0755 $(BIN) $(PREFIX)/bin/superclaude
	@echo "installed $(PREFIX)/bin/superclaude"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) \
		echo "$(PREFIX)/bin is not on your PATH, so \`superclaude\` would not be found: add this line to ~/.bashrc or ~/.zshrc, then open a new shell:"; \
		echo "  export PATH=\"$(PREFIX)/bin:\$$PATH\""; \
		echo "(superclaude +doctor checks the install)";; esac

# The README's test command. -race on every package; process and tmux tests
# included.
test:
	$(GO) test -race -count=1 ./...

# Vet for this machine and for macOS (CI runs on Linux; users run macOS).
vet:
	$(GO) vet ./...
	GOOS=darwin GOARCH=arm64 $(GO) vet ./...
	GOOS=darwin GOARCH=amd64 $(GO) build -o /dev/null ./cmd/superclaude
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./cmd/superclaude

# A short run of the fuzz targets (CI); run longer by hand with FUZZTIME=5m.
FUZZTIME ?= 15s
fuzz:
	$(GO) test -run='^$$' -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./state
	$(GO) test -run='^$$' -fuzz=FuzzScan -fuzztime=$(FUZZTIME) ./internal/claudeargs
	$(GO) test -run='^$$' -fuzz=FuzzControlProtocol -fuzztime=$(FUZZTIME) ./internal/control
	$(GO) test -run='^$$' -fuzz=FuzzHookInput -fuzztime=$(FUZZTIME) ./internal/claude

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

# Issue 22's suite, one command: every figure beside its floor or peer,
# measured in the same run, as a ratio (internal/benchsuite prints the
# table; docs/benchmarks.md has its figures). About 5 minutes; on a shared
# machine run it when nothing else is heavy. Then the relay against
# script(1): keystroke echo (superclaude-minus-script-p50-µs, goal ≤ 20)
# and throughput (superclaude/script, goal ≥ 1).
bench-suite:
	$(GO) test -run='^$$' -bench=. -benchtime=1x -timeout=30m ./internal/benchsuite/
	$(GO) test -run='^$$' -bench=KeystrokeRoundTrip -benchtime=600x ./cmd/superclaude/
	$(GO) test -run='^$$' -bench=PTYThroughput/base64 -benchtime=6x ./cmd/superclaude/

# The end-to-end test: the real Claude Code, Codex and Gemini CLIs,
# installed with npm into .e2e/, under superclaude on a pty against fake
# model APIs on 127.0.0.1 (see e2e/). Tools and the test binary are built
# first, so the test itself can run with no network but loopback
# (e2e/loopback.sh).
CLAUDE_VERSION  ?= 2.1.330
# Codex and Gemini CLI run through their npm launchers, as a user's do:
# Codex's node script (any node) starts its native binary and re-raises
# the signal that ended it; Gemini CLI is node code and wants node >= 20
# (docs/agent-clis.md).
CODEX_VERSION   ?= 0.169.0
GEMINI_VERSION  ?= 0.61.0
E2E             := .e2e
# The npm package ships the native CLI in a platform package; its
# postinstall only copies that binary over a stub. Run it from the
# platform package directly: no postinstall, no dependency on node's
# version (the package wants node 22; Debian has 18).
CLAUDE_PLATFORM ?= $(shell uname -s | tr A-Z a-z)-$(shell uname -m | sed -e s/x86_64/x64/ -e s/aarch64/arm64/)
E2E_CLAUDE      := $(CURDIR)/$(E2E)/npm/node_modules/@anthropic-ai/claude-code-$(CLAUDE_PLATFORM)/claude
E2E_CODEX       := $(CURDIR)/$(E2E)/npm/node_modules/.bin/codex
E2E_GEMINI      := $(CURDIR)/$(E2E)/npm/node_modules/.bin/gemini
e2e:
	npm install --prefix $(E2E)/npm --no-audit --no-fund --ignore-scripts @anthropic-ai/claude-code@$(CLAUDE_VERSION) \
		@openai/codex@$(CODEX_VERSION) @google/gemini-cli@$(GEMINI_VERSION)
	test -x $(E2E_CLAUDE) || { echo "e2e: no native claude for $(CLAUDE_PLATFORM) in the npm package"; exit 1; }
	$(E2E_CODEX) --version && $(E2E_GEMINI) --version
	CGO_ENABLED=0 $(GO) build -o $(E2E)/bin/superclaude ./cmd/superclaude
	cd examples && $(EXAMPLES_GO) build -o $(CURDIR)/$(E2E)/bin/crashresume ./crashresume
	$(GO) test -c -o $(E2E)/e2e.test ./e2e
	SUPERCLAUDE_TEST_BIN=$(CURDIR)/$(E2E)/bin/superclaude SUPERCLAUDE_E2E_CLAUDE=$(E2E_CLAUDE) \
		SUPERCLAUDE_E2E_CODEX=$(E2E_CODEX) SUPERCLAUDE_E2E_GEMINI=$(E2E_GEMINI) \
		SUPERCLAUDE_E2E_EXAMPLE=$(CURDIR)/$(E2E)/bin/crashresume \
		e2e/loopback.sh $(E2E)/e2e.test -test.v -test.count=1 -test.timeout=20m

# Releases (docs/releasing.md): GoReleaser builds the archives, checksums
# and Homebrew formula from .goreleaser.yaml. release-check builds a
# snapshot of the working tree into dist/ and runs internal/release's tests
# on it: the archives, the formula, and install.sh installing from them
# over 127.0.0.1. GoReleaser is a Go module, installed with go install at
# the pinned version (the newest that builds with Go 1.26).
GORELEASER_VERSION ?= v2.15.1
GORELEASER         ?= $(shell $(GO) env GOPATH)/bin/goreleaser
# GoReleaser reads the repository's remote; a clone without one (a local
# worktree) gets the project's URL through git's environment, unwritten.
REPO_URL           := https://github.com/superclaude/superclaude
GIT_REMOTE_ENV     := $(if $(shell git remote 2>/dev/null),,GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url GIT_CONFIG_VALUE_0=$(REPO_URL))

goreleaser:
	@$(GORELEASER) --version 2>/dev/null | grep -q '^GitVersion: *$(GORELEASER_VERSION)$$' || \
		{ echo "installing GoReleaser $(GORELEASER_VERSION)"; $(GO) install github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION); }

release-check: goreleaser
	$(GIT_REMOTE_ENV) $(GORELEASER) release --snapshot --clean
	SUPERCLAUDE_RELEASE_DIST=$(CURDIR)/dist $(GO) test -count=1 -v ./internal/release

# The Kubernetes example's strict decoding test (docs/containers.md): a Go
# module of its own, so that superclaude does not take k8s.io/api.
k8s-check:
	cd deploy/kubernetes && $(GO) vet ./... && $(GO) test -count=1 ./...

# The container image (Dockerfile). There is no Docker engine where this
# project is developed and tested: this target has not been run.
image:
	docker build --build-arg VERSION=$(VERSION) --build-arg COMMIT=$(COMMIT) --build-arg DATE=$(DATE) -t superclaude:$(VERSION) .


# The examples/ module: a program outside this module that uses the
# library alone (it has its own go.mod, which points here). Built, vetted
# and run: it supervises a stand-in CLI, crashes it and checks that it
# resumed its conversation.
# -mod=mod: a dependency the main module takes on later reaches this
# module's go.sum by itself, instead of failing its build; -buildvcs=false:
# the example needs no VCS stamp, and a git lock held elsewhere in the
# checkout once failed its build for it.
EXAMPLES_GO := GOFLAGS="-mod=mod -buildvcs=false" $(GO)
examples:
	cd examples && $(EXAMPLES_GO) vet ./... && $(EXAMPLES_GO) build -o /dev/null ./... && $(EXAMPLES_GO) run ./crashresume

ci: vet test examples fuzz release-check k8s-check e2e

clean:
	rm -rf bin dist $(E2E)

# superclaude — build, install, test, vet (Linux and macOS), bench.
GO      ?= go
BIN     ?= bin/superclaude
PREFIX  ?= $(HOME)/.local
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)

.PHONY: build install test vet fuzz bench ci clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/superclaude

install: build
	install -d $(PREFIX)/bin
	install -m 0755 $(BIN) $(PREFIX)/bin/superclaude

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

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

ci: vet test fuzz

clean:
	rm -rf bin

// Package release checks what a release ships, as a person installing it
// meets it: the archives GoReleaser builds (.goreleaser.yaml), their
// checksums, the Homebrew formula, and install.sh downloading, verifying
// and installing from them. It holds only tests.
//
// All but the shellcheck of install.sh need a GoReleaser output directory,
// named by $SUPERCLAUDE_RELEASE_DIST:
// `make release-check` builds a snapshot (`goreleaser release --snapshot
// --clean`) and runs them against it, as CI does. A plain `go test ./...`
// has no snapshot and skips them, saying so.
package release

// Package version says which superclaude this is: its version, the commit
// it was built from and that commit's date, for `superclaude +version` and
// for bug reports.
//
// A release build gets all three from the linker: GoReleaser and `make
// build` set them with -X (see .goreleaser.yaml and the Makefile). Any other
// build falls back on what the Go toolchain recorded in the binary: `go
// install …@v1.2.3` records the module's version, a pseudo-version
// (v0.0.0-20261125150405-3f2a1b9c0d1e) names a commit and its time, and a
// build in a checkout records the VCS revision, its time and whether the
// tree had local changes. What was recorded nowhere is said to be unknown,
// never guessed.
//
// The package imports only what the runtime already carries and runs no
// initialiser, so it adds nothing to a one-shot run's start (see
// internal/handover).
package version

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Set by the linker: -X github.com/superclaude/superclaude/internal/version.version=…
// (and .commit, .date). Empty in a plain `go build`.
var (
	version string
	commit  string
	date    string
)

// Info is what a binary knows of its own build.
type Info struct {
	// Version is the release's semantic version (0.1.0), a Go
	// pseudo-version, or "dev" when nothing recorded one.
	Version string
	// Commit is the git commit, 12 hex digits when it is long; "" when
	// not recorded.
	Commit string
	// Dirty says the build's tree had changes not in Commit (as Go
	// recorded it: a release is built from a clean tree).
	Dirty bool
	// Date is the commit's date (RFC 3339, UTC), "" when not recorded.
	Date string
	// Go and Platform are the toolchain and GOOS/GOARCH.
	Go, Platform string
}

// Get returns this binary's Info.
func Get() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return resolve(version, commit, date, bi)
}

// resolve is Get as a pure function: the linker's values win, and each one
// missing is taken from the build info when it has it.
func resolve(version, commit, date string, bi *debug.BuildInfo) Info {
	in := Info{Version: version, Commit: commit, Date: date, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi != nil {
		var vcsRev, vcsTime string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				vcsRev = s.Value
			case "vcs.time":
				vcsTime = s.Value
			case "vcs.modified":
				in.Dirty = s.Value == "true"
			}
		}
		mod := bi.Main.Version
		if mod == "(devel)" {
			mod = ""
		}
		pseudoTime, pseudoRev := pseudo(mod)
		if in.Version == "" {
			in.Version = strings.TrimSuffix(mod, "+dirty")
		}
		if in.Commit == "" {
			in.Commit = firstOf(vcsRev, pseudoRev)
		}
		if in.Date == "" {
			in.Date = firstOf(vcsTime, pseudoTime)
		}
		if strings.HasSuffix(mod, "+dirty") {
			in.Dirty = true
		}
	}
	if in.Version == "" {
		in.Version = "dev"
	}
	if len(in.Commit) > 12 {
		in.Commit = in.Commit[:12]
	}
	return in
}

// pseudo reads a Go pseudo-version (vX.Y.Z-[pre.]yyyymmddhhmmss-abcdefabcdef,
// optionally +dirty): the commit's time, as RFC 3339, and its revision.
// Anything else gives "", "".
func pseudo(v string) (when, rev string) {
	v, _, _ = strings.Cut(v, "+")
	i := strings.LastIndexByte(v, '-')
	if i < 0 || len(v)-i-1 != 12 || !isHex(v[i+1:]) {
		return "", ""
	}
	rev, rest := v[i+1:], v[:i]
	j := strings.LastIndexAny(rest, "-.")
	if j < 0 || len(rest)-j-1 != 14 || !isDigits(rest[j+1:]) {
		return "", ""
	}
	t := rest[j+1:]
	return t[0:4] + "-" + t[4:6] + "-" + t[6:8] + "T" + t[8:10] + ":" + t[10:12] + ":" + t[12:14] + "Z", rev
}

func isHex(s string) bool {
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return s != ""
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

func firstOf(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

// String is the line `superclaude +version` prints after "superclaude ":
//
//	0.1.0, commit 3f2a1b9c0d1e of 2026-11-25T15:04:05Z, go1.26.8 linux/amd64
func (in Info) String() string {
	var b strings.Builder
	b.WriteString(in.Version)
	if in.Commit == "" {
		b.WriteString(", commit unknown")
	} else {
		b.WriteString(", commit " + in.Commit)
	}
	if in.Date != "" {
		b.WriteString(" of " + in.Date)
	}
	if in.Dirty {
		b.WriteString(", with local changes")
	}
	b.WriteString(", " + in.Go + " " + in.Platform)
	return b.String()
}

// Short is the version alone, for telling two builds apart (another host's
// superclaude is compared by it): the release's version, or for a build
// that has none, "dev-" and the commit, "-dirty" when the tree had changes.
//
// A Go pseudo-version (v0.0.0-20261201232448-093456c35641, what a build in
// a clean checkout records since Go 1.24, and `go install …@<commit>`)
// names a commit, not a release: it reads as "dev-<commit>" too, so that
// nobody is told to fetch a release of that name, which does not exist.
func (in Info) Short() string {
	if _, rev := pseudo(in.Version); rev != "" && in.Commit != "" {
		in.Version = "dev"
	}
	switch {
	case in.Version != "dev" || in.Commit == "":
		return in.Version
	case in.Dirty:
		return "dev-" + in.Commit + "-dirty"
	}
	return "dev-" + in.Commit
}

package version

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func settings(kv ...string) []debug.BuildSetting {
	var out []debug.BuildSetting
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
	}
	return out
}

// Each way superclaude gets built names what it can, and says "unknown"
// for what nothing recorded.
func TestResolve(t *testing.T) {
	const rev = "3f2a1b9c0d1e5f60718293a4b5c6d7e8f9001122"
	for _, tc := range []struct {
		name                  string
		version, commit, date string
		bi                    *debug.BuildInfo
		want                  Info
	}{
		{
			name:    "a release: the linker's values win over the build info",
			version: "0.1.0", commit: rev, date: "2026-11-25T15:04:05Z",
			bi:   &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20200101000000-aaaaaaaaaaaa"}, Settings: settings("vcs.revision", "bbbb", "vcs.time", "2020-01-01T00:00:00Z")},
			want: Info{Version: "0.1.0", Commit: "3f2a1b9c0d1e", Date: "2026-11-25T15:04:05Z"},
		},
		{
			name:    "a snapshot built from a tree with changes says so",
			version: "0.1.1-dev+3f2a1b9", commit: rev, date: "2026-11-25T15:04:05Z",
			bi:   &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261125150405-3f2a1b9c0d1e+dirty"}, Settings: settings("vcs.revision", rev, "vcs.modified", "true")},
			want: Info{Version: "0.1.1-dev+3f2a1b9", Commit: "3f2a1b9c0d1e", Dirty: true, Date: "2026-11-25T15:04:05Z"},
		},
		{
			name: "go install …@v1.2.3: the module's version, no commit recorded",
			bi:   &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}},
			want: Info{Version: "v1.2.3"},
		},
		{
			name: "go install …@<commit>: the pseudo-version names the commit and its time",
			bi:   &debug.BuildInfo{Main: debug.Module{Version: "v0.1.1-0.20261125150405-3f2a1b9c0d1e"}},
			want: Info{Version: "v0.1.1-0.20261125150405-3f2a1b9c0d1e", Commit: "3f2a1b9c0d1e", Date: "2026-11-25T15:04:05Z"},
		},
		{
			name: "a build in a checkout with local changes",
			bi: &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261125150405-3f2a1b9c0d1e+dirty"},
				Settings: settings("vcs.revision", rev, "vcs.time", "2026-11-25T15:04:05Z", "vcs.modified", "true")},
			want: Info{Version: "v0.0.0-20261125150405-3f2a1b9c0d1e", Commit: "3f2a1b9c0d1e", Dirty: true, Date: "2026-11-25T15:04:05Z"},
		},
		{
			name: "an old toolchain's (devel) with VCS stamps",
			bi:   &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: settings("vcs.revision", rev, "vcs.time", "2026-11-25T15:04:05Z")},
			want: Info{Version: "dev", Commit: "3f2a1b9c0d1e", Date: "2026-11-25T15:04:05Z"},
		},
		{
			name: "nothing recorded at all",
			want: Info{Version: "dev"},
		},
		{
			name: "a version string that only looks like a pseudo-version is not read as one",
			bi:   &debug.BuildInfo{Main: debug.Module{Version: "v1.0.0-rc.1-notahexrevisionx"}},
			want: Info{Version: "v1.0.0-rc.1-notahexrevisionx"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := resolve(tc.version, tc.commit, tc.date, tc.bi)
			tc.want.Go, tc.want.Platform = runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH
			if got != tc.want {
				t.Fatalf("resolve = %+v\nwant      %+v", got, tc.want)
			}
		})
	}
}

func TestString(t *testing.T) {
	in := Info{Version: "0.1.0", Commit: "3f2a1b9c0d1e", Date: "2026-11-25T15:04:05Z", Go: "go1.26.8", Platform: "linux/amd64"}
	if got, want := in.String(), "0.1.0, commit 3f2a1b9c0d1e of 2026-11-25T15:04:05Z, go1.26.8 linux/amd64"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	in.Dirty = true
	if got := in.String(); !strings.Contains(got, "commit 3f2a1b9c0d1e of 2026-11-25T15:04:05Z, with local changes, go1.26.8") {
		t.Errorf("a dirty build does not say so: %q", got)
	}
	if got := (Info{Version: "v1.2.3", Go: "go1.26.8", Platform: "darwin/arm64"}).String(); got != "v1.2.3, commit unknown, go1.26.8 darwin/arm64" {
		t.Errorf("no commit: %q", got)
	}
}

func TestShort(t *testing.T) {
	for _, tc := range []struct {
		in   Info
		want string
	}{
		{Info{Version: "0.1.0", Commit: "3f2a1b9c0d1e"}, "0.1.0"},
		{Info{Version: "dev", Commit: "3f2a1b9c0d1e"}, "dev-3f2a1b9c0d1e"},
		{Info{Version: "dev", Commit: "3f2a1b9c0d1e", Dirty: true}, "dev-3f2a1b9c0d1e-dirty"},
		{Info{Version: "dev"}, "dev"},
		// A build in a clean checkout (Go 1.24+ records a pseudo-version):
		// no release has that name, so a host is never told to install
		// one (TestUpOnAHostWithoutSuperclaude failed on a fresh
		// machine, where go build stamps the checkout).
		{Info{Version: "v0.0.0-20261201232448-093456c35641", Commit: "093456c35641"}, "dev-093456c35641"},
		{Info{Version: "v0.0.0-20261201232448-093456c35641", Commit: "093456c35641", Dirty: true}, "dev-093456c35641-dirty"},
	} {
		if got := tc.in.Short(); got != tc.want {
			t.Errorf("%+v.Short() = %q, want %q", tc.in, got, tc.want)
		}
	}
}

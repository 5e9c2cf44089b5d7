package release

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/elf"
	"debug/macho"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// EnvDist names the GoReleaser output directory the tests check.
const EnvDist = "SUPERCLAUDE_RELEASE_DIST"

// platforms are the four builds every release has.
var platforms = []struct{ os, arch string }{
	{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "amd64"}, {"darwin", "arm64"},
}

// snapshot is what a GoReleaser run left in its dist directory.
type snapshot struct {
	dir       string
	version   string
	commit    string
	checksums map[string]string // archive name → SHA-256
}

func (s *snapshot) archive(goos, goarch string) string {
	return "superclaude_" + s.version + "_" + goos + "_" + goarch + ".tar.gz"
}

func loadSnapshot(t *testing.T) *snapshot {
	t.Helper()
	dir := os.Getenv(EnvDist)
	if dir == "" {
		t.Skip("no release snapshot to check: $" + EnvDist + " is not set (run `make release-check`, which builds one with GoReleaser)")
	}
	var meta struct {
		Version string `json:"version"`
		Commit  string `json:"commit"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "metadata.json"))
	if err != nil {
		t.Fatalf("$%s=%s is not a GoReleaser output directory: %v", EnvDist, dir, err)
	}
	if err := json.Unmarshal(b, &meta); err != nil {
		t.Fatalf("%s/metadata.json: %v", dir, err)
	}
	s := &snapshot{dir: dir, version: meta.Version, commit: meta.Commit, checksums: map[string]string{}}
	f, err := os.Open(filepath.Join(dir, "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("checksums.txt: malformed line %q", sc.Text())
		}
		s.checksums[name] = sum
	}
	return s
}

// The snapshot's version is semver, and its commit a real one, not
// GoReleaser's "none" for a repository it could not read.
func TestSnapshotIsVersioned(t *testing.T) {
	s := loadSnapshot(t)
	semver := regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$`)
	if !semver.MatchString(s.version) {
		t.Errorf("version %q is not semver", s.version)
	}
	if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(s.commit) {
		t.Errorf("commit %q is not a git commit: GoReleaser could not read the repository", s.commit)
	}
}

// Every platform has an archive, named as install.sh expects, whose
// checksum is in checksums.txt and right, holding a superclaude built for
// that platform — statically linked on Linux.
func TestArchivesAndChecksums(t *testing.T) {
	s := loadSnapshot(t)
	if len(s.checksums) != len(platforms) {
		t.Errorf("checksums.txt has %d entries, want one per platform (%d): %v", len(s.checksums), len(platforms), s.checksums)
	}
	for _, p := range platforms {
		name := s.archive(p.os, p.arch)
		raw, err := os.ReadFile(filepath.Join(s.dir, name))
		if err != nil {
			t.Errorf("%s/%s: %v", p.os, p.arch, err)
			continue
		}
		sum := sha256.Sum256(raw)
		if got := hex.EncodeToString(sum[:]); s.checksums[name] != got {
			t.Errorf("%s: checksums.txt says %q, the file is %s", name, s.checksums[name], got)
		}
		bin := extract(t, raw, "superclaude")
		switch p.os {
		case "linux":
			f, err := elf.NewFile(bytes.NewReader(bin))
			if err != nil {
				t.Fatalf("%s: superclaude is not ELF: %v", name, err)
			}
			if want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[p.arch]; f.Machine != want {
				t.Errorf("%s: built for %v, want %v", name, f.Machine, want)
			}
			for _, prog := range f.Progs {
				if prog.Type == elf.PT_INTERP || prog.Type == elf.PT_DYNAMIC {
					t.Errorf("%s: superclaude is dynamically linked (program header %v); want static (CGO_ENABLED=0)", name, prog.Type)
				}
			}
		case "darwin":
			f, err := macho.NewFile(bytes.NewReader(bin))
			if err != nil {
				t.Fatalf("%s: superclaude is not Mach-O: %v", name, err)
			}
			if want := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[p.arch]; f.Cpu != want {
				t.Errorf("%s: built for %v, want %v", name, f.Cpu, want)
			}
		}
	}
}

// The Homebrew formula names each platform's archive with the checksum in
// checksums.txt, lives where a tap keeps formulae (Formula/), and installs
// the completions.
func TestHomebrewFormula(t *testing.T) {
	s := loadSnapshot(t)
	rb, err := os.ReadFile(filepath.Join(s.dir, "homebrew", "Formula", "superclaude.rb"))
	if err != nil {
		t.Fatalf("no formula in the tap layout: %v", err)
	}
	pairs := regexp.MustCompile(`url "([^"]+)"\s+sha256 "([0-9a-f]{64})"`).FindAllStringSubmatch(string(rb), -1)
	seen := map[string]bool{}
	for _, m := range pairs {
		name := m[1][strings.LastIndexByte(m[1], '/')+1:]
		if s.checksums[name] != m[2] {
			t.Errorf("formula: %s has sha256 %s, checksums.txt %q", name, m[2], s.checksums[name])
		}
		if !strings.HasPrefix(m[1], "https://github.com/superclaude/superclaude/releases/download/") {
			t.Errorf("formula: %s is not a release download", m[1])
		}
		seen[name] = true
	}
	for _, p := range platforms {
		if !seen[s.archive(p.os, p.arch)] {
			t.Errorf("formula: no url for %s/%s", p.os, p.arch)
		}
	}
	for _, want := range []string{"class Superclaude < Formula", `version "` + s.version + `"`, `bin.install "superclaude"`, `generate_completions_from_executable(bin/"superclaude", "+completion")`, `license "MIT"`} {
		if !bytes.Contains(rb, []byte(want)) {
			t.Errorf("formula lacks %s", want)
		}
	}
}

func extract(t *testing.T, archive []byte, name string) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err != nil {
			t.Fatalf("no %s in the archive: %v", name, err)
		}
		if h.Name == name {
			if h.Mode&0o111 == 0 {
				t.Errorf("%s is not executable in the archive (mode %o)", name, h.Mode)
			}
			b, err := io.ReadAll(tr)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	}
}

// installer runs install.sh as `curl … | sh` would, against a server on
// 127.0.0.1, with a home and PATH of the test's own.
type installer struct {
	t      *testing.T
	shell  string
	script string
	home   string
	path   string
	env    []string
}

func newInstaller(t *testing.T, shell string) *installer {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	return &installer{t: t, shell: shell, script: filepath.Join(root, "install.sh"), home: home,
		// Only the system's directories: ~/.local/bin is not on it.
		path: "/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin"}
}

// run pipes install.sh into the shell and returns its output and exit code.
func (in *installer) run(url string, env ...string) (string, int) {
	in.t.Helper()
	script, err := os.ReadFile(in.script)
	if err != nil {
		in.t.Fatal(err)
	}
	cmd := exec.Command(in.shell)
	cmd.Stdin = bytes.NewReader(script)
	cmd.Env = append([]string{"HOME=" + in.home, "PATH=" + in.path, "SHELL=/bin/bash", "TMPDIR=" + in.t.TempDir(),
		"SUPERCLAUDE_DOWNLOAD_URL=" + url}, env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		in.t.Fatal(err)
	}
	return string(out), code
}

// shells are the POSIX shells install.sh is run with: dash is Debian's and
// Ubuntu's sh, bash in POSIX mode stands for macOS's.
func shells(t *testing.T) []string {
	var out []string
	for _, sh := range []string{"dash", "bash"} {
		if p, err := exec.LookPath(sh); err == nil {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		t.Fatal("no dash or bash to run install.sh with")
	}
	return out
}

func serve(t *testing.T, h http.Handler) string {
	srv := httptest.NewServer(h) // 127.0.0.1, a port of its own
	t.Cleanup(srv.Close)
	return srv.URL
}

// install.sh, fed to sh as from curl, downloads this machine's archive from
// the snapshot served on 127.0.0.1, checks it against checksums.txt,
// installs it in ~/.local/bin and says that directory is not on PATH and
// what to add; the installed superclaude names the snapshot's version and
// commit. Again with the version named and the directory on PATH, it
// installs over the first without a PATH hint.
func TestInstallFromTheSnapshot(t *testing.T) {
	s := loadSnapshot(t)
	url := serve(t, http.FileServer(http.Dir(s.dir)))
	for _, sh := range shells(t) {
		t.Run(filepath.Base(sh), func(t *testing.T) {
			in := newInstaller(t, sh)
			out, code := in.run(url)
			bin := filepath.Join(in.home, ".local", "bin", "superclaude")
			if code != 0 {
				t.Fatalf("install.sh exited %d:\n%s", code, out)
			}
			for _, want := range []string{
				s.archive(runtime.GOOS, runtime.GOARCH),
				"checksum verified (SHA-256 " + s.checksums[s.archive(runtime.GOOS, runtime.GOARCH)] + ")",
				"installed " + bin + ": superclaude " + s.version + ", commit " + s.commit[:12],
				filepath.Dir(bin) + " is not on your PATH. Add this line to ~/.bashrc",
				`    export PATH="$HOME/.local/bin:$PATH"`,
			} {
				if !strings.Contains(out, want) {
					t.Errorf("install.sh's output lacks %q:\n%s", want, out)
				}
			}
			v, err := exec.Command(bin, "+version").Output()
			if err != nil || !strings.HasPrefix(string(v), "superclaude "+s.version+", commit "+s.commit[:12]+" of ") {
				t.Fatalf("the installed superclaude: %v %q", err, v)
			}
			if fi, err := os.Stat(bin); err != nil || fi.Mode().Perm() != 0o755 {
				t.Fatalf("installed binary: %v %v", fi, err)
			}

			in.path = filepath.Dir(bin) + ":" + in.path
			out, code = in.run(url, "SUPERCLAUDE_VERSION=v"+s.version)
			if code != 0 || !strings.Contains(out, "installed "+bin) || strings.Contains(out, "not on your PATH") || strings.Contains(out, "note:") {
				t.Fatalf("install.sh of version %s with its directory on PATH exited %d:\n%s", s.version, code, out)
			}
			if leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(bin), ".superclaude.new.*")); len(leftovers) > 0 {
				t.Errorf("install.sh left %v", leftovers)
			}
		})
	}
}

// An archive that does not match checksums.txt (corrupted in transit, or
// replaced) is refused, and an earlier install stays as it was; so is a
// release whose checksums.txt has no archive for this machine.
func TestInstallRefusesACorruptArchive(t *testing.T) {
	s := loadSnapshot(t)
	mine := s.archive(runtime.GOOS, runtime.GOARCH)
	files := http.FileServer(http.Dir(s.dir))
	corrupt := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/"+mine) {
			b, err := os.ReadFile(filepath.Join(s.dir, mine))
			if err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			b[len(b)/2] ^= 0x01 // one bit flipped
			w.Write(b)
			return
		}
		files.ServeHTTP(w, r)
	}))
	missing := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/checksums.txt") {
			for name, sum := range s.checksums {
				if name != mine {
					io.WriteString(w, sum+"  "+name+"\n")
				}
			}
			return
		}
		files.ServeHTTP(w, r)
	}))
	for _, sh := range shells(t) {
		t.Run(filepath.Base(sh), func(t *testing.T) {
			in := newInstaller(t, sh)
			dir := filepath.Join(in.home, ".local", "bin")
			os.MkdirAll(dir, 0o755)
			old := []byte("#!/bin/sh\necho the earlier install\n")
			os.WriteFile(filepath.Join(dir, "superclaude"), old, 0o755)

			out, code := in.run(corrupt)
			if code == 0 || !strings.Contains(out, "checksum mismatch for "+mine+": checksums.txt says "+s.checksums[mine]) ||
				!strings.Contains(out, "nothing was installed") {
				t.Errorf("a corrupt archive: exit %d\n%s", code, out)
			}
			out, code = in.run(missing)
			if code == 0 || !strings.Contains(out, "has no archive for "+runtime.GOOS+"/"+runtime.GOARCH) {
				t.Errorf("no archive for this machine: exit %d\n%s", code, out)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "superclaude")); !bytes.Equal(b, old) {
				t.Errorf("the earlier install was changed: %q", b)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("the install directory holds %d files, want only the earlier install", len(entries))
			}
		})
	}
}

// install.sh picks the archive from uname's words as each system spells
// them (aarch64 on Linux, arm64 on macOS, x86_64 on both), refuses an
// unknown system or processor by name, and never installs a binary that
// does not run on the machine: here a macOS build on Linux.
func TestInstallPicksThePlatformsArchive(t *testing.T) {
	s := loadSnapshot(t)
	url := serve(t, http.FileServer(http.Dir(s.dir)))
	fake := func(t *testing.T, in *installer, sys, machine string) {
		d := t.TempDir()
		os.WriteFile(filepath.Join(d, "uname"), []byte("#!/bin/sh\ncase \"$1\" in -s) echo "+sys+";; -m) echo "+machine+";; *) echo "+sys+";; esac\n"), 0o755)
		in.path = d + ":" + in.path
	}
	for _, tc := range []struct {
		sys, machine string
		want         string
	}{
		{"Darwin", "arm64", "the downloaded superclaude (" + s.archive("darwin", "arm64") + ") does not run on this machine"},
		{"Darwin", "x86_64", "the downloaded superclaude (" + s.archive("darwin", "amd64") + ") does not run on this machine"},
		{"Linux", "i686", "no superclaude release for the i686 processor"},
		{"FreeBSD", "amd64", "no superclaude release for FreeBSD"},
	} {
		t.Run(tc.sys+"-"+tc.machine, func(t *testing.T) {
			in := newInstaller(t, shells(t)[0])
			fake(t, in, tc.sys, tc.machine)
			out, code := in.run(url)
			if code == 0 || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, want failure saying %q:\n%s", code, tc.want, out)
			}
			if _, err := os.Stat(filepath.Join(in.home, ".local", "bin", "superclaude")); err == nil {
				t.Error("something was installed")
			}
		})
	}
	// The other Linux spelling of this machine's processor.
	other := map[string]string{"amd64": "amd64", "arm64": "aarch64"}[runtime.GOARCH]
	if runtime.GOOS == "linux" && other != "" {
		in := newInstaller(t, shells(t)[0])
		fake(t, in, "Linux", other)
		if out, code := in.run(url); code != 0 || !strings.Contains(out, s.archive("linux", runtime.GOARCH)) {
			t.Errorf("uname -m %s: exit %d\n%s", other, code, out)
		}
	}
}

// Another superclaude earlier on PATH — the SuperClaude framework's
// command, installed with pip or npm — would be the one that runs:
// install.sh says so and names it.
func TestInstallWarnsOfAnotherSuperclaudeFirstOnPath(t *testing.T) {
	s := loadSnapshot(t)
	url := serve(t, http.FileServer(http.Dir(s.dir)))
	in := newInstaller(t, shells(t)[0])
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "superclaude"), []byte("#!/bin/sh\necho SuperClaude framework\n"), 0o755)
	dir := filepath.Join(in.home, ".local", "bin")
	os.MkdirAll(dir, 0o755)
	in.path = other + ":" + dir + ":" + in.path
	out, code := in.run(url)
	if code != 0 || !strings.Contains(out, "'superclaude' runs "+filepath.Join(other, "superclaude")+", which comes before "+dir) {
		t.Fatalf("exit %d, want a note naming the other superclaude:\n%s", code, out)
	}
}

// install.sh is POSIX sh, as `curl … | sh` needs wherever sh is dash, ash
// or a bash in POSIX mode: shellcheck, told so, finds nothing in it. (The
// tests above run it with dash, which refuses most of what is not POSIX.)
func TestInstallShIsPOSIXSh(t *testing.T) {
	if _, err := exec.LookPath("shellcheck"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("shellcheck is not installed in CI (.ci/run installs it)")
		}
		t.Skip("shellcheck is not installed (.ci/run installs it)")
	}
	out, err := exec.Command("shellcheck", "--shell=sh", "--severity=style", "../../install.sh").CombinedOutput()
	if err != nil {
		t.Fatalf("shellcheck install.sh: %v\n%s", err, out)
	}
}

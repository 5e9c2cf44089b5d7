package release

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeRelease serves a release of one archive for this machine, holding a
// superclaude that is a shell script, and its checksums.txt: what
// install.sh needs, without a GoReleaser snapshot.
func fakeRelease(t *testing.T) string {
	t.Helper()
	name := "superclaude_9.9.9_" + runtime.GOOS + "_" + runtime.GOARCH + ".tar.gz"
	script := []byte("#!/bin/sh\necho 'superclaude 9.9.9, commit 0123456789ab of 2026-11-25'\n")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Name: "superclaude", Mode: 0o755, Size: int64(len(script)), Typeflag: tar.TypeReg})
	tw.Write(script)
	tw.Close()
	zw.Close()
	archive := buf.Bytes()
	sum := sha256.Sum256(archive)
	checksums := hex.EncodeToString(sum[:]) + "  " + name + "\n"
	return serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/checksums.txt"):
			w.Write([]byte(checksums))
		case strings.HasSuffix(r.URL.Path, "/"+name):
			w.Write(archive)
		default:
			http.NotFound(w, r)
		}
	}))
}

// Attack: install.sh installed into a directory every user may write to
// — a SUPERCLAUDE_INSTALL_DIR, or one of ~/.local/bin, ~/bin that is on
// PATH and was left 0777 — and copied the binary there through a fixed
// name, .superclaude.new.<pid>: another user could plant a link at that
// name (pids are few) and have cp write through it into a file of the
// person's, or replace superclaude there later, or put a command of
// theirs beside it on the person's PATH. Such a directory is passed over
// when install.sh chooses, and refused when it is named, saying why;
// the copy goes to a new file of a name nobody can guess.
func TestAttackInstallDirWritableByEveryoneIsRefused(t *testing.T) {
	url := fakeRelease(t)
	for _, sh := range shells(t) {
		t.Run(filepath.Base(sh), func(t *testing.T) {
			in := newInstaller(t, sh)
			open := filepath.Join(t.TempDir(), "bin")
			os.Mkdir(open, 0o755)
			os.Chmod(open, 0o1777)
			out, code := in.run(url, "SUPERCLAUDE_INSTALL_DIR="+open)
			if code == 0 || !strings.Contains(out, open+" is writable by every user") {
				t.Errorf("an install directory every user may write to, named: exit %d\n%s", code, out)
			}
			if entries, _ := os.ReadDir(open); len(entries) != 0 {
				t.Errorf("install.sh wrote into it: %v", entries)
			}

			// Chosen: ~/.local/bin, on PATH but open to everyone, is
			// passed over for ~/bin.
			local, home := filepath.Join(in.home, ".local", "bin"), filepath.Join(in.home, "bin")
			os.MkdirAll(local, 0o755)
			os.Chmod(local, 0o777)
			os.MkdirAll(home, 0o755)
			in.path = local + ":" + home + ":" + in.path
			out, code = in.run(url)
			if code != 0 || !strings.Contains(out, "installed "+filepath.Join(home, "superclaude")) {
				t.Errorf("with ~/.local/bin open to everyone: exit %d\n%s", code, out)
			}
			if entries, _ := os.ReadDir(local); len(entries) != 0 {
				t.Errorf("install.sh wrote into ~/.local/bin, which every user may write to: %v", entries)
			}
		})
	}
}

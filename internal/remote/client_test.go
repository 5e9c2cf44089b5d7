package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The tests run the client against a stand-in for ssh that does what ssh
// does with the remote command — gives the one string to a shell — on
// this machine, and a stand-in for superclaude there: this test binary,
// which serves testOps. The real OpenSSH is the e2e suite's (e2e/).
const envRole = "SUPERCLAUDE_REMOTE_TEST_ROLE"

func TestMain(m *testing.M) {
	if os.Getenv(envRole) == "serve" {
		err := Serve(context.Background(), os.Stdin, os.Stdout, os.Getenv("SERVE_VERSION"), testOps)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type echoArgs struct {
	Words []string `json:"words"`
	N     int      `json:"n"`
}

var testOps = map[string]Handler{
	"echo": func(ctx context.Context, raw json.RawMessage, emit func(any) error) error {
		var a echoArgs
		if err := Args(raw, &a); err != nil {
			return err
		}
		cwd, _ := os.Getwd()
		// Something a word ran would have left a file here.
		entries, _ := os.ReadDir(cwd)
		return emit(map[string]any{"words": a.Words, "files": len(entries)})
	},
	"count": func(ctx context.Context, raw json.RawMessage, emit func(any) error) error {
		var a echoArgs
		Args(raw, &a)
		for i := range a.N {
			if err := emit(i); err != nil {
				return err
			}
		}
		return nil
	},
	// run runs sh for "say WORD": it prints WORD, "E" on its standard
	// error, and exits 3.
	OpRun: RunHandler("/bin/sh", func(args []string) ([]string, error) {
		if len(args) != 2 || args[0] != "say" {
			return nil, fmt.Errorf("not %q", args)
		}
		return []string{"-c", `printf '%s' "$1"; printf E >&2; exit 3`, "sh", args[1]}, nil
	}),
	"fail": func(ctx context.Context, raw json.RawMessage, emit func(any) error) error {
		return errors.New("no session \"$(x)\"")
	},
}

// fakeSSH is a directory with an ssh that runs the remote command through
// sh (host "down" refuses, host "bare" has no superclaude on its PATH) and
// a superclaude there that is this test binary serving testOps.
func fakeSSH(t *testing.T, version string) (*SSH, string) {
	t.Helper()
	dir := t.TempDir()
	work := t.TempDir()
	self, _ := os.Executable()
	ssh := `#!/bin/sh
while [ "$1" != "--" ]; do shift; done
shift; host=$1; shift
cd "` + work + `"
case $host in
down) echo "ssh: connect to host down port 22: Connection refused" >&2; exit 255;;
bare) PATH=/usr/bin:/bin; HOME=/nonexistent;;
esac
exec sh -c "$1"
`
	// GORACE: a race-enabled binary otherwise sleeps a second at exit.
	sc := "#!/bin/sh\nGORACE=atexit_sleep_ms=0 " + envRole + "=serve SERVE_VERSION='" + version + "' exec '" + self + "' \"$@\"\n"
	os.WriteFile(filepath.Join(dir, "ssh"), []byte(ssh), 0o755)
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "superclaude"), []byte(sc), 0o755)
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	return &SSH{Program: filepath.Join(dir, "ssh"), ControlDir: t.TempDir()}, work
}

// Words that a shell would run reach the other side unchanged, as data,
// and nothing runs there.
func TestClientWordsArriveAsData(t *testing.T) {
	s, _ := fakeSSH(t, "v1")
	c := &Client{SSH: s, Host: "box", Version: "v1"}
	var got struct {
		Words []string `json:"words"`
		Files int      `json:"files"`
	}
	if err := c.Call(context.Background(), "echo", echoArgs{Words: hostile}, &got); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Words, "\x00") != strings.Join(hostile, "\x00") {
		t.Fatalf("the words came back as %q, want %q", got.Words, hostile)
	}
	if got.Files != 0 {
		t.Fatalf("%d files appeared on the other side: a word ran", got.Files)
	}
}

func TestClientStreamsEveryResult(t *testing.T) {
	s, _ := fakeSSH(t, "v1")
	c := &Client{SSH: s, Host: "box", Version: "v1"}
	var got []int
	err := c.Stream(context.Background(), "count", echoArgs{N: 5}, func(raw json.RawMessage) error {
		var i int
		json.Unmarshal(raw, &i)
		got = append(got, i)
		return nil
	})
	if err != nil || fmt.Sprint(got) != "[0 1 2 3 4]" {
		t.Fatalf("streamed %v, %v; want [0 1 2 3 4]", got, err)
	}
}

// Each way a call fails says what happened and what to do.
func TestClientErrors(t *testing.T) {
	s, _ := fakeSSH(t, "v2")
	cases := []struct {
		host, version, op string
		want              error
		says              string
	}{
		{"down", "v2", "echo", ErrUnreachable, "Connection refused"},
		{"bare", "v2", "echo", ErrNotInstalled, "install superclaude v2 on bare"},
		{"box", "v1", "echo", ErrVersion, "v2 there, v1 here"},
		{"box", "v2", "fail", nil, `box: no session "$(x)"`},
		{"box", "v2", "nosuch", nil, `unknown operation "nosuch"`},
	}
	for _, c := range cases {
		cl := &Client{SSH: s, Host: c.host, Version: c.version}
		err := cl.Call(context.Background(), c.op, echoArgs{}, nil)
		if err == nil || (c.want != nil && !errors.Is(err, c.want)) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s %s (version %s): %v; want %v saying %q", c.host, c.op, c.version, err, c.want, c.says)
		}
	}
}

// A host that takes longer than the caller allows is unreachable, and the
// call returns at its deadline.
func TestClientDeadline(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ssh"), []byte("#!/bin/sh\nexec sleep 30\n"), 0o755)
	c := &Client{SSH: &SSH{Program: filepath.Join(dir, "ssh"), ControlDir: t.TempDir()}, Host: "slow", Version: "v1"}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := c.Call(ctx, "echo", nil, nil)
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("a host that never answers: %v, want ErrUnreachable", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the call took %v after a 300ms deadline", d)
	}
}

// What to install says how, for a release and for a development build.
func TestInstallHint(t *testing.T) {
	for v, want := range map[string]string{
		"0.2.0":                  "curl -fsSL https://raw.githubusercontent.com/superclaude/superclaude/main/install.sh | SUPERCLAUDE_VERSION=0.2.0 sh",
		"dev-3f2a1b9c0d1e":       "build commit 3f2a1b9c0d1e of superclaude and install it (git checkout 3f2a1b9c0d1e && make install)",
		"dev-3f2a1b9c0d1e-dirty": "(git checkout 3f2a1b9c0d1e && make install), with the same uncommitted changes",
	} {
		if got := installHint("box", v); !strings.Contains(got, want) {
			t.Errorf("installHint(%q) = %q, want it to say %q", v, got, want)
		}
	}
}

// A command run on the host for the asking side prints there what it
// prints here, its words unchanged, and its exit code comes back; one the
// host does not run is refused.
func TestClientRun(t *testing.T) {
	s, work := fakeSSH(t, "v1")
	c := &Client{SSH: s, Host: "box", Version: "v1"}
	for _, word := range hostile {
		var out, errOut strings.Builder
		code, err := c.Run(context.Background(), []string{"say", word}, &out, &errOut)
		if err != nil || code != 3 || out.String() != word || errOut.String() != "E" {
			t.Fatalf("run say %q: code %d, %v, out %q, err %q", word, code, err, out.String(), errOut.String())
		}
	}
	if entries, _ := os.ReadDir(work); len(entries) != 0 {
		t.Fatalf("something ran on the host: %v", entries)
	}
	if _, err := c.Run(context.Background(), []string{"rm", "-rf", "/"}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), `not ["rm" "-rf" "/"]`) {
		t.Fatalf("a command the host does not run: %v", err)
	}
}

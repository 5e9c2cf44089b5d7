package supervise

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAGeminiChatFileDeletedByAnotherGeminiIsKept: in a two-pane Gemini
// fleet, `+down` and `+up` resumed one pane as a new conversation (CI,
// 2026-12-02). The other pane's Gemini CLI, starting, had deleted that
// pane's chat file as one without a prompt, just as its first prompt was
// written; the CLI wrote on into a new file without the line that names
// the conversation, and `--resume <id>` no longer found it. The keeper
// holds a second name for the file and puts it back.
func TestAGeminiChatFileDeletedByAnotherGeminiIsKept(t *testing.T) {
	head := `{"sessionId":"` + geminiID + `","projectHash":"h","kind":"main"}`
	user := `{"id":"1","type":"user","content":[{"text":"hello"}]}`
	model := `{"id":"2","type":"gemini","content":"hi"}`
	lines := func(ls ...string) string { return strings.Join(ls, "\n") + "\n" }
	for _, tc := range []struct {
		name string
		// then does to the chat file path what another process or the CLI does.
		then func(t *testing.T, path string)
		want string // the chat file's text after the look
		did  bool   // the keeper says it did something
	}{
		{"untouched", func(*testing.T, string) {}, lines(head, user), false},
		{"deleted", func(t *testing.T, path string) { os.Remove(path) }, lines(head, user), true},
		{"deleted and written on anew without its id", func(t *testing.T, path string) {
			os.Remove(path)
			appendTo(t, path, model+"\n")
		}, lines(head, user, model), true},
		{"replaced by the CLI's own rewrite", func(t *testing.T, path string) {
			os.WriteFile(path+".tmp", []byte(lines(head, user, model)), 0o600)
			os.Rename(path+".tmp", path)
		}, lines(head, user, model), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			path := chatFile(t, home, "proj", "2026-12-02T03-28", geminiID, user)
			k := newChatKeeper()
			a := Running{Transcript: path}
			a.Process.PID = 4242
			if _, err := k.Look(a); err != nil {
				t.Fatal(err)
			}
			tc.then(t, path)
			did, err := k.Look(a)
			if err != nil {
				t.Fatal(err)
			}
			if (did != "") != tc.did {
				t.Errorf("the keeper said %q", did)
			}
			if got, _ := os.ReadFile(path); string(got) != tc.want {
				t.Fatalf("the chat file holds\n%s\nwant\n%s", got, tc.want)
			}
			// The CLI appends on: it reaches the file that is kept.
			appendTo(t, path, `{"id":"3","type":"user","content":"more"}`+"\n")
			os.Remove(path)
			if _, err := k.Look(a); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(path); !strings.HasSuffix(string(got), `"more"}`+"\n") || !strings.HasPrefix(string(got), head) {
				t.Fatalf("after an append and another deletion the chat file holds\n%s", got)
			}
			k.Release()
			if names := keepNames(t, path); len(names) != 0 {
				t.Errorf("released, the chats directory still holds %q", names)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("released, the chat file is gone: %v", err)
			}
		})
	}
}

// A name planted where the keeper makes its second one is replaced, not
// followed; a conversation's new file moves the second name along.
func TestTheChatKeeperFollowsNothingPlanted(t *testing.T) {
	home := t.TempDir()
	path := chatFile(t, home, "proj", "2026-12-02T03-28", geminiID)
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("precious\n"), 0o600)
	os.Symlink(victim, keepName(path, 7))
	k := newChatKeeper()
	a := Running{Transcript: path}
	a.Process.PID = 7
	if _, err := k.Look(a); err != nil {
		t.Fatal(err)
	}
	kept, err := os.Lstat(keepName(path, 7))
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(path); !os.SameFile(kept, fi) {
		t.Fatal("the second name is not the chat file")
	}
	if got, _ := os.ReadFile(victim); string(got) != "precious\n" {
		t.Fatalf("the planted link's target was changed: %q", got)
	}
	next := chatFile(t, home, "proj", "2026-12-02T03-40", geminiID)
	a.Transcript = next
	if _, err := k.Look(a); err != nil {
		t.Fatal(err)
	}
	if names := keepNames(t, path); len(names) != 1 || names[0] != filepath.Base(keepName(next, 7)) {
		t.Fatalf("after the move the second names are %q", names)
	}
	k.Release()
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString(text)
}

func keepNames(t *testing.T, path string) []string {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".superclaude-keep-*"))
	for i, n := range names {
		names[i] = filepath.Base(n)
	}
	return names
}

// A chat file that cannot be given a second name (here: none there)
// is said once, not at every look.
func TestAChatFileThatCannotBeKeptIsSaidOnce(t *testing.T) {
	k := newChatKeeper()
	a := Running{Transcript: filepath.Join(t.TempDir(), "session-x-11111111.jsonl")}
	if _, err := k.Look(a); err == nil {
		t.Fatal("no error for a file that cannot be linked")
	}
	if did, err := k.Look(a); err != nil || did != "" {
		t.Fatalf("the next look said %q, %v; want nothing", did, err)
	}
	k.Release()
}

package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/state"
)

// claude's own auto-continue is seen in any settings layer; a limit the
// stop-failure hook records says who goes on after it.
func TestAutoContinueSettingAndTheLimitsRecord(t *testing.T) {
	dir := t.TempDir()
	cwd, cfg := filepath.Join(dir, "proj"), filepath.Join(dir, "cfg")
	os.MkdirAll(filepath.Join(cwd, ".claude"), 0o700)
	os.MkdirAll(cfg, 0o700)
	if on, _ := AutoContinueOn(cwd, cfg); on {
		t.Fatal("on with no settings")
	}
	os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(`{"autoContinueAtUsageLimit": false}`), 0o600)
	local := filepath.Join(cwd, ".claude", "settings.local.json")
	os.WriteFile(local, []byte(`{"autoContinueAtUsageLimit": true}`), 0o600)
	if on, where := AutoContinueOn(cwd, cfg); !on || where != local {
		t.Fatalf("on=%v in %q", on, where)
	}
	extra := filepath.Join(dir, "launch-settings.json")
	os.WriteFile(extra, []byte(`{"autoContinueAtUsageLimit": true}`), 0o600)
	os.Remove(local)
	if on, where := AutoContinueOn(cwd, cfg, extra); !on || where != extra {
		t.Fatalf("a --settings file: on=%v in %q", on, where)
	}

	s, _ := tickStore(t)
	var in HookInput
	json.Unmarshal(sample(t, "hook-StopFailure-usage-limit.json"), &in)
	in.TranscriptPath = ""
	if _, err := Hook("stop-failure", in, loadSession(t, s), Policy{LimitContinue: func() string { return state.LimitByClaude }}); err != nil {
		t.Fatal(err)
	}
	if st := loadSession(t, s).State; st.Limit == "" || st.LimitContinue != state.LimitByClaude {
		t.Fatalf("limit %q continued by %q", st.Limit, st.LimitContinue)
	}
}

// Attack: a cloned repository ships .claude/settings.local.json as a
// FIFO. Every hook reads the settings layers to learn whether claude's
// own auto-continue is on; read plainly, the FIFO blocked each hook until
// a writer came — for ever. It is passed over at once, as claude's other
// settings files are (safefs).
func TestAutoContinueOnAFIFOPlantedInTheProjectIsNotWaitedOn(t *testing.T) {
	dir := t.TempDir()
	cwd, cfg := filepath.Join(dir, "proj"), filepath.Join(dir, "cfg")
	os.MkdirAll(filepath.Join(cwd, ".claude"), 0o700)
	os.MkdirAll(cfg, 0o700)
	if err := syscall.Mkfifo(filepath.Join(cwd, ".claude", "settings.local.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(`{"autoContinueAtUsageLimit": true}`), 0o600)
	done := make(chan bool, 1)
	go func() {
		on, _ := AutoContinueOn(cwd, cfg)
		done <- on
	}()
	select {
	case on := <-done:
		if !on {
			t.Fatal("the user's own setting behind the FIFO was not read")
		}
	case <-time.After(3 * time.Second):
		t.Fatal("AutoContinueOn still waits on a FIFO planted in the project after 3 s")
	}
}

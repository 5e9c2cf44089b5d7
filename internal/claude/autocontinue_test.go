package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// claude's own auto-continue is seen in any settings layer; a limit the
// stop-failure hook records says who goes on after it.
func TestAutoContinueSettingAndTheLimitsRecord(t *testing.T) {
	dir := t.TempDir()
	cwd, cfg := filepath.Join(dir, "proj"), filepath.Join(dir, "cfg")
	os.MkdirAll(filepath.Join(cwd, ".claude"), 0o700)
	os.MkdirAll(cfg, 0o700)
	files := SettingsFiles(cwd, cfg)
	if on, _ := AutoContinueOn(files...); on {
		t.Fatal("on with no settings")
	}
	os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(`{"autoContinueAtUsageLimit": false}`), 0o600)
	os.WriteFile(filepath.Join(cwd, ".claude", "settings.local.json"), []byte(`{"autoContinueAtUsageLimit": true}`), 0o600)
	if on, where := AutoContinueOn(files...); !on || where != files[0] {
		t.Fatalf("on=%v in %q", on, where)
	}

	s, _ := tickStore(t)
	var in HookInput
	json.Unmarshal(sample(t, "hook-StopFailure-usage-limit.json"), &in)
	in.TranscriptPath = ""
	if _, err := Hook("stop-failure", in, loadSession(t, s), Policy{LimitContinue: LimitByClaude}); err != nil {
		t.Fatal(err)
	}
	if st := loadSession(t, s).State; st.Limit == "" || st.LimitContinue != LimitByClaude {
		t.Fatalf("limit %q continued by %q", st.Limit, st.LimitContinue)
	}
}

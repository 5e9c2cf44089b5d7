package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// Lab: what $CLAUDE_CONFIG_DIR/sessions/<pid>.json says, and the hooks
// that go with it, read every 20 ms while claude 2.1.330 works.
//
//   - idle at a prompt; busy from the prompt's submission (UserPromptSubmit
//     runs first) while a reply streams and while a tool runs; idle again
//     once Stop has run;
//   - waiting, with "waitingFor": "permission prompt", from the moment a
//     permission dialog shows (PermissionRequest runs first); the
//     Notification hook follows some seconds later with notification_type
//     "permission_prompt"; busy again once it is answered;
//   - text typed while it is busy is queued ("Queued" on screen), its
//     UserPromptSubmit runs at once, and it is sent as the next turn when
//     the current one ends, without an idle in between;
//   - after messageIdleNotifThresholdMs (global config; 60 s by default)
//     at an idle prompt, Notification "idle_prompt" once; Stop does not run
//     again.
func TestLabSessionStatusBusyIdleWaiting(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	const idleAfter = 3 * time.Second
	setGlobalConfig(t, w, "messageIdleNotifThresholdMs", idleAfter.Milliseconds())
	l := newLab(t, w)
	l.start()
	l.save("sessions-pid-idle.json", l.sessions.last().Raw)

	// A reply held mid-stream, and a prompt typed meanwhile.
	hold := make(chan struct{})
	w.api.Push(fakeapi.Reply{Content: fakeapi.Text("the held reply").Content, Hold: hold})
	mark := w.api.Mark()
	l.tm.typeLine(l.pane, "stream a held reply")
	ups := l.waitPayload("hook-UserPromptSubmit", 0, nil)
	busy := l.sessions.wait("busy for the prompt", func(s sessionSample) bool { return s.Status == "busy" })
	l.save("sessions-pid-busy.json", busy.Raw)
	if _, ok := w.api.WaitAfter(mark, wait, fakeapi.IsTurn); !ok {
		t.Fatal("the prompt was not sent")
	}
	l.tm.typeLine(l.pane, "typed while busy")
	l.tm.waitScreen(l.pane, "Queued")
	queued := l.waitPayload("hook-UserPromptSubmit", 1, nil)
	if queued.Str("prompt") != "typed while busy" {
		t.Errorf("the queued prompt's UserPromptSubmit:\n%s", queued.Raw)
	}
	if n := len(turnsAfter(w, mark)); n != 1 || l.sessions.last().Status != "busy" {
		t.Errorf("while the reply is held: %d turns sent, status %q (%s)", n, l.sessions.last().Status, l.sessions)
	}
	released := time.Now()
	close(hold)
	next, ok := w.api.WaitAfter(mark+1, wait, func(r *fakeapi.Request) bool {
		return r.Kind == fakeapi.KindTurn && strings.Contains(r.LastUserText(), "typed while busy")
	})
	if !ok {
		t.Fatal("the queued prompt was never sent")
	}
	stop2 := l.waitPayload("hook-Stop", 1, nil)
	if stop2.Str("last_assistant_message") != "ok" {
		t.Errorf("the second Stop is not the queued turn's:\n%s", stop2.Raw)
	}
	idle := l.sessions.wait("idle after the queued turn", func(s sessionSample) bool { return s.Status == "idle" && s.At.After(stop2.At) })
	// Between the held turn and the queued one claude may say idle for a
	// moment (~20 ms): a reader must not take one idle reading for the end
	// of the work.
	between := l.sessions.since(busy.At)
	for i, s := range between {
		if !s.At.Before(idle.At) {
			break
		}
		if s.Status == "waiting" {
			t.Errorf("waiting while a reply streamed (%s)", l.sessions)
		}
		if s.Status == "idle" && i+1 < len(between) {
			flash := between[i+1].At.Sub(s.At)
			t.Logf("an idle of %v between the turns", flash)
			if flash > 2*time.Second {
				t.Errorf("idle for %v between a turn and the queued one (%s)", flash, l.sessions)
			}
		}
	}
	t.Logf("busy %v after UserPromptSubmit; the queued turn sent %v after the release; idle %v after its Stop; samples: %s",
		busy.At.Sub(ups.At), next.Time.Sub(released), idle.At.Sub(stop2.At), l.sessions)

	// A tool that runs for 2 s.
	w.api.Push(fakeapi.Bash("python3 -c 'import time; time.sleep(2)'", "sleep"))
	l.tm.typeLine(l.pane, "run a slow tool")
	pre := l.waitPayload("hook-PreToolUse", 0, nil)
	post := l.waitPayload("hook-PostToolUse", 0, nil)
	for _, s := range l.sessions.since(pre.At) {
		if s.At.Before(post.At) && s.Status != "busy" {
			t.Errorf("while the tool ran the status was %q (%s)", s.Status, l.sessions)
		}
	}
	if s := l.sessions.last(); s.Status != "busy" && s.At.Before(post.At) {
		t.Errorf("while the tool ran the status was %q", s.Status)
	}
	l.waitPayload("hook-Stop", 2, nil)

	// A permission dialog: Write is not in permissions.allow.
	target := filepath.Join(w.project, "lab-new.txt")
	w.api.Push(fakeapi.ToolUse("Write", map[string]any{"file_path": target, "content": "hello\n"}))
	l.tm.typeLine(l.pane, "write a file")
	perm := l.waitPayload("hook-PermissionRequest", 0, nil)
	waiting := l.sessions.wait("waiting for the dialog", func(s sessionSample) bool { return s.Status == "waiting" })
	l.save("hook-PermissionRequest.json", perm.Raw)
	l.save("sessions-pid-waiting.json", waiting.Raw)
	if waiting.WaitingFor != "permission prompt" || perm.Str("tool_name") != "Write" {
		t.Errorf("waiting for %q; PermissionRequest:\n%s", waiting.WaitingFor, perm.Raw)
	}
	l.tm.waitScreen(l.pane, "Do you want to create lab-new.txt?")
	note := l.waitPayload("hook-Notification", 0, nil)
	l.save("hook-Notification-permission.json", note.Raw)
	if note.Str("notification_type") != "permission_prompt" || note.Str("message") != "Claude needs your permission" {
		t.Errorf("Notification:\n%s", note.Raw)
	}
	t.Logf("waiting %v after PermissionRequest; Notification %v after it", waiting.At.Sub(perm.At), note.At.Sub(waiting.At))
	answered := time.Now()
	l.tm.must("send-keys", "-t", l.pane, "Enter") // 1. Yes
	l.sessions.wait("busy once answered", func(s sessionSample) bool { return s.Status == "busy" && s.At.After(answered) })
	stop := l.waitPayload("hook-Stop", 3, nil)
	if b, err := os.ReadFile(target); err != nil || string(b) != "hello\n" {
		t.Errorf("the permitted Write: %q %v", b, err)
	}

	// Idle: one idle_prompt Notification after the threshold, no Stop.
	idle = l.sessions.wait("idle after the turn", func(s sessionSample) bool { return s.Status == "idle" && s.At.After(answered) })
	idleNote := l.waitPayload("hook-Notification", 1, nil)
	l.save("hook-Notification-idle.json", idleNote.Raw)
	if idleNote.Str("notification_type") != "idle_prompt" || idleNote.Str("message") != "Claude is waiting for your input" {
		t.Errorf("idle Notification:\n%s", idleNote.Raw)
	}
	if gap := idleNote.At.Sub(stop.At); gap < idleAfter-time.Second {
		t.Errorf("idle_prompt came %v after Stop, before the %v threshold", gap, idleAfter)
	}
	time.Sleep(2 * idleAfter)
	if n, m := l.count("hook-Notification"), l.count("hook-Stop"); n != 2 || m != 4 {
		t.Errorf("after %v more idle: %d Notifications (want 2), %d Stops (want 4)", 2*idleAfter, n, m)
	}
	t.Logf("idle_prompt %v after Stop (threshold %v)", idleNote.At.Sub(stop.At), idleAfter)
}

// setGlobalConfig sets key in claude's global config ($CLAUDE_CONFIG_DIR/.claude.json).
func setGlobalConfig(t *testing.T, w *world, key string, value any) {
	path := filepath.Join(w.config, ".claude.json")
	b, err := os.ReadFile(path)
	var cfg map[string]any
	if err != nil || json.Unmarshal(b, &cfg) != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	cfg[key] = value
	w.writeJSON(path, cfg)
}

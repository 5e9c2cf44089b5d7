package apptest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/testkit/fakeagent"
	"github.com/superclaude/superclaude/watchdog"
)

// deadIdentity is the identity of a process that has exited: a supervisor
// that is gone.
func deadIdentity(t *testing.T) proc.Identity {
	t.Helper()
	cmd := exec.Command("sleep", "0.05")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	id, err := proc.Of(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	return id
}

// Attack 2 of issue 21: `+up` run from inside a supervised claude (its
// Bash tool) started the fleet's tmux server with that claude's
// environment, SUPERCLAUDE_SUPERVISOR included; when that claude exited,
// its supervisor's sweep — or the next supervisor's sweep of a dead one's
// leftovers — killed the fleet's server, every pane's supervisor and every
// agent, mid-turn. A fleet belongs to no agent: +up gives it none of an
// agent's marks, and a sweep for the supervisor it was run under leaves
// it alone.
func TestUpFromInsideASupervisedClaudeBelongsToNoAgent(t *testing.T) {
	w := newWorld(t)
	outer := deadIdentity(t)
	w.writeFleet(`socket = "scfleet"` + "\n" + window("main") + pane("A") + pane("B"))
	inside := []string{envvar.Supervisor + "=" + outer.String(), envvar.SupervisorPID + "=" + fmt.Sprint(outer.PID),
		envvar.Socket + "=/nonexistent/1.sock", "CLAUDECODE=1", "CLAUDE_CODE_ENTRYPOINT=cli",
		"SUPERCLAUDE_DEPTH=1", envvar.Fleet + "=/some/other/fleet.toml"}
	cmd := exec.Command(w.Bin, "+up", w.File)
	cmd.Dir, cmd.Env = w.Dir, append(append([]string{}, w.Env...), inside...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("+up from inside claude: %v\n%s", err, out)
	}
	w.waitBound(2)
	marked, _ := proc.FindByEnv(envvar.Supervisor, outer.String())
	if len(marked) != 0 {
		t.Fatalf("%d processes of the fleet carry the outer supervisor's mark: %+v", len(marked), marked)
	}
	for _, k := range []string{"CLAUDECODE", envvar.Fleet + "=/some/other"} {
		for _, r := range w.starts() {
			for ek, ev := range r.Env {
				if strings.HasPrefix(ek+"="+ev, k) {
					t.Errorf("a fleet agent inherited %s=%s", ek, ev)
				}
			}
		}
	}
	// The outer supervisor is dead: the next supervisor's sweep of its
	// leftovers must not end the fleet.
	agents := w.starts()
	watchdog.SweepPredecessors(context.Background(), 0, nil)
	for _, a := range agents {
		if !proc.Alive(proc.Identity{PID: a.PID, Start: a.Start}) {
			t.Errorf("the sweep for the supervisor +up ran under killed fleet agent %d", a.PID)
		}
	}
	w.SC("+down", w.File, "--now")
}

// Attack 2 of issue 21 as it happens: a supervised agent runs `+up` from
// its Bash tool, then exits. The fleet's tmux server, detaching from the
// `+up` that started it, became that supervisor's child (the supervisor is
// a subreaper), and the sweep after the agent's exit ended it — and with
// it every pane's supervisor and agent. The sweep spares the servers of
// the fleets `+up` recorded.
func TestUpFromASupervisedAgentOutlivesThatAgent(t *testing.T) {
	w := newWorld(t)
	// The fleet's server starts with the outer agent's environment: its
	// panes' agents must not run the outer agent's commands.
	header := strings.Replace(w.fleetHeader(), " }\n", ", "+fakeagent.EnvAtStart+" = \"\" }\n", 1)
	if err := os.WriteFile(w.File, []byte(header+`socket = "scfleet"`+"\n"+window("main")+pane("A")+pane("B")), 0o600); err != nil {
		t.Fatal(err)
	}
	outerLog := filepath.Join(w.Dir, "outer.jsonl")
	outer := exec.Command(w.Bin, "+run", "--profile", "generic", "--agent", os.Args[0])
	outer.Dir = w.Dir
	outer.Env = append(append([]string{}, w.Env...), "REEXEC_ROLE=fakeagent", fakeagent.EnvLog+"="+outerLog,
		fakeagent.EnvSuperclaude+"="+w.Bin, fakeagent.EnvAtStart+"=sc +up "+w.File+";exit 0")
	out, err := outer.CombinedOutput()
	if err != nil {
		t.Fatalf("the supervised agent that ran +up: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "fleet work is up") {
		t.Fatalf("+up from the agent did not bring the fleet up:\n%s", out)
	}
	if err := w.TmuxCmd("-L", "scfleet", "has-session", "-t", "=work").Run(); err != nil {
		log, _ := os.ReadFile(filepath.Join(w.Dir, "state", "superclaude.log"))
		t.Fatalf("the fleet's tmux session did not outlive the agent that ran +up: %v\nsuperclaude.log:\n%s", err, log)
	}
	w.waitBound(2)
	for _, id := range identitiesOf(t, w.starts()) {
		if !proc.Alive(id) {
			t.Errorf("pid %d of the fleet died with the agent that ran +up", id.PID)
		}
	}
	if t.Failed() {
		log, _ := os.ReadFile(filepath.Join(w.Dir, "state", "superclaude.log"))
		t.Logf("starts: %+v\nlog:\n%s", w.starts(), log)
	}
	w.SC("+down", w.File, "--now")
}

// Attack 5 of issue 21: a window of 7 or more panes could not come up —
// every split halved the same pane, and tiling came only after all splits,
// so tmux said "no space for new pane" — and +up failed.
func TestAWindowOfTwelvePanesComesUp(t *testing.T) {
	w := newWorld(t)
	body := window("main")
	for i := range 12 {
		body += pane(fmt.Sprintf("P%d", i))
	}
	w.writeFleet(body)
	if out, err := w.Run("+up", w.File); err != nil {
		t.Fatalf("+up of 12 panes: %v\n%s", err, out)
	}
	w.waitBound(12)
	w.SC("+down", w.File, "--now")
}

// Attack 5 of issue 21, the rollback: a +up that failed once its panes'
// supervisors had started reported "nothing of this +up is left" but kept
// the session directories those supervisors had made. A rollback leaves
// nothing behind: here git refuses pane B's worktree only once pane A's
// supervisor has written its session.
func TestUpRollbackLeavesNoSessionDirectories(t *testing.T) {
	w := newWorld(t)
	repo := gitRepo(t, w.Dir)
	sessions := filepath.Join(w.Dir, "sessions")
	hook := filepath.Join(repo, ".git", "hooks", "post-checkout")
	script := fmt.Sprintf(`#!/bin/sh
case "$PWD" in */B)
  i=0; while [ -z "$(ls %s/*/.state.json 2>/dev/null)" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done
  echo 'refusing B' >&2; exit 1;;
esac
`, sessions)
	if err := os.WriteFile(hook, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	w.writeFleet(fmt.Sprintf("dir = %q\n", repo) + window("main") + pane("A") + pane("B", "worktree = true"))
	out, err := w.Run("+up", w.File)
	if err == nil || !strings.Contains(out, "refusing B") {
		t.Fatalf("+up: %v\n%s", err, out)
	}
	if left, _ := filepath.Glob(filepath.Join(sessions, "*")); len(left) != 0 {
		t.Fatalf("the failed +up left session directories: %v", left)
	}
	w.waitFor("no process of the fleet left", func() bool {
		a, _ := proc.FindByEnv(fakeagent.EnvLog, w.Log)
		s, _ := proc.FindByEnv(envvar.Fleet, w.File)
		return len(a)+len(s) == 0
	})
}

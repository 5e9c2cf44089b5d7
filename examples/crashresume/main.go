// Command crashresume supervises an agent CLI with superclaude's library
// alone — no internal package, as any Go program outside the module would —
// and shows the one thing a supervisor is for: the agent crashes, and the
// supervisor starts it again on the same conversation.
//
//	crashresume                      a stand-in CLI of its own (a shell script)
//	crashresume -codex PATH [PROMPT] the real Codex CLI on this terminal
//
// It learns the agent's conversation through the profile, kills the agent
// once from outside (a crash), waits for the restart, checks that the new
// agent runs the same conversation, stops the run, and exits 0 when all of
// that held. With -sessions DIR the run is recorded in that sessions
// directory through the user's index, so `superclaude +status` lists it
// while it runs.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/supervise"
)

func main() {
	codex := flag.String("codex", "", "the codex executable to supervise (default: a stand-in CLI)")
	sessions := flag.String("sessions", "", "a sessions directory to record the run in, as superclaude does")
	flag.Parse()
	if err := run(*codex, *sessions, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "crashresume:", err)
		os.Exit(1)
	}
}

func run(codex, sessions string, args []string) error {
	cfg := supervise.Config{CrashDelay: 100 * time.Millisecond}
	if codex != "" {
		// The real CLI, on this terminal, with its built-in profile.
		cfg.Profile, cfg.Command, cfg.Args = supervise.Codex, codex, args
		cfg.Terminal = child.NewTerminal(os.Stdin, os.Stdout)
	} else {
		dir, err := os.MkdirTemp("", "crashresume-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		cfg.Profile, cfg.Command, cfg.Dir = standIn, "sh", dir
		cfg.Args = []string{"-c", standInScript, "sh"}
	}
	if sessions != "" {
		store, err := supervise.OpenSessions(sessions)
		if err != nil {
			return err
		}
		cfg.Store = store
	}
	s, err := supervise.Start(context.Background(), cfg)
	if err != nil {
		return err
	}
	report := check(s)
	s.Stop(true)
	res := s.Wait()
	if report != nil {
		return report
	}
	fmt.Printf("crashresume: the agent crashed and resumed conversation %s (exit %d after the stop)\n",
		s.Status().Conversation, res.ExitCode)
	return nil
}

// check waits for the conversation, crashes the agent, and checks that the
// restarted agent runs the same conversation.
func check(s *supervise.Supervisor) error {
	// The conversation, learned from the agent itself, once its turn (if
	// it was given a prompt) is over.
	first, err := await(s, "the agent's conversation", func(st supervise.Status) bool {
		return st.Learned && st.AgentPID != 0 && st.Agent != supervise.StatusBusy
	})
	if err != nil {
		return err
	}
	agent, err := proc.Of(first.AgentPID)
	if err != nil {
		return err
	}
	// A crash: SIGKILL, as an out-of-memory killer sends it.
	if err := proc.Signal(agent, syscall.SIGKILL); err != nil {
		return err
	}
	second, err := await(s, "the restarted agent's conversation", func(st supervise.Status) bool {
		return st.Starts == first.Starts+1 && st.AgentPID != 0 && st.Learned
	})
	if err != nil {
		return err
	}
	if second.Conversation != first.Conversation {
		return fmt.Errorf("the restarted agent runs conversation %s, not %s", second.Conversation, first.Conversation)
	}
	return nil
}

// await polls the supervisor's status until ok says yes, for a minute.
func await(s *supervise.Supervisor, what string, ok func(supervise.Status) bool) (supervise.Status, error) {
	deadline := time.Now().Add(time.Minute)
	for {
		st := s.Status()
		switch {
		case ok(st):
			return st, nil
		case st.Ended:
			return st, errors.New("the run ended while waiting for " + what)
		case time.Now().After(deadline):
			return st, errors.New("timed out waiting for " + what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// The stand-in CLI: a fresh start makes a conversation and writes its id
// to ./conversation; `--resume ID` carries that one on. Either way it then
// works until it is stopped.
const standInScript = `if [ "$1" = --resume ]; then conv=$2; else conv=conv-$$; fi
echo "$conv" > conversation
echo "stand-in agent on conversation $conv"
exec sleep 600`

// standIn is the stand-in CLI's profile: how it resumes, and where it says
// which conversation it has.
var standIn = supervise.Profile{
	Name: "stand-in",
	Resume: func(args []string, id string) []string {
		return append(args, "--resume", id)
	},
	Conversation: func(a supervise.Running) (id, transcript string, err error) {
		b, err := os.ReadFile(filepath.Join(a.Dir, "conversation"))
		if errors.Is(err, os.ErrNotExist) {
			return "", "", nil // none yet
		}
		return strings.TrimSpace(string(b)), "", err
	},
}

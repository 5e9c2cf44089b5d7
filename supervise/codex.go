package supervise

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/superclaude/superclaude/internal/safefs"
	"github.com/superclaude/superclaude/proc"
)

// Codex is OpenAI's Codex CLI (measured with 0.169; docs/agent-clis.md).
//
//   - Every interactive start runs with --no-daemon. Without it the TUI
//     starts or joins one background server per CODEX_HOME, started with
//     setsid and outliving the TUI, and runs the tools there: a server our
//     agent started would carry superclaude's variables into the tools of
//     a plain codex in another pane and be swept under it when we stop,
//     and a server a plain codex started would run our agent's tools
//     unmarked, out of the sweep's reach. Run in process, every tool is
//     our agent's descendant and carries its mark.
//   - The conversation is learned from the rollout file the running CLI
//     holds open ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<id>.jsonl),
//     which it writes from the first prompt on; other copies of codex
//     write beside it, so the file is told apart by who holds it open.
//   - Busy or idle is the last turn event of that file; Codex writes none
//     for a pending approval, so "needs input" shows as busy.
//   - `codex resume <id>` resumes; a failed resume exits 1 at once.
//   - `codex exec` and the other subcommands but resume and fork answer
//     once.
var Codex = codexProfile()

func codexProfile() Profile {
	return Profile{
		Name: "codex", Command: "codex",
		Scan:    scanCodex,
		ValidID: isUUID,
		Resume: func(args []string, id string) []string {
			return append([]string{codexNoDaemon, "resume", id}, withoutFlag(args, codexNoDaemon)...)
		},
		Fresh: func(args []string) []string {
			return append([]string{codexNoDaemon}, withoutFlag(args, codexNoDaemon)...)
		},
		Prompt:       func(args []string, prompt string) []string { return append(args, "--", prompt) },
		Conversation: codexConversation,
		Status:       func(a Running) (string, error) { return rolloutStatus(a.Transcript) },
		Watch:        func(a Running) WatchSet { return codexWatch(a, time.Now()) },
		ContextUsage: ContextNone,
		Output:       rewriteHint("codex resume", "superclaude +run --profile codex -- resume"),
	}
}

// codexNoDaemon runs the TUI without the shared background server.
const codexNoDaemon = "--no-daemon"

// codexSpec is Codex 0.169's command line: the options that take a value.
var codexSpec = cliSpec{valued: set(
	"-c", "--config", "--enable", "--disable", "--remote", "--remote-auth-token-env",
	"-i", "--image", "-m", "--model", "--local-provider", "-p", "--profile",
	"-s", "--sandbox", "-C", "--cd", "--add-dir", "-a", "--ask-for-approval",
)}

// codexInteractive are the subcommands that open a conversation in the
// TUI; every other subcommand answers once.
var codexInteractive = set("resume", "fork")

// codexSubcommands are Codex 0.169's subcommands (a first positional
// argument that is none of them is the first prompt).
var codexSubcommands = set("agents", "exec", "e", "review", "login", "logout", "mcp", "mcp-server", "plugin",
	"app-server", "remote-control", "completion", "update", "doctor", "sandbox", "debug", "apply", "a",
	"resume", "queue", "archive", "delete", "migrate-rollouts", "migrate-nfs-db", "unarchive", "fork",
	"cloud", "exec-server", "features", "help")

// scanCodex reads a codex command line. Restarts keep the options and
// drop the first prompt, its images, a `resume`/`fork` and what it names
// (the supervisor's resume replaces them), and --worktree, which would
// make a new worktree at every start.
func scanCodex(args []string) Invocation {
	words := codexSpec.split(args)
	var inv Invocation
	if has(words, "-h", "--help", "-V", "--version") {
		return Invocation{OneShot: true, PrintsOnly: true, Restart: args}
	}
	sub := ""
	for _, w := range words {
		if w.positional() && !w.afterDashes {
			if codexSubcommands[w.text] {
				sub = w.text
			}
			break
		}
	}
	switch {
	case sub != "" && !codexInteractive[sub]:
		return Invocation{OneShot: true, Restart: args}
	case sub != "":
		inv.ChoseConversation = true
	}
	inv.Restart = texts(words, func(w word) bool {
		return w.positional() || w.afterDashes || w.opt == "-i" || w.opt == "--image" ||
			w.opt == "--last" || w.opt == "--all" || w.opt == "--worktree"
	})
	return inv
}

// withoutFlag returns args without flag (before a "--").
func withoutFlag(args []string, flag string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if a != flag {
			out = append(out, a)
		}
	}
	return out
}

// codexHome is the directory Codex keeps its state in: $CODEX_HOME, else
// ~/.codex, as the agent's environment env says.
func codexHome(env []string) string {
	if h := getenv(env, "CODEX_HOME"); h != "" {
		return h
	}
	home := getenv(env, "HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".codex")
}

// getenv is key's value in env.
func getenv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}

// codexConversation finds the rollout file the running agent holds open
// under its CODEX_HOME's sessions directory: that file's name ends in the
// conversation's id. The conversation the supervisor already knows is kept
// while the agent still holds it (a sub-agent's rollout opened beside it
// is not the conversation); otherwise the newest. No file yet is no
// conversation yet (Codex writes it at the first prompt).
func codexConversation(a Running) (id, transcript string, err error) {
	roots := []string{filepath.Join(codexHome(a.Env), "sessions") + "/"}
	if real, err := filepath.EvalSymlinks(roots[0]); err == nil && real+"/" != roots[0] {
		roots = append(roots, real+"/")
	}
	tree, err := proc.Tree(a.Process.PID)
	if err != nil {
		return "", "", err
	}
	ids := []proc.Identity{a.Process}
	for _, p := range tree {
		ids = append(ids, p.Identity)
	}
	var found []string
	for _, p := range ids {
		files, err := proc.OpenFiles(p)
		if err != nil {
			continue // gone since, or not ours to read
		}
		for _, f := range files {
			if rolloutID(f, roots) != "" && !slices.Contains(found, f) && begun(f) {
				found = append(found, f)
			}
		}
	}
	if len(found) == 0 {
		return "", "", nil
	}
	for _, f := range found {
		if rolloutID(f, roots) == a.Conversation {
			return a.Conversation, f, nil
		}
	}
	slices.SortFunc(found, func(x, y string) int { return strings.Compare(filepath.Base(y), filepath.Base(x)) })
	return rolloutID(found[0], roots), found[0], nil
}

// codexWatch is what the supervisor watches for a Codex at now
// (Profile.Watch): the directory of the day under its sessions directory,
// where Codex makes the rollout of each new conversation, and the
// directory of the rollout it has, or goes on in when resumed. Codex names the day by its own clock;
// both the local day and UTC's are watched, and the set is asked for again
// at the next midnight of either.
func codexWatch(a Running, now time.Time) WatchSet {
	root := filepath.Join(codexHome(a.Env), "sessions")
	var set WatchSet
	add := func(dir string) {
		if !slices.Contains(set.Dirs, dir) {
			set.Dirs = append(set.Dirs, dir)
		}
	}
	for _, t := range []time.Time{now.Local(), now.UTC()} {
		add(filepath.Join(root, t.Format("2006"), t.Format("01"), t.Format("02")))
		if next := time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, t.Location()); set.Until.IsZero() || next.Before(set.Until) {
			set.Until = next
		}
	}
	switch {
	case a.Transcript != "":
		add(filepath.Dir(a.Transcript))
	case a.Conversation != "":
		// Resumed: Codex goes on in the conversation's rollout, made on
		// an earlier day, which the day's directory does not hold.
		if found, _ := filepath.Glob(filepath.Join(root, "*", "*", "*", "rollout-*-"+a.Conversation+".jsonl")); len(found) > 0 {
			add(filepath.Dir(found[0]))
		}
	}
	return set
}

// begun reports whether a rollout file holds its first line (the thread's
// session_meta): Codex opens the file as it creates the thread and writes
// that line as the first turn begins, and `codex resume` of a thread
// whose file is still empty finds no session (measured: a codex killed
// in that moment could not be resumed). Until then there is no
// conversation to resume.
func begun(path string) bool {
	f, err := safefs.OpenRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 256<<10)
	n, _ := io.ReadFull(f, buf)
	return bytes.IndexByte(buf[:n], '\n') >= 0 || n == len(buf)
}

// rolloutID is the conversation id of a rollout file path under one of
// roots ("" when path is not one): rollout-<time>-<id>.jsonl.
func rolloutID(path string, roots []string) string {
	under := false
	for _, r := range roots {
		under = under || strings.HasPrefix(path, r)
	}
	name := filepath.Base(path)
	if !under || !strings.HasPrefix(name, "rollout-") || !strings.HasSuffix(name, ".jsonl") {
		return ""
	}
	stem := strings.TrimSuffix(name, ".jsonl")
	if len(stem) < uuidLen || !isUUID(stem[len(stem)-uuidLen:]) {
		return ""
	}
	return stem[len(stem)-uuidLen:]
}

// Codex's turn events in a rollout file: a turn begins, completes or is
// interrupted.
var (
	turnStarted = []byte(`"type":"task_started"`)
	turnEnded   = [][]byte{[]byte(`"type":"task_complete"`), []byte(`"type":"turn_aborted"`)}
)

// maxRolloutWindow bounds what rolloutStatus reads of a rollout's end.
const maxRolloutWindow = 16 << 20

// rolloutStatus reads what the last turn event of a rollout file says:
// busy after a turn began, idle after it ended, idle when no turn began
// yet (no file yet either: the agent waits at its prompt). The file is
// read from its end, a growing window at a time, up to maxRolloutWindow:
// a turn's end is the last line it writes, so a file whose last 16 MiB
// hold no turn event is in a turn whose output is that long — busy — and
// a file of some GiB (or a planted one, sparse) is never read whole.
// Within the file, text of the conversation is a JSON string, whose
// quotes are escaped: only an event itself reads "type":"task_started".
// A FIFO or device planted under the file's name is refused, never
// waited on.
func rolloutStatus(path string) (string, error) {
	if path == "" {
		return StatusIdle, nil
	}
	f, err := safefs.OpenRegular(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	size := fi.Size()
	for window := int64(64 << 10); ; window *= 4 {
		from := max(0, size-window)
		buf := make([]byte, size-from)
		if _, err := f.ReadAt(buf, from); err != nil && err != io.EOF {
			return "", err
		}
		began := bytes.LastIndex(buf, turnStarted)
		ended := -1
		for _, e := range turnEnded {
			ended = max(ended, bytes.LastIndex(buf, e))
		}
		switch {
		case began > ended:
			return StatusBusy, nil
		case ended >= 0:
			return StatusIdle, nil
		case from == 0:
			return StatusIdle, nil
		case window >= maxRolloutWindow:
			return StatusBusy, nil
		}
	}
}

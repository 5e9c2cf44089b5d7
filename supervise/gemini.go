package supervise

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/superclaude/superclaude/internal/safefs"
)

// Gemini is Google's Gemini CLI (measured with 0.61; docs/agent-clis.md).
//
//   - A fresh start is given `--session-id <id>`, an id the supervisor
//     chooses, so that the conversation is known from the start; the CLI
//     writes it at once to ~/.gemini/tmp/<project>/chats/session-…-<first
//     8 of id>.jsonl, which is what the supervisor looks for before it
//     binds the id.
//   - `--resume <id>` resumes; an id it does not know exits 42 at once.
//   - Busy or idle is the last message of that file; the CLI writes
//     nothing for a pending approval, so "needs input" shows as busy.
//   - `-p`, `--version`, `--list-sessions` and the subcommands answer once.
var Gemini = geminiProfile()

func geminiProfile() Profile {
	return Profile{
		Name: "gemini", Command: "gemini",
		Scan:    scanGemini,
		ValidID: isUUID,
		Resume:  func(args []string, id string) []string { return append(args, "--resume", id) },
		Fresh: func(args []string) []string {
			if has(geminiSpec.split(args), geminiChoose...) {
				return args
			}
			return append(args, "--session-id", newUUID())
		},
		Prompt:         appendArgs("--prompt-interactive"),
		Conversation:   geminiConversation,
		Status:         func(a Running) (string, error) { return chatStatus(a.Transcript) },
		Watch:          geminiWatch,
		Keep:           newChatKeeper,
		ResumeFailCode: 42,
		ContextUsage:   ContextNone,
		Output:         rewriteHint("gemini --resume", "superclaude +run --profile gemini -- --resume"),
	}
}

// geminiSpec is Gemini CLI 0.61's command line: the options that take a
// value (an array option's further values are read as positionals, which
// only matters to a first prompt written after one).
var geminiSpec = cliSpec{valued: set(
	"-m", "--model", "-p", "--prompt", "-i", "--prompt-interactive", "-w", "--worktree",
	"--approval-mode", "--policy", "--admin-policy", "--allowed-mcp-server-names", "--allowed-tools",
	"-e", "--extensions", "-r", "--resume", "--session-file", "--session-id", "--delete-session",
	"--include-directories", "-o", "--output-format",
)}

// geminiChoose are the options that choose the conversation.
var geminiChoose = []string{"-r", "--resume", "--session-id", "--session-file"}

// geminiOneShot are the options of a run that answers once, and the
// subcommands.
var (
	geminiOneShot     = []string{"-p", "--prompt", "-l", "--list-extensions", "--list-sessions", "--delete-session", "--acp", "--experimental-acp"}
	geminiSubcommands = set("mcp", "extensions", "extension", "skills", "skill", "hooks", "hook", "gemma")
)

// scanGemini reads a gemini command line. Restarts keep the options and
// drop the first prompt (positional or -i) and the user's choice of
// conversation, which the supervisor's resume replaces.
func scanGemini(args []string) Invocation {
	words := geminiSpec.split(args)
	if has(words, "-h", "--help", "-v", "--version") {
		return Invocation{OneShot: true, PrintsOnly: true, Restart: args}
	}
	if has(words, geminiOneShot...) {
		return Invocation{OneShot: true, Restart: args}
	}
	for _, w := range words {
		if w.positional() && !w.afterDashes {
			if geminiSubcommands[w.text] {
				return Invocation{OneShot: true, Restart: args}
			}
			break
		}
	}
	drop := append([]string{"-i", "--prompt-interactive"}, geminiChoose...)
	return Invocation{
		ChoseConversation: has(words, geminiChoose...),
		Restart: texts(words, func(w word) bool {
			return w.positional() || w.afterDashes || slices.Contains(drop, w.opt)
		}),
	}
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// geminiHome is where Gemini CLI keeps its state: $GEMINI_CLI_HOME/.gemini,
// else ~/.gemini, as the agent's environment env says.
func geminiHome(env []string) string {
	home := getenv(env, "GEMINI_CLI_HOME")
	if home == "" {
		home = getenv(env, "HOME")
	}
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".gemini")
}

// geminiConversation is the conversation the agent was started on —
// `--session-id <id>` or `--resume <id>` — once the CLI has written its
// file: the chat file whose first line names that id; of several, the
// largest, then the newest. A resumed CLI goes on in the file that holds
// the conversation, and also writes a new one of the same id that holds
// nothing: the newest would flip between the two as each is written.
// Started with
// `--resume latest`, a number or a session file, the id is not on the
// command line, and is not learned.
func geminiConversation(a Running) (id, transcript string, err error) {
	id, err = geminiStartedOn(a.Args)
	if id == "" || err != nil {
		return "", "", err
	}
	files, err := filepath.Glob(filepath.Join(geminiHome(a.Env), "tmp", "*", "chats", "session-*-"+id[:8]+".jsonl"))
	if err != nil {
		return "", "", err
	}
	var best string
	var size, at int64
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil || chatSessionID(f) != id {
			continue
		}
		if n, t := fi.Size(), fi.ModTime().UnixNano(); best == "" || n > size || n == size && t > at {
			best, size, at = f, n, t
		}
	}
	if best == "" {
		return "", "", nil // not written yet
	}
	return id, best, nil
}

// geminiStartedOn is the id of the conversation a Gemini CLI was started
// on with args — `--session-id <id>` or `--resume <id>` — or why it cannot
// be known from them; "" and no error when none was named.
func geminiStartedOn(args []string) (string, error) {
	words := geminiSpec.split(args)
	id, _ := optionValue(words, "--session-id")
	if r, ok := optionValue(words, "-r", "--resume"); ok {
		id = r
	}
	if id != "" && isUUID(id) {
		return id, nil
	}
	if given, ok := optionValue(words, "--session-id"); ok && !isUUID(given) {
		return "", fmt.Errorf("gemini was started with --session-id %q, which is not a conversation id (a UUID)", given)
	}
	if how, ok := optionValue(words, "-r", "--resume"); ok {
		return "", fmt.Errorf("gemini was started with --resume %s: the conversation's id is not on its command line", how)
	}
	if _, ok := optionValue(words, "--session-file"); ok {
		return "", fmt.Errorf("gemini was started on a --session-file: the conversation's id is not on its command line")
	}
	return "", nil
}

// geminiWatch is what the supervisor watches for a Gemini CLI
// (Profile.Watch). Once its chat file is known, that file's directory: the
// CLI writes its messages there (and, resumed, a new file of the same id
// beside it). Before, if the conversation can be learned at all, every
// project's chats directory under ~/.gemini/tmp, and that directory
// itself (a project's first chat makes its directory): the CLI writes the
// file as it starts, in the directory of a project whose name the
// supervisor does not know.
func geminiWatch(a Running) WatchSet {
	if a.Transcript != "" {
		return WatchSet{Dirs: []string{filepath.Dir(a.Transcript)}}
	}
	if id, err := geminiStartedOn(a.Args); id == "" || err != nil {
		return WatchSet{}
	}
	tmp := filepath.Join(geminiHome(a.Env), "tmp")
	set := WatchSet{Dirs: []string{tmp}}
	projects, _ := os.ReadDir(tmp)
	for _, p := range projects {
		if p.IsDir() {
			set.Dirs = append(set.Dirs, filepath.Join(tmp, p.Name(), "chats"))
		}
	}
	return set
}

// chatSessionID reads the sessionId of a Gemini CLI chat file's first line.
func chatSessionID(path string) string {
	f, err := safefs.OpenRegular(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, _ := bufio.NewReaderSize(io.LimitReader(f, 1<<20), 4096).ReadBytes('\n')
	var head struct {
		SessionID string `json:"sessionId"`
	}
	json.Unmarshal(bytes.TrimSpace(line), &head)
	return head.SessionID
}

// chatStatus reads what the last message of a Gemini CLI chat file says:
// a user's message (a prompt, or a tool's output going back) or a model's
// message that calls tools is a turn under way; a model's message without
// tool calls ends it. No file yet, or no message yet, is idle.
func chatStatus(path string) (string, error) {
	if path == "" {
		return StatusIdle, nil
	}
	b, err := readTail(path, 256<<10)
	if err != nil {
		return "", err
	}
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		var m struct {
			Type      string            `json:"type"`
			ToolCalls []json.RawMessage `json:"toolCalls"`
		}
		if json.Unmarshal(lines[i], &m) != nil || m.Type == "" {
			continue // a $set record, or a line cut by the window
		}
		if m.Type == "user" || m.Type == "gemini" && len(m.ToolCalls) > 0 {
			return StatusBusy, nil
		}
		return StatusIdle, nil // the model's answer, or the CLI's info or error
	}
	return StatusIdle, nil
}

// readTail reads at most n bytes at the end of path, a regular file (a
// FIFO planted under its name is refused, not waited on).
func readTail(path string, n int64) ([]byte, error) {
	f, err := safefs.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	from := max(0, fi.Size()-n)
	buf := make([]byte, fi.Size()-from)
	if _, err := f.ReadAt(buf, from); err != nil && err != io.EOF {
		return nil, err
	}
	if from > 0 {
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf = buf[i+1:]
		}
	}
	return buf, nil
}

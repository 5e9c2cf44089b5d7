// Package doctor owns `superclaude +doctor`: it looks at an install the
// way a person's shell will find it, and says, in words, what is right and
// what to fix. The first hour of a new user went wrong in ways none of
// superclaude's own commands would reveal: `command not found` after
// `make install` (its directory not on PATH), a `superclaude` of another
// project shadowing this one, a `claude` link behind the real claude on
// PATH (so plain `claude` ran unsupervised), a completion file where the
// shell never looks.
//
// Each check is a function of an [Env] — the environment variables, the
// files and the programs it finds — and returns [Finding]s; nothing is
// changed but a probe file written and removed in superclaude's own
// directories. The programs it runs (`claude --version`, `tmux -V`,
// another superclaude's `+version`) each get a few seconds.
package doctor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/superclaude/superclaude/internal/lookpath"
	"github.com/superclaude/superclaude/internal/tmux"
)

// Level says how a finding stands.
type Level int

// The levels, mildest first.
const (
	// OK: as it should be.
	OK Level = iota
	// Note: worth knowing; nothing is wrong.
	Note
	// Warn: works, but something a person would want otherwise.
	Warn
	// Fix: broken for the person; +doctor exits 1.
	Fix
)

func (l Level) String() string { return [...]string{"ok", "note", "warn", "FIX"}[l] }

// Finding is one thing +doctor says.
type Finding struct {
	Level Level
	// What is found, in words.
	What string
	// Todo is what to do about it, a command to paste where there is
	// one; "" when nothing is to be done.
	Todo string
}

// Env is what the checks look at.
type Env struct {
	// Self is this superclaude's executable, links resolved.
	Self string
	// Version is what this superclaude's +version says.
	Version string
	// PATH, HOME and SHELL are the person's.
	PATH, HOME, SHELL string
	// XDGDataHome and XDGConfigHome are $XDG_DATA_HOME and
	// $XDG_CONFIG_HOME ("" when unset).
	XDGDataHome, XDGConfigHome string
	// Agent is the agent's command: $SUPERCLAUDE_AGENT, else claude.
	Agent string
	// StateDir is superclaude's state directory (config.StateDir).
	StateDir string
	// RuntimeDir makes and returns this process's runtime directory
	// (control.RuntimeDir).
	RuntimeDir func() (string, error)
	// Completion returns the completion script this superclaude writes
	// for a shell (bash, zsh, fish).
	Completion func(shell string) ([]byte, error)
	// Roots lists the places a shell's completion is looked for, for the
	// tests; nil for the usual ones (completionDirs).
	Roots map[string][]string
	// NotifyConfig is the person's config file (notify.ConfigPath); ""
	// skips the notification checks.
	NotifyConfig string
	// Desktop says whether a desktop notification can be shown from here
	// (notify.CheckDesktop); nil skips that check.
	Desktop func(ctx context.Context) (string, error)
}

// Check runs every check.
func Check(ctx context.Context, e Env) []Finding {
	var out []Finding
	for _, check := range []func(context.Context, Env) []Finding{checkSelf, checkAgent, checkCompletion, checkTmux, checkDirs, checkNotify} {
		out = append(out, check(ctx, e)...)
	}
	return out
}

// Write prints the findings, each with what to do, and a last line that
// counts them; it returns how many are Fix.
func Write(w io.Writer, fs []Finding) int {
	counts := map[Level]int{}
	for _, f := range fs {
		counts[f.Level]++
		fmt.Fprintf(w, "%-5s %s\n", f.Level, f.What)
		if f.Todo != "" {
			for _, line := range strings.Split(f.Todo, "\n") {
				fmt.Fprintf(w, "      %s\n", line)
			}
		}
	}
	switch {
	case counts[Fix] > 0:
		fmt.Fprintf(w, "\n%s to fix (FIX above), %d to consider (warn)\n", plural(counts[Fix], "thing"), counts[Warn])
	case counts[Warn] > 0:
		fmt.Fprintf(w, "\nnothing broken; %s to consider (warn above)\n", plural(counts[Warn], "thing"))
	default:
		fmt.Fprintln(w, "\nall is well")
	}
	return counts[Fix]
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// home writes path with the home directory as ~.
func (e Env) home(path string) string {
	if e.HOME != "" && (path == e.HOME || strings.HasPrefix(path, e.HOME+"/")) {
		return "~" + strings.TrimPrefix(path, e.HOME)
	}
	return path
}

// pathLine is the line that puts dir first on PATH, for a shell's
// startup file, with the home directory as $HOME.
func (e Env) pathLine(dir string) string {
	if e.HOME != "" && strings.HasPrefix(dir, e.HOME+"/") {
		dir = "$HOME" + strings.TrimPrefix(dir, e.HOME)
	}
	return fmt.Sprintf(`export PATH="%s:$PATH"`, dir)
}

// rcFile is the startup file of the person's shell.
func (e Env) rcFile() string {
	switch filepath.Base(e.SHELL) {
	case "zsh":
		return "~/.zshrc"
	case "fish":
		return "~/.config/fish/config.fish"
	}
	return "~/.bashrc"
}

// run runs a program for at most a few seconds and returns its output's
// first line.
func run(ctx context.Context, timeout time.Duration, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdin = nil
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	line, _, _ := strings.Cut(strings.TrimSpace(out.String()), "\n")
	return line, err
}

// isSuperclaude reports whether file is a superclaude (this project's):
// its +version says "superclaude …". It returns the version line.
func isSuperclaude(ctx context.Context, file string) (bool, string) {
	line, err := run(ctx, 5*time.Second, file, "+version")
	return err == nil && strings.HasPrefix(line, "superclaude "), line
}

// checkSelf: the superclaude a shell finds is this one.
func checkSelf(ctx context.Context, e Env) []Finding {
	dir := filepath.Dir(e.Self)
	found, err := lookpath.Find("superclaude", e.PATH, "")
	switch {
	case errors.Is(err, lookpath.ErrNotFound):
		return []Finding{{Fix, fmt.Sprintf("superclaude is not on your PATH: a shell says `command not found` (this one is %s)", e.home(e.Self)),
			fmt.Sprintf("add its directory to PATH, in %s, then open a new shell:\n  %s", e.rcFile(), e.pathLine(dir))}}
	case err != nil && !errors.Is(err, lookpath.ErrDot):
		return []Finding{{Warn, "looking for superclaude on PATH: " + err.Error(), ""}}
	case lookpath.SameFile(found, e.Self):
		return []Finding{{OK, fmt.Sprintf("%s at %s, the superclaude your PATH finds first", e.Version, e.home(e.Self)), ""}}
	}
	if ours, line := isSuperclaude(ctx, found); ours {
		return []Finding{{Warn, fmt.Sprintf("another superclaude comes first on your PATH: %s (%s), an older install? This one is %s (%s)",
			e.home(found), line, e.home(e.Self), e.Version),
			fmt.Sprintf("remove %s, or put this one's directory first, in %s:\n  %s", e.home(found), e.rcFile(), e.pathLine(dir))}}
	}
	return []Finding{{Fix, fmt.Sprintf("`superclaude` on your PATH is %s, another program of that name (the SuperClaude framework installs one), not this superclaude (%s)",
		e.home(found), e.home(e.Self)),
		fmt.Sprintf("put this one's directory ahead of %s on PATH, in %s:\n  %s\nor remove the other one (pipx uninstall superclaude, npm uninstall -g @bifrost_inc/superclaude)",
			e.home(filepath.Dir(found)), e.rcFile(), e.pathLine(dir))}}
}

// checkAgent: the claude superclaude runs, and whether a plain `claude`
// is supervised.
func checkAgent(ctx context.Context, e Env) []Finding {
	agent := e.Agent
	if agent == "" {
		agent = "claude"
	}
	var out []Finding
	real, err := lookpath.Find(agent, e.PATH, "", e.Self)
	switch {
	case errors.Is(err, lookpath.ErrNotFound), errors.Is(err, lookpath.ErrSkipped):
		todo := "install Claude Code (https://docs.anthropic.com/en/docs/claude-code), or name the agent's path in SUPERCLAUDE_AGENT"
		if agent != "claude" {
			todo = "install it, or set SUPERCLAUDE_AGENT to its path"
		}
		return []Finding{{Fix, fmt.Sprintf("no %s on your PATH besides superclaude: superclaude has nothing to run", agent), todo}}
	case err != nil && !errors.Is(err, lookpath.ErrDot):
		return []Finding{{Fix, fmt.Sprintf("%s cannot be run: %v", agent, err), "set SUPERCLAUDE_AGENT to the agent's path"}}
	}
	if ours, _ := isSuperclaude(ctx, real); ours {
		// A copy of superclaude installed as claude, other than this
		// one: it steps aside at run time (internal/handover), but it is
		// worth knowing.
		out = append(out, Finding{Note, fmt.Sprintf("%s is another copy of superclaude installed as %s; superclaude passes over it to the next %s on PATH", e.home(real), agent, agent), ""})
		if next, err := lookpath.Find(agent, e.PATH, "", e.Self, real); err == nil {
			real = next
		}
	}
	if line, err := run(ctx, 10*time.Second, real, "--version"); err != nil {
		out = append(out, Finding{Fix, fmt.Sprintf("%s (what superclaude runs as %s) does not answer --version: %v", e.home(real), agent, err),
			"reinstall it, or set SUPERCLAUDE_AGENT to a working one"})
	} else {
		out = append(out, Finding{OK, fmt.Sprintf("%s at %s: what superclaude runs as %s", line, e.home(real), agent), ""})
	}
	if agent != "claude" {
		return out
	}
	// What a plain `claude` in a shell or a script runs.
	first, err := lookpath.Find("claude", e.PATH, "")
	switch {
	case err != nil:
	case lookpath.SameFile(first, e.Self):
		out = append(out, Finding{OK, fmt.Sprintf("`claude` on your PATH is superclaude (%s): every claude you or a script starts is supervised", e.home(first)), ""})
	default:
		if ours, _ := isSuperclaude(ctx, first); ours {
			out = append(out, Finding{OK, fmt.Sprintf("`claude` on your PATH is a superclaude (%s): every claude is supervised", e.home(first)), ""})
			break
		}
		link := filepath.Join(e.HOME, ".superclaude-bin")
		if fi, err := os.Lstat(filepath.Join(link, "claude")); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			out = append(out, Finding{Warn, fmt.Sprintf("the link %s comes after the real claude (%s) on your PATH: a plain `claude` runs unsupervised",
				e.home(filepath.Join(link, "claude")), e.home(first)),
				fmt.Sprintf("put its directory first, in %s:\n  %s", e.rcFile(), e.pathLine(link))})
			break
		}
		out = append(out, Finding{Note, fmt.Sprintf("a plain `claude` runs %s, unsupervised: type superclaude instead, or make claude superclaude (alias claude=superclaude, or the link of the README's Install)",
			e.home(first)), ""})
	}
	return out
}

// completionDirs are where each shell's completion for superclaude is
// looked for: the README's place first, then the system's and Homebrew's.
func (e Env) completionDirs(shell string) []string {
	if e.Roots != nil {
		return e.Roots[shell]
	}
	data := e.XDGDataHome
	if data == "" {
		data = filepath.Join(e.HOME, ".local", "share")
	}
	config := e.XDGConfigHome
	if config == "" {
		config = filepath.Join(e.HOME, ".config")
	}
	switch shell {
	case "bash":
		return []string{filepath.Join(data, "bash-completion", "completions"), "/usr/local/share/bash-completion/completions",
			"/opt/homebrew/share/bash-completion/completions", "/usr/share/bash-completion/completions"}
	case "zsh":
		return []string{filepath.Join(e.HOME, ".zfunc"), "/usr/local/share/zsh/site-functions", "/opt/homebrew/share/zsh/site-functions",
			"/usr/share/zsh/site-functions", "/usr/share/zsh/vendor-completions"}
	case "fish":
		return []string{filepath.Join(config, "fish", "completions"), "/usr/local/share/fish/vendor_completions.d",
			"/opt/homebrew/share/fish/vendor_completions.d", "/usr/share/fish/vendor_completions.d"}
	}
	return nil
}

// completionFile is the name of superclaude's completion for a shell.
var completionFile = map[string]string{"bash": "superclaude", "zsh": "_superclaude", "fish": "superclaude.fish"}

// bashCompletionPackage lists where the bash-completion package's loader
// lives, on Debian, Fedora and Homebrew.
var bashCompletionPackage = []string{"/usr/share/bash-completion/bash_completion", "/etc/bash_completion",
	"/usr/local/share/bash-completion/bash_completion", "/opt/homebrew/etc/profile.d/bash_completion.sh",
	"/usr/local/etc/profile.d/bash_completion.sh"}

// checkCompletion: the person's shell has superclaude's completion where
// it looks, and it is this superclaude's.
func checkCompletion(ctx context.Context, e Env) []Finding {
	shell := filepath.Base(e.SHELL)
	name, ok := completionFile[shell]
	if !ok {
		return []Finding{{Note, fmt.Sprintf("no completion for your shell (%s): superclaude +completion writes bash's, zsh's and fish's", orNone(e.SHELL)), ""}}
	}
	dirs := e.completionDirs(shell)
	var out []Finding
	if shell == "bash" && e.Roots == nil && !anyExists(bashCompletionPackage) {
		out = append(out, Finding{Warn, "bash completes commands only with the bash-completion package, which is not installed",
			"apt install bash-completion   (or dnf install bash-completion, brew install bash-completion@2)"})
	}
	for _, d := range dirs {
		file := filepath.Join(d, name)
		have, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		if e.Completion != nil {
			if want, err := e.Completion(shell); err == nil && !bytes.Equal(have, want) {
				return append(out, Finding{Warn, fmt.Sprintf("the %s completion at %s is not this superclaude's (another version's?)", shell, e.home(file)),
					fmt.Sprintf("superclaude +completion %s > %s", shell, e.home(file))})
			}
		}
		return append(out, Finding{OK, fmt.Sprintf("%s completion at %s", shell, e.home(file)), ""})
	}
	todo := map[string]string{
		"bash": "mkdir -p ~/.local/share/bash-completion/completions\nsuperclaude +completion bash > ~/.local/share/bash-completion/completions/superclaude",
		"zsh":  "mkdir -p ~/.zfunc\nsuperclaude +completion zsh > ~/.zfunc/_superclaude\nand in ~/.zshrc, before compinit: fpath=(~/.zfunc $fpath)",
		"fish": "mkdir -p ~/.config/fish/completions\nsuperclaude +completion fish > ~/.config/fish/completions/superclaude.fish",
	}[shell]
	return append(out, Finding{Warn, fmt.Sprintf("no %s completion for superclaude's commands where %s looks", shell, shell), todo})
}

func anyExists(files []string) bool {
	for _, f := range files {
		if _, err := os.Stat(f); err == nil {
			return true
		}
	}
	return false
}

func orNone(s string) string {
	if s == "" {
		return "none set"
	}
	return s
}

// checkTmux: tmux, for fleets and the dashboard's attach, and its version.
func checkTmux(ctx context.Context, e Env) []Finding {
	file, err := lookpath.Find("tmux", e.PATH, "")
	if err != nil {
		return []Finding{{Note, "tmux is not installed: superclaude runs claude without it, but fleets (+up) and the dashboard's attach need it",
			"apt install tmux   (or brew install tmux)"}}
	}
	line, err := run(ctx, 5*time.Second, file, "-V")
	v, ok := tmux.ParseVersion(line)
	switch {
	case err != nil || !ok:
		return []Finding{{Warn, fmt.Sprintf("%s does not say its version (%q)", e.home(file), line), ""}}
	case v < 302:
		return []Finding{{Warn, fmt.Sprintf("%s: fleets work, but a pane whose superclaude failed is not kept open to show why, and a nested client's detach keys are said only for a moment (tmux 3.2 or later does both)", line),
			"upgrade tmux"}}
	}
	return []Finding{{OK, line, ""}}
}

// checkDirs: superclaude's own directories are the person's, private and
// writable.
func checkDirs(ctx context.Context, e Env) []Finding {
	var out []Finding
	if e.StateDir != "" {
		out = append(out, checkDir("state directory (log, index, your own sessions)", e.StateDir, e))
	}
	if e.RuntimeDir != nil {
		d, err := e.RuntimeDir()
		if err != nil {
			out = append(out, Finding{Fix, "no runtime directory for the control sockets: " + err.Error(),
				"make $TMPDIR (or /tmp) a directory you can write to"})
		} else {
			out = append(out, checkDir("runtime directory (control sockets)", d, e))
		}
	}
	return out
}

// checkDir checks one directory: made when missing, the person's, not
// open to others, and writable (a probe file is written and removed).
func checkDir(what, dir string, e Env) Finding {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Finding{Fix, fmt.Sprintf("%s %s cannot be made: %v", what, e.home(dir), err), "make its parent directory writable, or set SUPERCLAUDE_STATE_DIR"}
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return Finding{Fix, fmt.Sprintf("%s %s: %v", what, e.home(dir), err), ""}
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return Finding{Fix, fmt.Sprintf("%s %s belongs to another user (uid %d)", what, e.home(dir), st.Uid), "use a directory of your own: set SUPERCLAUDE_STATE_DIR"}
	}
	probe, err := os.CreateTemp(dir, ".doctor-*")
	if err != nil {
		return Finding{Fix, fmt.Sprintf("%s %s is not writable: %v", what, e.home(dir), err), "chmod u+rwx " + e.home(dir)}
	}
	probe.Close()
	os.Remove(probe.Name())
	if fi.Mode().Perm()&0o077 != 0 {
		return Finding{Warn, fmt.Sprintf("%s %s is open to others (mode %#o)", what, e.home(dir), fi.Mode().Perm()), "chmod 700 " + e.home(dir)}
	}
	return Finding{OK, fmt.Sprintf("%s %s: yours, private, writable", what, e.home(dir)), ""}
}

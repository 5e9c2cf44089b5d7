package launch

import (
	"os"
	"strconv"
	"strings"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/supervise"
)

// callbackVariables are the variables superclaude's own callbacks — the
// status line, the hooks, `+session` and `+log` from the Bash tool — read
// to know their supervisor, its session and its guards, and the
// hand-over reads to know a superclaude started as the agent.
var callbackVariables = []string{
	envvar.Supervisor, envvar.SupervisorPID, envvar.WatchdogPID, envvar.Socket, envvar.PaneID,
	envvar.SessionsDir, envvar.StateDir, envvar.LimitContinue, envvar.OverflowThreshold,
	envvar.SessionRequired, envvar.AgentFile, envvar.Depth,
}

// pinnedEnv is what superclaude writes into the `env` of claude's
// settings (claude.Prepare): each of callbackVariables with the value the
// agent's environment has — the supervisor's own (supervise.OwnVariables),
// else this process's — and, where the person set none, the value in
// effect (the state directory, the 76 % threshold, the gate off), never
// an empty slot a repository's settings could fill. Claude Code gives its
// hooks, status line and tools the settings' env over its own
// environment, and a --settings file's over a repository's
// .claude/settings.json (docs/design.md, what we rely on): a repository's
// SUPERCLAUDE_OVERFLOW_THRESHOLD=1 or SESSION_REQUIRED=0 used to open the
// guard or the gate.
func pinnedEnv(cfg supervise.Config, self proc.Identity, socket string) map[string]string {
	agent := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		agent[k] = v
	}
	for k, v := range supervise.OwnVariables(cfg, self, socket) {
		agent[k] = v
	}
	pin := make(map[string]string, len(callbackVariables))
	for _, k := range callbackVariables {
		pin[k] = agent[k]
	}
	if dir, err := config.StateDir(); err == nil {
		pin[envvar.StateDir] = dir
	}
	if pin[envvar.OverflowThreshold] == "" {
		pin[envvar.OverflowThreshold] = strconv.FormatFloat(claude.DefaultThreshold, 'f', -1, 64)
	}
	if pin[envvar.SessionRequired] != "1" {
		pin[envvar.SessionRequired] = "0"
	}
	return pin
}

package claude

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/superclaude/superclaude/internal/safefs"
)

// helpCommand matches a subcommand line of `claude --help`'s Commands
// section: two spaces, the name and its aliases ("plugin|plugins").
// It is compiled on first use: every superclaude process links this
// package, and most never read a help text.
var helpCommand = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^  ([a-z][a-z0-9-]*(?:\|[a-z][a-z0-9-]*)*)(?:\s|$)`)
})

// ParseHelpCommands returns the subcommands, aliases included, that
// `claude --help` lists under "Commands:".
func ParseHelpCommands(help string) []string {
	var out []string
	in := false
	sc := bufio.NewScanner(strings.NewReader(help))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "Commands:":
			in = true
			continue
		case !in:
			continue
		case line != "" && !strings.HasPrefix(line, " "):
			in = false // the next section
			continue
		}
		if m := helpCommand().FindStringSubmatch(line); m != nil {
			out = append(out, strings.Split(m[1], "|")...)
		}
	}
	return out
}

// helpCache is the file that keeps one claude binary's subcommands.
type helpCache struct {
	Binary   string   `json:"binary"`
	Size     int64    `json:"size"`
	Mtime    int64    `json:"mtime"`
	Commands []string `json:"commands"`
}

// maxHelpCache bounds what is read of a subcommand cache file: a few
// hundred bytes are written.
const maxHelpCache = 64 << 10

// Subcommands returns the subcommands the claude binary at path says it
// has (`claude --help`), asking it once per binary: the answer is kept in
// cacheDir, keyed by the binary's path, size and modification time, so a
// new version is asked anew. A word claude added in a later version than
// superclaude knows is then taken as what it is, a subcommand, and not as a
// prompt of an interactive run.
//
// The cache is read and written through safefs, as every file a neighbour
// could plant: a link, FIFO or device at its name is not followed, waited
// on or read without a bound — claude is asked again, and the answer
// replaces it by rename — and the new file is written beside it under a
// fresh name, never through a link planted at a name known in advance.
func Subcommands(path, cacheDir string) ([]string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(real))
	name := "claude-help-" + hex.EncodeToString(sum[:8]) + ".json"
	var dir *safefs.Dir
	if err := os.MkdirAll(cacheDir, 0o700); err == nil {
		dir, _ = safefs.Open(cacheDir, "")
	}
	defer dir.Close()
	var c helpCache
	if dir != nil {
		if b, err := dir.ReadFile(name, maxHelpCache, "the claude subcommand cache"); err == nil && json.Unmarshal(b, &c) == nil &&
			c.Binary == real && c.Size == fi.Size() && c.Mtime == fi.ModTime().UnixNano() {
			return c.Commands, nil
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, real, "--help").Output()
	if err != nil {
		return nil, fmt.Errorf("%s --help: %w", real, err)
	}
	c = helpCache{Binary: real, Size: fi.Size(), Mtime: fi.ModTime().UnixNano(), Commands: ParseHelpCommands(string(out))}
	if len(c.Commands) == 0 {
		return nil, fmt.Errorf("%s --help lists no commands", real)
	}
	if dir != nil {
		if b, err := json.Marshal(c); err == nil {
			dir.WriteAtomic(name, b, false)
		}
	}
	return c.Commands, nil
}

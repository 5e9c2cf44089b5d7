package hosts

import (
	"fmt"
	"io"
	"time"

	"github.com/superclaude/superclaude/internal/cli"
)

// appendBlocks adds every host's block from hosts (Covered.Views; nil for
// none) to views, once all are in.
func appendBlocks(views []cli.SessionView, hosts <-chan []cli.SessionView) []cli.SessionView {
	if hosts == nil { // a nil channel would never close
		return views
	}
	for block := range hosts {
		views = append(views, block...)
	}
	return views
}

// writeStatus writes the +status view: this machine's rows (local) and
// each host's block from hosts (Covered.Views; nil for this machine
// alone).
//
// As a table, this machine's rows are written at once and each host's
// block below them as it comes — a host that does not answer never slows
// this machine's view, and one that answers is not held up by one that
// does not; a host given up on is one line that says so. As JSON (asJSON)
// the view is one document, written once every host is in: it waits for
// the slowest, up to Timeout.
func writeStatus(w io.Writer, local []cli.SessionView, hosts <-chan []cli.SessionView, asJSON bool) error {
	if asJSON || hosts == nil {
		return cli.WriteStatus(w, appendBlocks(local, hosts), asJSON, time.Now())
	}
	wrote := false
	write := func(block []cli.SessionView) error {
		if len(block) == 0 {
			return nil
		}
		if wrote {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		wrote = true
		return cli.WriteHostBlock(w, block, time.Now())
	}
	if err := write(local); err != nil {
		return err
	}
	for block := range hosts {
		if err := write(block); err != nil {
			return err
		}
	}
	if !wrote {
		_, err := fmt.Fprintln(w, "no sessions yet")
		return err
	}
	return nil
}

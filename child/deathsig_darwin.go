package child

import (
	"syscall"

	"github.com/superclaude/superclaude/child/internal/leader"
)

// SetDeathSignal does nothing on macOS, which has no PR_SET_PDEATHSIG: an
// agent on a pty still gets SIGHUP when the supervisor dies and the pty's
// master closes, and a later supervisor sweeps what a dead one left.
func SetDeathSignal(attr *syscall.SysProcAttr, sig syscall.Signal) { leader.SetDeathSignal(attr, sig) }

// deathSignalSupported reports whether SetDeathSignal does anything here.
const deathSignalSupported = leader.DeathSignalSupported

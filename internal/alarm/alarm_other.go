//go:build !linux

package alarm

import (
	"sync"
	"time"
)

// impl is a Go timer.
type impl struct {
	mu     sync.Mutex
	t      *time.Timer
	fireFn func()
}

func newImpl(fire func()) *impl { return &impl{fireFn: fire} }

func (i *impl) set(d time.Duration) {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.t != nil {
		i.t.Stop()
		i.t = nil
	}
	if d > 0 {
		i.t = time.AfterFunc(d, i.fireFn)
	}
}

func (i *impl) close() { i.set(0) }

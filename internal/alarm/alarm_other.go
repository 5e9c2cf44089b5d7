//go:build !linux

package alarm

import "time"

// impl is a Go timer.
type impl struct{ g goTimer }

func newImpl(fire func()) *impl { return &impl{g: goTimer{fire: fire}} }

func (i *impl) set(d time.Duration) { i.g.set(d) }

func (i *impl) close() { i.g.set(0) }

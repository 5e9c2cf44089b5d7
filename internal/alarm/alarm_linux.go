package alarm

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// impl is a timerfd in Go's poller, read by one goroutine; a Go timer
// when the system gives no timerfd.
type impl struct {
	fd       int
	f        *os.File
	done     chan struct{}
	fallback goTimer
}

func newImpl(fire func()) *impl {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return &impl{fd: -1, fallback: goTimer{fire: fire}}
	}
	i := &impl{fd: fd, f: os.NewFile(uintptr(fd), "alarm"), done: make(chan struct{})}
	go func(f *os.File, done chan struct{}) {
		defer close(done)
		var buf [8]byte
		for {
			if _, err := f.Read(buf[:]); err != nil {
				return
			}
			fire()
		}
	}(i.f, i.done)
	return i
}

func (i *impl) set(d time.Duration) {
	if i.fd < 0 {
		i.fallback.set(d)
		return
	}
	rc, err := i.f.SyscallConn()
	if err != nil {
		return
	}
	rc.Control(func(fd uintptr) {
		unix.TimerfdSettime(int(fd), 0, &unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}, nil)
	})
}

func (i *impl) close() {
	if i.fd < 0 {
		i.fallback.set(0)
		return
	}
	i.f.Close()
	<-i.done
}

// Command readfloor is the floor of `superclaude +status` over many
// sessions: it lists a sessions directory and reads every session's
// .state.json — openat, read, close, nothing else: no checks, no parsing,
// no output but a count — on as many goroutines as there are processors.
// Nothing can read the files a listing shows for less; the benchmark
// suite times +status --json against it.
package main

import (
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
)

func main() {
	d, err := os.Open(os.Args[1])
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	names, _ := d.Readdirnames(-1)
	dfd := int(d.Fd())
	var read, next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 64<<10)
			for i := int(next.Add(1) - 1); i < len(names); i = int(next.Add(1) - 1) {
				fd, err := syscall.Openat(dfd, names[i]+"/.state.json", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
				if err != nil {
					continue
				}
				n, _ := syscall.Read(fd, buf)
				syscall.Close(fd)
				read.Add(int64(n))
			}
		}()
	}
	wg.Wait()
	os.Stdout.WriteString(strconv.Itoa(len(names)) + " sessions, " + strconv.FormatInt(read.Load(), 10) + " bytes\n")
}

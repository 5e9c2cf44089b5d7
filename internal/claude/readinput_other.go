//go:build !linux

package claude

import (
	"os"
	"time"
)

// readFileInput declines: ReadInput reads in a goroutine of its own. (On
// macOS poll(2) does not wait on every kind of file — terminals, some
// devices — so its answer is not relied on.)
func readFileInput(*os.File, int64, time.Time) (data []byte, over, late bool, err error, ok bool) {
	return nil, false, false, nil, false
}

package remote

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// brokenPipe is the standard output of a +remote whose asking side has
// gone: every write fails.
type brokenPipe struct{}

func (brokenPipe) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// An op that waits (following a log) ends when the asking side goes:
// Serve's keep-alive write fails and the op's context ends.
func TestServeEndsAWaitingOpWhenTheAskerGoes(t *testing.T) {
	old := keepAlive
	keepAlive = 20 * time.Millisecond
	defer func() { keepAlive = old }()
	ended := make(chan struct{})
	ops := map[string]Handler{"follow": func(ctx context.Context, _ json.RawMessage, _ func(any) error) error {
		select {
		case <-ctx.Done():
			close(ended)
		case <-time.After(10 * time.Second):
		}
		return nil
	}}
	go Serve(context.Background(), strings.NewReader(`{"version":"v1","op":"follow"}`), brokenPipe{}, "v1", ops)
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the op kept waiting after the asking side had gone")
	}
}

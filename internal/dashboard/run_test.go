package dashboard

import (
	"context"
	"errors"
	"os"
	"testing"
)

// TestRunWithoutATerminalSaysSo: `superclaude +dashboard | less` or from a
// script must not draw escape sequences into a pipe.
func TestRunWithoutATerminalSaysSo(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old }()
	if err := Run(context.Background(), Options{}); !errors.Is(err, ErrNoTerminal) {
		t.Fatalf("Run on a pipe: %v, want ErrNoTerminal", err)
	}
}

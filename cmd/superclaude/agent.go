package main

import (
	"fmt"
	"os"
)

// runAgent runs the agent under supervision.
func runAgent(args []string) int {
	fmt.Fprintln(os.Stderr, "superclaude: the supervisor is not built yet")
	return 1
}

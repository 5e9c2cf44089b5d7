package cli

import "strconv"

// Plural is "1 thing" or "n things": Plural(n, "pane", "panes").
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

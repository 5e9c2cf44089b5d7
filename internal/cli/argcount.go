package cli

import (
	"regexp"
	"strconv"
)

// argCount matches cobra's argument count errors: "accepts 1 arg(s),
// received 0", "requires at least 1 arg(s), only received 0", "accepts at
// most 1 arg(s), received 2", "accepts between 1 and 2 arg(s), received 0".
var argCount = regexp.MustCompile(`^(accepts|requires) (at least |at most |between )?(\d+)(?: and (\d+))? arg\(s\), (?:only )?received (\d+)$`)

// ArgCount says cobra's argument count error msg in words ("takes 1
// argument, and was given none"), and whether msg was one. "accepts 1
// arg(s), received 0" is the library speaking, not superclaude.
func ArgCount(msg string) (string, bool) {
	m := argCount.FindStringSubmatch(msg)
	if m == nil {
		return "", false
	}
	n, _ := strconv.Atoi(m[3])
	got, _ := strconv.Atoi(m[5])
	var takes string
	switch m[2] {
	case "at least ":
		takes = "at least " + args(n)
	case "at most ":
		takes = "at most " + args(n)
	case "between ":
		hi, _ := strconv.Atoi(m[4])
		takes = strconv.Itoa(n) + " to " + args(hi)
		if hi == n+1 {
			takes = strconv.Itoa(n) + " or " + args(hi)
		}
	default:
		takes = args(n)
	}
	given := strconv.Itoa(got)
	if got == 0 {
		given = "none"
	}
	return "takes " + takes + ", and was given " + given, true
}

// args is "1 argument" or "n arguments".
func args(n int) string { return Plural(n, "argument", "arguments") }

package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseAge reads an age as a person writes one for `--older-than`: a
// number of days ("7d") or weeks ("2w"), or anything time.ParseDuration
// reads ("36h", "90m"). It must be positive.
func ParseAge(s string) (time.Duration, error) {
	unit := map[string]time.Duration{"d": 24 * time.Hour, "w": 7 * 24 * time.Hour}
	for suffix, u := range unit {
		if n, ok := strings.CutSuffix(s, suffix); ok {
			v, err := strconv.ParseFloat(n, 64)
			if err != nil || v <= 0 {
				break
			}
			return time.Duration(v * float64(u)), nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not an age: want a number of days (7d), weeks (2w) or hours (36h)", s)
	}
	return d, nil
}

// Ago renders how long before now t was, in the largest whole unit:
// "3 weeks ago", "2 days ago", "5 hours ago", "just now".
func Ago(t, now time.Time) string {
	d := now.Sub(t)
	n, unit := 0, ""
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		n, unit = int(d.Minutes()), "minute"
	case d < 48*time.Hour:
		n, unit = int(d.Hours()), "hour"
	case d < 14*24*time.Hour:
		n, unit = int(d.Hours()/24), "day"
	default:
		n, unit = int(d.Hours()/24/7), "week"
	}
	if n != 1 {
		unit += "s"
	}
	return fmt.Sprintf("%d %s ago", n, unit)
}

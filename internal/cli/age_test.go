package cli

import (
	"testing"
	"time"
)

func TestParseAge(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"7d": 7 * 24 * time.Hour, "2w": 14 * 24 * time.Hour, "36h": 36 * time.Hour, "1.5d": 36 * time.Hour, "90m": 90 * time.Minute,
	} {
		if got, err := ParseAge(in); err != nil || got != want {
			t.Errorf("ParseAge(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "7", "d", "-3d", "0d", "0", "soon", "3y"} {
		if got, err := ParseAge(bad); err == nil {
			t.Errorf("ParseAge(%q) = %v, want an error", bad, got)
		}
	}
}

func TestAgo(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for d, want := range map[time.Duration]string{
		10 * time.Second: "just now", 5 * time.Minute: "5 minutes ago", time.Hour: "1 hour ago", 30 * time.Hour: "30 hours ago",
		3 * 24 * time.Hour: "3 days ago", 21 * 24 * time.Hour: "3 weeks ago",
	} {
		if got := Ago(now.Add(-d), now); got != want {
			t.Errorf("Ago(-%v) = %q, want %q", d, got, want)
		}
	}
}

package main

import (
	"strings"
	"testing"
)

// Every option read from the environment refuses a bad value with an error
// that names the variable. (Regression: SUPERCLAUDE_OVERFLOW_THRESHOLD=76,
// meant as 76 %, was silently ignored and the default applied.)
func TestBadOptionsInTheEnvironmentAreRefusedByName(t *testing.T) {
	for _, tc := range []struct {
		env, value string
		ok         bool
	}{
		{envThreshold, "0.76", true},
		{envThreshold, "1", true},
		{envThreshold, "76", false},
		{envThreshold, "0", false},
		{envThreshold, "abc", false},
		{envGrace, "2s", true},
		{envGrace, "5", false},
		{envMaxCrashes, "0", false},
		{envLimit, "maybe", false},
		{envDehydrate, "-1s", false},
	} {
		t.Run(tc.env+"="+tc.value, func(t *testing.T) {
			t.Setenv(tc.env, tc.value)
			_, err := defaultOptions()
			if tc.ok != (err == nil) {
				t.Fatalf("defaultOptions with %s=%s: %v", tc.env, tc.value, err)
			}
			if err != nil && !strings.Contains(err.Error(), tc.env) {
				t.Errorf("the error does not name %s: %v", tc.env, err)
			}
		})
	}
}

package launch

import (
	"fmt"
	"time"

	"github.com/superclaude/superclaude/supervise"
)

// resumePolicies is how the resume policies are named to the person.
var resumePolicies = supervise.ResumeAuto + ", " + supervise.ResumeAsk + " or " + supervise.ResumeNever

// validResumePolicy reports whether p is a resume policy.
func validResumePolicy(p string) bool { return supervise.CheckResumePolicy(p) == nil }

// Check refuses options that cannot be run, each named as the person
// gave it (+run's flag, or `superclaude --resume-policy`), before
// anything else is looked at (issue 19: `+run --resume-policy maybe`
// said that claude was not found, and ran with the bad value had it
// been). What came from the environment was checked by FromEnv, under
// its variable's name.
func (o Options) Check() error {
	if _, ok := supervise.Profiles[o.Profile]; !ok {
		return fmt.Errorf("--profile %s is not an agent profile: use one of %s", o.Profile, supervise.ProfileNames())
	}
	if o.ResumePolicy != "" && !validResumePolicy(o.ResumePolicy) {
		return fmt.Errorf("--resume-policy %s is not a resume policy: use %s", o.ResumePolicy, resumePolicies)
	}
	if !(o.MaxCrashes >= 1) {
		return fmt.Errorf("--max-crashes %v: want a number of 1 or more", o.MaxCrashes)
	}
	if o.MaxRestarts < 0 {
		return fmt.Errorf("--max-restarts %d: want a whole number of 0 or more (0 turns the restart-rate limit off)", o.MaxRestarts)
	}
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"--grace", o.Grace}, {"--crash-window", o.CrashDecay}, {"--crash-delay", o.CrashDelay},
		{"--dehydrate-wait", o.DehydrateWait}, {"--restart-window", o.RestartWindow}} {
		if d.v < 0 {
			return fmt.Errorf("%s %v: want a duration of 0 or more, such as 2s", d.flag, d.v)
		}
	}
	return nil
}

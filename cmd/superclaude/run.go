package main

import (
	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/launch"
)

// newRunCmd is `+run`: the agent under supervision with the supervisor's
// options given as flags (a plain `superclaude ARGS` reads them from the
// environment: launch.Command).
func newRunCmd() *cobra.Command {
	o, envErr := launch.FromEnv()
	cmd := &cobra.Command{
		Use:   "+run [flags] [-- agent arguments]",
		Short: "run an agent (claude, codex, gemini …) with superclaude's options as flags (plain `superclaude ARGS` reads them from SUPERCLAUDE_*)",
		RunE: func(c *cobra.Command, args []string) error {
			if envErr != nil {
				return envErr
			}
			return runRun(o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Agent, "agent", o.Agent, "agent executable (default: the profile's, from $PATH; $"+envvar.Agent+")")
	f.StringVar(&o.Profile, "profile", o.Profile, "agent profile: "+launch.ProfileNames()+" ($"+envvar.Profile+")")
	f.DurationVar(&o.Grace, "grace", o.Grace, "how long the agent gets to exit when superclaude ends it (SIGTERM), before it is killed (SIGKILL) ($"+envvar.Grace+")")
	f.Float64Var(&o.MaxCrashes, "max-crashes", o.MaxCrashes, "crashes within the crash window before superclaude gives up ($"+envvar.MaxCrashes+")")
	f.DurationVar(&o.CrashDecay, "crash-window", o.CrashDecay, "how fast crashes are forgotten: the count of crashes halves in this time ($"+envvar.CrashWindow+")")
	f.DurationVar(&o.CrashDelay, "crash-delay", o.CrashDelay, "pause before restarting a crashed agent ($"+envvar.CrashDelay+")")
	f.BoolVar(&o.LimitContinue, "limit-continue", o.LimitContinue, "go on by itself once a usage or rate limit resets ($"+envvar.LimitContinue+"=0 turns it off)")
	f.StringVar(&o.ResumePolicy, "resume-policy", o.ResumePolicy, "what a start does with its pane's previous conversation: auto, ask or never (default: ask; auto in a fleet pane) ($"+envvar.ResumePolicy+")")
	f.IntVar(&o.MaxRestarts, "max-restarts", o.MaxRestarts, "restarts of any kind within the restart window before superclaude stops and halts the session; 0 no limit ($"+envvar.MaxRestarts+")")
	f.DurationVar(&o.RestartWindow, "restart-window", o.RestartWindow, "the window of --max-restarts ($"+envvar.RestartWindow+")")
	f.DurationVar(&o.DehydrateWait, "dehydrate-wait", o.DehydrateWait, "how long an agent whose context window filled up may leave saving its work undone before superclaude saves it and restarts it; 0 never ($"+envvar.DehydrateWait+")")
	return cmd
}

func runRun(o launch.Options, args []string) error {
	return exitCode(launch.Run(o, args))
}

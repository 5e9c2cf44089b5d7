package supervise

import (
	"testing"

	"github.com/superclaude/superclaude/state"
)

func TestResumeMode(t *testing.T) {
	userExit := &state.State{SessionID: "c", LastExit: CauseUserExit}
	killed := &state.State{SessionID: "c", LastExit: CauseStopped}
	crashed := &state.State{SessionID: "c", LastExit: CauseCrash}
	for _, tc := range []struct {
		name     string
		st       *state.State
		labelled bool
		policy   string
		want     Choice
	}{
		{"fleet stopped (S3): resumed without asking", killed, true, ResumeAsk, ChooseResume},
		{"a crash in a labelled pane: resumed", crashed, true, ResumeAsk, ChooseResume},
		{"the user's own /exit: asked", userExit, true, ResumeAsk, askUser},
		{"an unlabelled pane: always asked", killed, false, ResumeAsk, askUser},
		{"auto resumes even after /exit", userExit, true, ResumeAuto, ChooseResume},
		{"auto resumes in an unlabelled pane when told to", userExit, false, ResumeAuto, ChooseResume},
		{"never", killed, true, ResumeNever, ChooseNew},
		{"default policy is ask", userExit, true, "", askUser},
	} {
		if got := resumeMode(tc.st, tc.labelled, tc.policy); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if CheckResumePolicy("sometimes") == nil || CheckResumePolicy(ResumeAsk) != nil {
		t.Error("CheckResumePolicy")
	}
}

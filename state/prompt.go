package state

import "strings"

// CarriedIntro begins the text that carries the person's unanswered
// prompts into a restarted agent's first prompt (CarryText). A prompt that
// begins with it is superclaude's, not the person's: it is never carried
// again inside another.
const CarriedIntro = "[superclaude: the person's own words, carried over a restart]"

// CarryText is what a restarted agent's first prompt carries of prompts,
// the person's prompts that no turn had answered when the agent ended:
// each verbatim, between lines that mark it as the person's own words, so
// that the agent acts on it and does not take it for superclaude's
// instructions. Empty for no prompts.
func CarryText(prompts []Prompt) string {
	if len(prompts) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(CarriedIntro + "\n")
	if len(prompts) == 1 {
		b.WriteString("Just before superclaude restarted you, the person typed the prompt below, and it was not answered. " +
			"It may also appear earlier in the conversation; answer it once. These are the person's own words, verbatim:\n")
	} else {
		b.WriteString("Just before superclaude restarted you, the person typed the prompts below, oldest first, and they were not answered. " +
			"They may also appear earlier in the conversation; answer each once. These are the person's own words, verbatim:\n")
	}
	for _, p := range prompts {
		b.WriteString("<<<\n" + p.Text + "\n>>>\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// FreshAfterOverflow reports whether the session's agent is the fresh one
// of an overflow restart that has not taken the session over yet: the
// session still says overflowed (activate clears it), but that was the
// old context's; advice to dehydrate is not true of the new one.
func (s *State) FreshAfterOverflow() bool {
	return s.Overflowed && s.Lifecycle == Restarting && !s.KillRequested
}

// Quote renders a prompt for a one-line message to the person: quoted,
// on one line, cut after n characters.
func Quote(text string, n int) string {
	t := strings.Join(strings.Fields(text), " ")
	r := []rune(t)
	if len(r) > n {
		t = string(r[:n]) + "…"
	}
	return `"` + t + `"`
}

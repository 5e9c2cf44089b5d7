package state

import "strings"

// CarriedIntro begins the text that carries the person's unanswered
// prompts into a restarted agent's first prompt (CarryText). A prompt that
// begins with it is superclaude's, not the person's: it is never carried
// again inside another.
const CarriedIntro = "[superclaude: the person's own words, carried over a restart]"

// CarryText is what a restarted agent's first prompt carries of prompts,
// the person's prompts that no turn had answered when the agent ended,
// each told as what happened to it:
//
//   - a prompt the agent's own turn was answering when it asked for the
//     restart (TurnAskedRestart) is quoted — every line behind "> " — as
//     words the predecessor had and acted on: the restart it asked for
//     is done and must not be asked for again on its account (the prompt
//     may have been "restart yourself"), and what else it asks is still
//     to do unless the saved context shows it done;
//   - any other is given verbatim, between "<<<" and ">>>" lines, as the
//     person's words to answer: the predecessor had not finished
//     answering it when it was restarted, and may not have begun.
//
// Both are marked as the person's own words, so that the agent does not
// take them for superclaude's instructions. Empty for no prompts.
func CarryText(prompts []Prompt) string {
	if len(prompts) == 0 {
		return ""
	}
	var begun, open []Prompt
	for _, p := range prompts {
		if p.TurnAskedRestart {
			begun = append(begun, p)
		} else {
			open = append(open, p)
		}
	}
	var b strings.Builder
	b.WriteString(CarriedIntro + "\n")
	if len(begun) > 0 {
		b.WriteString(plural(len(begun),
			"Your predecessor was answering the person's prompt quoted below when it asked superclaude for this restart. "+
				"That restart is done: do not ask for another on the prompt's account. "+
				"Whatever else it asks that your saved context does not show as done is still to do. ",
			"Your predecessor was answering the person's prompts quoted below, oldest first, when it asked superclaude for this restart. "+
				"That restart is done: do not ask for another on their account. "+
				"Whatever else they ask that your saved context does not show as done is still to do. "))
		b.WriteString("The person's own words, quoted:\n")
		for _, p := range begun {
			b.WriteString(quoteLines(p.Text) + "\n\n")
		}
	}
	if len(open) > 0 {
		b.WriteString(plural(len(open),
			"Just before superclaude restarted you, the person typed the prompt below, and your predecessor had not finished answering it (it may not have begun). "+
				"It may also appear earlier in the conversation; answer it once. ",
			"Just before superclaude restarted you, the person typed the prompts below, oldest first, and your predecessor had not finished answering them (it may not have begun). "+
				"They may also appear earlier in the conversation; answer each once. "))
		b.WriteString("These are the person's own words, verbatim:\n")
		for _, p := range open {
			b.WriteString("<<<\n" + p.Text + "\n>>>\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// plural picks one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// quoteLines puts "> " in front of every line of text, as a quotation.
func quoteLines(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("> "+l, " ")
	}
	return strings.Join(lines, "\n")
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

package dashboard

import (
	"strings"

	"github.com/superclaude/superclaude/state"
)

// readOptional fills the row's values that a session records only once
// its agent reported them: the cost, whether it waits for input, a usage
// limit, a halt. A value the state does not hold stays unknown (nil or
// ""), which the list shows as "–".
func readOptional(st *state.State, r *Row) {
	if st.CostUSD > 0 {
		v := st.CostUSD
		r.Cost = &v
	}
	// Claude's own status words: busy, idle, waiting (for the user).
	if st.AgentStatus != "" {
		v := strings.HasPrefix(st.AgentStatus, "waiting")
		r.NeedsInput = &v
	}
	r.Limit, r.LimitUntil = st.Limit, st.LimitedUntil
	r.Halted = st.Halted
}

package state

import (
	"bytes"
	"testing"
	"time"
)

// FuzzParse feeds the state parser arbitrary bytes. It must never panic,
// and whatever it accepts must survive a write and a re-read unchanged.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		full,
		`{"pid":1,"lifecycle":"active","startedAt":"2026-02-07T14:30:00Z"}`,
		`{"pid":1,"lifecycle":"resuming","startedAt":"2026-02-07T14:30:00Z","x":{"y":[1,"2",null]}}`,
		`{"pid":"1"}`, `[]`, `null`, ``, `{"pid":1e400}`, `{"toolCallsByTranscript":{"a":-1}}`,
	} {
		f.Add([]byte(s))
	}
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := Parse(data, now)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("Parse error %T %v is not *Error", err, err)
			}
			return
		}
		out, err := st.MarshalJSON()
		if err != nil {
			t.Fatalf("accepted but cannot write: %v", err)
		}
		again, err := Parse(out, now)
		if err != nil {
			t.Fatalf("wrote what it cannot read: %v\n%s", err, out)
		}
		out2, _ := again.MarshalJSON()
		if !bytes.Equal(out, out2) {
			t.Fatalf("not stable:\n%s\n%s", out, out2)
		}
	})
}

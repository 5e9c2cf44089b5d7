package state

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/superclaude/superclaude/internal/rawjson"
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

// FuzzStateDecodersAgree: the state files decodeMembers reads member by
// member (issue 22: no map of each file's members for a +status of
// 10,000), it reads as decodeGeneral does — the same state, or refused as
// decodeGeneral refuses it; with one thing wrong, for the same reason.
func FuzzStateDecodersAgree(f *testing.F) {
	for _, s := range []string{
		full,
		`{"pid":1,"lifecycle":"active","startedAt":"2026-02-07T14:30:00Z","x":{"y":[1,"2",null]},"loading":null,"pidStart":null}`,
		`{"pid":1,"lifecycle":"active","startedAt":"2026-02-07T14:30:00Z","pid":2}`,
		`{"pid":1,"lifecycle":"nope","startedAt":"2026-02-07T14:30:00Z"}`, `{"lifecycle":"active","pid":"x"}`,
		`{"pid":1,"lifecycle":"act\u0069ve","startedAt":"2026-02-07T14:30:00Z","pidStart":12.5}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err, ok := decodeMembers(data)
		if !ok {
			return
		}
		want, werr := decodeGeneral(data)
		if (err == nil) != (werr == nil) {
			t.Fatalf("%q: members %v, general %v", data, err, werr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\nmembers %+v\ngeneral %+v", data, got, want)
		}
		if err != nil && problems(data) == 1 && err.Error() != werr.Error() {
			t.Fatalf("%q: members %v, general %v", data, err, werr)
		}
	})
}

// problems counts the members of a valid object that decode refuses on
// their own, and the required ones missing.
func problems(data []byte) int {
	raw, ok := rawjson.Object(data)
	if !ok {
		return -1
	}
	n := 0
	for _, name := range requiredFields {
		if _, ok := raw[name]; !ok {
			n++
		}
	}
	for key, v := range raw {
		if f, known := fieldByName[key]; known && f.decode(&State{}, v) != nil {
			n++
		}
	}
	return n
}

package rawjson

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestObjectAgreesWithTheDecoder: for every object json.Decoder reads
// into a map of raw values, Object finds the same keys and the same
// values (compacted alike); for anything else it declines, and the caller
// falls back to the decoder.
func TestObjectAgreesWithTheDecoder(t *testing.T) {
	for _, in := range []string{
		`{}`, ` { } `, `{"a":1}`, `{"a" : "x" , "b":[1,{"c":"]}"}],"d":{"e":[]}}`,
		`{"esc\"aped":"v\\\"","u":"\u00e9\ud83d\ude00","n":-1.5e3,"t":true,"f":false,"z":null}`,
		`{"a":1,"a":2}`, "{\n\t\"a\": [ 1 , 2 ]\r\n}",
		`{"s":"ends in backslash \\"}`,
		// Declined:
		``, `null`, `[]`, `"x"`, `{"a":1} {"b":2}`, `{"a":1`, `{"a":}`, `{a:1}`, "{\"a\":\"\x01\"}",
	} {
		got, ok := Object([]byte(in))
		var want map[string]json.RawMessage
		dec := json.NewDecoder(bytes.NewReader([]byte(in)))
		err := dec.Decode(&want)
		valid := err == nil && want != nil && !dec.More() && json.Valid([]byte(in))
		if ok != valid {
			t.Errorf("%q: ok %v, the decoder's verdict %v (%v)", in, ok, valid, err)
			continue
		}
		if !ok {
			continue
		}
		if len(got) != len(want) {
			t.Errorf("%q: %d keys, want %d", in, len(got), len(want))
		}
		for k, w := range want {
			var a, b bytes.Buffer
			json.Compact(&a, got[k])
			json.Compact(&b, w)
			if !reflect.DeepEqual(a.Bytes(), b.Bytes()) {
				t.Errorf("%q: key %q = %s, want %s", in, k, got[k], w)
			}
		}
	}
}

// FuzzObject: on any input Object never panics, and whenever it
// accepts, the decoder reads the same keys.
func FuzzObject(f *testing.F) {
	f.Add([]byte(`{"pid":1,"lifecycle":"active","x":{"y":[1,"]"]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := Object(data)
		if !ok {
			return
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("accepted what the decoder refuses (%v): %q", err, data)
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d keys, want %d", data, len(got), len(want))
		}
	})
}

// FuzzUnquoteAgreesWithTheDecoder: whatever a string literal holds —
// escapes, surrogates paired or alone, bytes that are not UTF-8 — Unquote
// reads what json.Unmarshal reads, and reads every literal it accepts.
func FuzzUnquoteAgreesWithTheDecoder(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"\u00e9\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`,
		`"\ude00\ud83d"`, "\"\xff\xfe\"", `"\u12"`, `"\x"`, `"a`, `"\"`, "\"\x01\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(bytes.TrimSpace(raw)) != len(raw) {
			return // a value as Members gives it: without the space around
		}
		var want string
		werr := json.Unmarshal(raw, &want)
		got, ok := Unquote(raw)
		if ok && (werr != nil || got != want) || !ok && werr == nil && json.Valid(raw) {
			t.Fatalf("%q: Unquote %q %v; json.Unmarshal %q %v", raw, got, ok, want, werr)
		}
	})
}

// FuzzMembersValidatesAsJSONValid: Members, which checks its object as it
// reads it instead of calling json.Valid first, accepts exactly the
// objects json.Valid accepts, and visits the members the decoder finds.
func FuzzMembersValidatesAsJSONValid(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,2.5e-3,-0,true,false,null,"\u00e9\n"],"b":{"c":{}}}`, `{"a":01}`, `{"a":1.}`,
		`{"a":"\x"}`, `{"a":"\u12g4"}`, "{\"a\":\"\x01\"}", `{"a":1,}`, `{"a" 1}`, `{"a":[1,]}`, ` {"a":1} `, `{"a":1}x`,
		`{"a":-}`, `{"a":1e}`, `{"a":tru}`, "{\"\xff\":1}", `{"a\u0041":2}`, `[{}]`, strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n := 0
		ok := Members(data, func(key, value []byte) bool { n++; return true })
		var m map[string]json.RawMessage
		want := json.Valid(data) && json.Unmarshal(data, &m) == nil && m != nil
		if ok != want {
			t.Fatalf("%q: Members %v, json.Valid and an object: %v", data, ok, want)
		}
		if ok && len(m) > n {
			t.Fatalf("%q: visited %d members, the decoder has %d keys", data, n, len(m))
		}
	})
}

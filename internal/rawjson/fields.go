package rawjson

import (
	"bytes"
	"math"
	"strconv"
)

// Fields reads a JSON object into a struct the way json.Unmarshal does,
// for the plain case: it calls set with the index in keys of each member
// whose key is spelled exactly as one of keys, and its raw value; members
// with other keys are skipped, as json.Unmarshal skips them. null is an
// object without members (json.Unmarshal leaves the struct as it is).
//
// It returns false — and the caller decodes with encoding/json instead —
// when raw is not a valid object, when set returns false (a value it
// cannot read plainly), when a key appears twice (json.Unmarshal merges
// two objects given for one field), or when a key is one of keys in
// another case (json.Unmarshal matches keys regardless of case).
func Fields(raw []byte, keys []string, set func(i int, value []byte) bool) bool {
	if IsNull(raw) {
		return true
	}
	var seen uint64
	if len(keys) > 64 {
		return false
	}
	return Members(raw, func(key, value []byte) bool {
		for i, k := range keys {
			switch {
			case string(key) == k:
				if seen&(1<<i) != 0 {
					return false
				}
				seen |= 1 << i
				return set(i, value)
			case bytes.EqualFold(key, []byte(k)):
				return false
			}
		}
		return true
	})
}

// String reads raw into *dst as json.Unmarshal reads a string field: null
// leaves it as it is. false for anything but null or a string.
func String(raw []byte, dst *string) bool {
	if IsNull(raw) {
		return true
	}
	v, ok := Unquote(raw)
	if ok {
		*dst = v
	}
	return ok
}

// Float reads raw into *dst as json.Unmarshal reads a float64 field: null
// leaves it as it is. false for anything but null or a number in range.
func Float(raw []byte, dst *float64) bool {
	if IsNull(raw) {
		return true
	}
	if len(raw) == 0 || raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return false
	}
	*dst = f
	return true
}

// FloatPtr reads raw into *dst as json.Unmarshal reads a *float64 field:
// null sets it to nil.
func FloatPtr(raw []byte, dst **float64) bool {
	if IsNull(raw) {
		*dst = nil
		return true
	}
	var f float64
	if !Float(raw, &f) {
		return false
	}
	*dst = &f
	return true
}

// Int reads raw into *dst as json.Unmarshal reads an int64 field: null
// leaves it as it is. false for anything but null or a whole number
// written without a fraction or an exponent, in range.
func Int(raw []byte, dst *int64) bool {
	if IsNull(raw) {
		return true
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return false
	}
	*dst = n
	return true
}

// IntField is Int for an int field.
func IntField(raw []byte, dst *int) bool {
	n := int64(*dst)
	if !Int(raw, &n) || n < math.MinInt || n > math.MaxInt {
		return false
	}
	*dst = int(n)
	return true
}

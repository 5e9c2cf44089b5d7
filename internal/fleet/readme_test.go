package fleet_test

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/internal/fleet"
)

// fileKeys returns the TOML keys of a fleet file struct.
func fileKeys(t reflect.Type) []string {
	var keys []string
	for i := range t.NumField() {
		if k := t.Field(i).Tag.Get("toml"); k != "" && k != "-" {
			keys = append(keys, k)
		}
	}
	return keys
}

var keyRow = regexp.MustCompile("^\\| `([a-z]+)` \\| ([a-z, ]+) \\|")

// TestREADMEDocumentsEveryFleetKey: the command and env keys were not
// documented. The README's Fleets section has a table of every key of the
// fleet file and where it may appear (file, window, pane), and this test
// holds it to the parser's keys both ways.
func TestREADMEDocumentsEveryFleetKey(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Fleets\n")
	if !ok {
		t.Fatal("the README has no Fleets section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	documented := map[string][]string{}
	for _, line := range strings.Split(section, "\n") {
		if m := keyRow.FindStringSubmatch(line); m != nil {
			for _, where := range strings.Split(m[2], ",") {
				documented[strings.TrimSpace(where)] = append(documented[strings.TrimSpace(where)], m[1])
			}
		}
	}
	for where, typ := range map[string]reflect.Type{
		"file":   reflect.TypeOf(fleet.Spec{}),
		"window": reflect.TypeOf(fleet.Window{}),
		"pane":   reflect.TypeOf(fleet.Pane{}),
	} {
		keys := fileKeys(typ)
		for _, k := range keys {
			if !slices.Contains(documented[where], k) {
				t.Errorf("the README's Fleets table does not document key %q in %s", k, where)
			}
		}
		for _, k := range documented[where] {
			if !slices.Contains(keys, k) {
				t.Errorf("the README's Fleets table documents key %q in %s, which the parser does not have", k, where)
			}
		}
	}
}

package scenarios

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// isWhole reports whether a declared type is a whole number (alone, or
// besides a word, as rounds is).
func isWhole(typ string) bool {
	return typ == "whole number" || strings.HasPrefix(typ, "whole number or ")
}

// TestWholeNumbersRefuseFractions sets every field scenarios.Fields
// declares as a whole number, in the example scenario of its platform kind
// or problem family, to numbers with a fraction or infinite, and requires
// an error naming the file, the line and the field, instead of the YAML
// library's silent truncation (seeds: 10.5 ran 10 seeds). A field declared
// later is covered by this walk; TestWholeNumbersDeclared keeps the
// declarations to the Go types.
func TestWholeNumbersRefuseFractions(t *testing.T) {
	n := 0
	for _, f := range Fields() {
		if !isWhole(f.Type) {
			continue
		}
		n++
		for _, bad := range []string{"2.5", "0.5", "1e-3", "-1.5", ".inf", "-.inf", ".nan"} {
			file, path := exampleOf(f.Path)
			at, out := withValue(t, file, path, bad)
			_, err := Parse(file, out)
			var se *Error
			want := at + ": want a whole number, got " + bad
			if !errors.As(err, &se) || se.Line == 0 || !strings.Contains(err.Error(), want) || se.Source != file {
				t.Errorf("%s = %s: loader says %v, want %q with the file and line", at, bad, err, want)
			}
		}
		// whole numbers written as floats are whole numbers
		for _, good := range []string{"1e0", "2.0"} {
			file, path := exampleOf(f.Path)
			at, out := withValue(t, file, path, good)
			if _, err := Parse(file, out); err != nil && strings.Contains(err.Error(), "want a whole number") {
				t.Errorf("%s = %s: refused as a fraction: %v", at, good, err)
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d whole-number fields declared; the walk found too few", n)
	}
}

// withValue returns the example file with the field at path set to value,
// and the path with indices.
func withValue(t *testing.T, file, path, value string) (string, []byte) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		t.Fatal(err)
	}
	at, err := setPath(doc.Content[0], path, value)
	if err != nil {
		t.Fatalf("%s in %s: %v", path, file, err)
	}
	out, err := yaml.Marshal(&doc)
	if err != nil {
		t.Fatal(err)
	}
	return at, out
}

// TestWholeNumbersDeclared requires every key whose Go field is an
// integer to be declared a whole number, and every declared whole number
// to be an integer field, so that TestWholeNumbersRefuseFractions walks
// them all.
func TestWholeNumbersDeclared(t *testing.T) {
	integer := map[string]bool{}
	for path, typ := range acceptedTypes() {
		switch typ.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			integer[path] = true
		}
	}
	for _, f := range Fields() {
		if isWhole(f.Type) != integer[f.Path] {
			t.Errorf("%s: declared %q, but its Go field is integer: %v", f.Path, f.Type, integer[f.Path])
		}
		delete(integer, f.Path)
	}
	for p := range integer {
		t.Errorf("%s: an integer field that scenarios.Fields does not declare", p)
	}
}

// TestWholeNumbersThroughAliases gives fractions through an alias and a
// merge key (<<: *anchor), which the YAML library resolves as it decodes.
func TestWholeNumbersThroughAliases(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"platform: {delay: {rho: &r 2.5}}\nproblem: {dag: {from: {fft: 8}}}\npolicies: [dsc]\nseeds: *r\n",
			"line 4: seeds: want a whole number, got 2.5"},
		{"platform:\n  multicluster:\n    beta: 1\n    clusters:\n      - &c {beta: 1, processors: [{gamma: 1}]}\n" +
			"      - {<<: *c, processors: {<<: {count: 2.5}, gamma: 1}}\nproblem: {divisible: {}}\npolicies: [direct]\n",
			"line 6: platform.multicluster.clusters[1].processors.count: want a whole number, got 2.5"},
	} {
		_, err := Parse("alias.yaml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}

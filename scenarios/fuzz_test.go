package scenarios_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/scenarios"
)

// FuzzParse feeds arbitrary bytes to Parse: it must never panic, every
// error must name the source, and every scenario it accepts must be whole
// (a registered policy, seeds >= 1, a valid first sweep point).
// Run it with: go test -run '^$' -fuzz FuzzParse -fuzztime 1m ./scenarios
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"bundled", "testdata"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte("a: &x [*x]\n"))
	f.Add([]byte("platform: &p {delay: {rho: 1}}\nproblem: {dag: {tasks: [{weight: 1}]}}\npolicies: [sequential]\nsweep: {rho: *p}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := scenarios.Parse("fuzz.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "scenario fuzz.yaml: ") {
				t.Fatalf("error does not name the source: %v", err)
			}
			return
		}
		if len(s.Policies) == 0 || s.Seeds < 1 || s.Platform.Kind() == "" || s.Problem.Family() == "" {
			t.Fatalf("accepted an incomplete scenario: %+v", s)
		}
		for _, a := range s.Sweep {
			if len(a.Values) == 0 {
				t.Fatalf("accepted an axis without values: %+v", a)
			}
		}
		_ = s.Instance(len(s.Policies)-1, 1)
	})
}

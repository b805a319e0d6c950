package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestErrorNamesPolicyOnce runs a scenario where lam fails: the
// table's error line, the CSV's error column and the JSON's error field
// name the policy once.
func TestErrorNamesPolicyOnce(t *testing.T) {
	const why = "broadcasts from one root"
	_, table, _ := netsched(t, "run", "testdata/error-row.yaml")
	if want := "error: lam: " + why; !strings.Contains(table, want) {
		t.Errorf("table: no line %q:\n%s", want, table)
	}
	_, csv, _ := netsched(t, "run", "testdata/error-row.yaml", "--format", "csv")
	if want := `"policy lam: ` + why; !strings.Contains(csv, want) {
		t.Errorf("CSV: no error %q:\n%s", want, csv)
	}
	_, js, _ := netsched(t, "run", "testdata/error-row.yaml", "--format", "json")
	var rows []struct{ Policy, Error string }
	if err := json.Unmarshal([]byte(js), &rows); err != nil {
		t.Fatalf("JSON: %v\n%s", err, js)
	}
	var errs []string
	for _, r := range rows {
		if r.Error != "" {
			errs = append(errs, r.Error)
		}
	}
	if len(errs) != 1 || !strings.HasPrefix(errs[0], "policy lam: "+why) {
		t.Errorf("JSON errors %q, want one saying %q", errs, "policy lam: "+why)
	}
	for name, out := range map[string]string{"table": table, "CSV": csv, "JSON": js} {
		for _, twice := range []string{"lam: lam", "lam: policy lam"} {
			if strings.Contains(out, twice) {
				t.Errorf("%s names the policy twice (%q):\n%s", name, twice, out)
			}
		}
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/sweep"
)

// TestVerifyHandWritten verifies schedules written by hand, which have no
// seed and come from no policy of the scenario: no output shows a seed, and
// a schedule the engine cannot take is "schedule FILE: rejected: ...".
func TestVerifyHandWritten(t *testing.T) {
	const hand = "testdata/hand.schedule.json" // computes too little: not verified
	code, out, errs := netsched(t, "verify", "-s", "crossbar-hetero", hand)
	if code != 1 || errs != "netsched: verification failed for hand.schedule.json\n" {
		t.Errorf("verify %s: exit %d, stderr %q; want 1 and the file named without a seed", hand, code, errs)
	}
	if head, _, _ := strings.Cut(out, "\n"); strings.Fields(head)[1] != "claimed" || strings.Contains(out, "seed") {
		t.Errorf("verify %s: the table shows a seed:\n%s", hand, out)
	}

	_, out, _ = netsched(t, "verify", "-s", "crossbar-hetero", hand, "--format", "json")
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("verify --format json: %v\n%s", err, out)
	}
	if seed, ok := rows[0]["seed"]; ok {
		t.Errorf("verify --format json: seed %v for a file that has none", seed)
	}

	_, out, _ = netsched(t, "verify", "-s", "crossbar-hetero", hand, "--format", "csv")
	if !strings.Contains(out, "\ncrossbar-hetero,hand.schedule.json,,timed,") {
		t.Errorf("verify --format csv: the seed cell is not empty:\n%s", out)
	}
	path := filepath.Join(t.TempDir(), "v.csv")
	if err := os.WriteFile(path, []byte(out), 0o666); err != nil {
		t.Fatal(err)
	}
	back, err := sweep.ReadCSVFile(path)
	if err != nil || len(back.Rows) != 1 || !back.Rows[0].Unseeded {
		t.Errorf("verify --format csv read back: %v, %+v; want one row without a seed", err, back)
	}

	const cycle = "testdata/cycle.schedule.json"
	code, out, errs = netsched(t, "verify", "-s", "crossbar-hetero", cycle)
	if want := "netsched: schedule " + cycle + ": rejected: actions[0].after: the After lists form a cycle"; code != 2 || !strings.HasPrefix(errs, want) || out != "" {
		t.Errorf("verify %s: exit %d, stdout %q, stderr %q; want 2 and %q", cycle, code, out, errs, want)
	}
	if strings.Contains(errs, "policy") || strings.Contains(errs, "produced") {
		t.Errorf("verify %s: stderr %q speaks of a policy", cycle, errs)
	}

	// A schedule netsched made keeps its policy's name, and no seed either.
	dir := t.TempDir()
	if code, o, e := netsched(t, "run", "delay-small", "--out", dir); code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", code, o, e)
	}
	code, out, errs = netsched(t, "verify", "-s", "delay-small", filepath.Join(dir, "unclustered.schedule.json"))
	if code != 0 || !strings.Contains(out, "unclustered") || strings.Contains(out, "seed") {
		t.Errorf("verify unclustered.schedule.json: exit %d\n%s\n%s", code, out, errs)
	}
}

// TestVerifyArrowNames verifies a hand-made schedule of a graph whose
// task names hold →, its transfers labelled a→"b→c" and "a→b"→c; the
// same schedule with the names joined as they are (a→b→c twice) names no
// edge and fails verification.
func TestVerifyArrowNames(t *testing.T) {
	const scen, hand = "testdata/arrow-names.yaml", "testdata/arrow-names.schedule.json"
	if code, out, errs := netsched(t, "verify", "-s", scen, hand); code != 0 {
		t.Fatalf("verify %s: exit %d\n%s\n%s", hand, code, out, errs)
	}
	data, err := os.ReadFile(hand)
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.NewReplacer(`\"a→b\"→c`, `a→b→c`, `a→\"b→c\"`, `a→b→c`).Replace(string(data))
	path := filepath.Join(t.TempDir(), "bare.schedule.json")
	if err := os.WriteFile(path, []byte(bad), 0o666); err != nil {
		t.Fatal(err)
	}
	code, out, _ := netsched(t, "verify", "-s", scen, path)
	if code != 1 || !strings.Contains(out, `transfer carries "a→b→c", which is no edge of the graph`) {
		t.Errorf("verify with bare labels: exit %d, want 1 naming the label\n%s", code, out)
	}
	if code, out, errs := netsched(t, "run", scen, "--format", "csv"); code != 0 {
		t.Errorf("run %s: exit %d\n%s\n%s", scen, code, out, errs)
	}
}

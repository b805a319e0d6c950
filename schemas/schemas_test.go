package schemas_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/internal/srcstat"
	"github.com/netsched/netsched/internal/tooltest"
	_ "github.com/netsched/netsched/policies/all"
	"github.com/netsched/netsched/runs"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/schedfile"
	"github.com/netsched/netsched/schemas"
	"github.com/netsched/netsched/sim"
)

// compile compiles one of the package's schemas or fails the test.
func compile(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	s, err := schemas.Compile(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// validateYAML validates a YAML document against s.
func validateYAML(s *jsonschema.Schema, data []byte) error {
	v, err := schemas.YAMLValue(data)
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// validateJSON validates a JSON document against s.
func validateJSON(s *jsonschema.Schema, data []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// TestSchemasCompile checks that every schema file of the package is
// embedded and compiles, and that Compile names a missing one.
func TestSchemasCompile(t *testing.T) {
	onDisk, err := filepath.Glob("*.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := fs.Glob(schemas.Files(), "*.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(onDisk, embedded) {
		t.Errorf("embedded %v, want every schema file of the package: %v", embedded, onDisk)
	}
	for _, name := range []string{schemas.ScenarioFile, schemas.ScheduleFile} {
		if !slices.Contains(embedded, name) {
			t.Errorf("%s is not embedded", name)
		}
	}
	// Each file's $id ends in its name, so one schema can refer to another
	// by its file name, as Compile lets it.
	const base = "https://github.com/netsched/netsched/schemas/"
	for _, name := range embedded {
		compile(t, name)
		var doc struct {
			ID     string `json:"$id"`
			Schema string `json:"$schema"`
		}
		data, err := fs.ReadFile(schemas.Files(), name)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if doc.ID != base+name || doc.Schema != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $id %q and $schema %q, want %q and draft 2020-12", name, doc.ID, doc.Schema, base+name)
		}
	}
	if _, err := schemas.Compile("nothing.schema.json"); err == nil || !strings.Contains(err.Error(), "nothing.schema.json") {
		t.Errorf("Compile of a missing file: got %v, want an error naming it", err)
	}
}

// scenarioFiles are the scenario files of the repository: the bundled
// ones, the tests' and the examples'.
func scenarioFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pattern := range []string{
		"../scenarios/bundled/*.yaml",
		"../scenarios/testdata/*.yaml",
		"../cmd/netsched/testdata/*.yaml",
		"../examples/*/*.yaml",
		"../examples/*/*/*.yaml",
		"../docs/*.yaml",
		"../docs/*/*.yaml",
	} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	return files
}

// TestScenariosValidate validates every bundled scenario and every other
// scenario file of the repository that loads: what the loader accepts,
// the schema accepts. An example's scenario that names a policy of its own
// program is validated too.
func TestScenariosValidate(t *testing.T) {
	s := compile(t, schemas.ScenarioFile)
	bundled, loaded := 0, 0
	for _, file := range scenarioFiles(t) {
		if _, err := scenarios.Load(file); err != nil {
			if strings.Contains(file, "/bundled/") {
				t.Errorf("bundled scenario %s does not load: %v", file, err)
			}
			// An example may name a policy that only its own program
			// registers (examples/gopolicy); it is validated all the same.
			if !strings.Contains(file, "/examples/") || !strings.Contains(err.Error(), "no policy is named") {
				continue
			}
		}
		loaded++
		if strings.Contains(file, "/bundled/") {
			bundled++
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := validateYAML(s, data); err != nil {
			t.Errorf("%s loads but does not validate against %s:\n%v", file, schemas.ScenarioFile, err)
		}
	}
	if bundled != len(scenarios.Bundled()) {
		t.Errorf("validated %d bundled scenarios, want all %d", bundled, len(scenarios.Bundled()))
	}
	t.Logf("%d scenario files validate, %d of them bundled", loaded, bundled)
}

// baseScenario is a small scenario that loads; the negative cases change
// one thing in it.
const baseScenario = `name: base
platform:
  crossbar:
    beta: 0.1
    duplex: half
    processors:
      - {name: a, gamma: 1, load: 10}
      - {gamma: 0.5, overlap: {send: 1}}
problem:
  divisible: {rounds: auto}
policies: [no-redistribution, {name: direct, label: d2}]
sweep:
  beta: [0.1, 0.2]
seeds: 2
`

// TestScenarioRejected checks that files the loader rejects for a field's
// name, type or range are rejected by the schema as well, and that the
// unchanged scenarios pass both: a schema that accepts everything fails
// here.
func TestScenarioRejected(t *testing.T) {
	s := compile(t, schemas.ScenarioFile)
	const tree = "platform:\n  tree:\n    nodes: [{name: h0}, {name: h1}]\n    edges: [{a: h0, b: h1, bandwidth: 1, latency: 0}]\n" +
		"problem:\n  broadcast: {roots: [h0], size: 1}\npolicies: [flat-sequential]\n"
	const ws = "platform:\n  workstations:\n    topology: ring\n    processors: [{speed: 1}, {speed: 1}]\n" +
		"problem:\n  balance: {tasks: 4, work: 1, interval: 1}\npolicies: [none]\n"
	const dag = "platform:\n  delay: {rho: 1}\nproblem:\n  dag: {tasks: [{weight: 1}, {weight: 2}], edges: [{from: 0, to: 1}]}\npolicies: [sequential]\n"
	// the multi-cluster of the machines a WfCommons instance recorded
	const wf = "platform:\n  from: {wfcommons: ../cmd/netsched/testdata/recorded-fork.json, bandwidth: 1e8}\n" +
		"problem:\n  dag: {tasks: [{weight: 1}, {weight: 2}], edges: [{from: 0, to: 1}]}\npolicies: [heft]\n"
	replace := func(base, old, new string) string {
		if !strings.Contains(base, old) {
			t.Fatalf("case does not apply: %q not in the base", old)
		}
		return strings.Replace(base, old, new, 1)
	}
	cases := []struct {
		name, yaml string
		valid      bool
	}{
		{"crossbar base", baseScenario, true},
		{"tree base", tree, true},
		{"workstations base", ws, true},
		{"dag base", dag, true},
		{"unknown top-level key", baseScenario + "colour: red\n", false},
		{"unknown processor key", replace(baseScenario, "{gamma: 0.5,", "{speed: 0.5, gamma: 0.5,"), false},
		{"beta a word", replace(baseScenario, "beta: 0.1", "beta: fast"), false},
		{"beta negative", replace(baseScenario, "beta: 0.1", "beta: -1"), false},
		{"beta zero", replace(baseScenario, "beta: 0.1", "beta: 0"), false},
		{"alpha negative", replace(baseScenario, "beta: 0.1", "beta: 0.1\n    alpha: -0.5"), false},
		{"duplex unknown", replace(baseScenario, "duplex: half", "duplex: both"), false},
		{"gamma missing", replace(baseScenario, "{gamma: 0.5,", "{load: 0.5,"), false},
		{"load negative", replace(baseScenario, "load: 10", "load: -10"), false},
		{"no processors", replace(baseScenario, "processors:\n      - {name: a, gamma: 1, load: 10}\n      - {gamma: 0.5, overlap: {send: 1}}", "processors: []"), false},
		{"overlap kind of another platform", replace(baseScenario, "{send: 1}", "{intra: 1}"), false},
		{"two platforms", replace(baseScenario, "platform:\n", "platform:\n  delay: {rho: 1}\n"), false},
		{"no platform kind", replace(baseScenario, "platform:\n  crossbar:", "platform: {}\nunused:\n  crossbar:"), false},
		{"two problems", replace(baseScenario, "problem:\n", "problem:\n  broadcast: {roots: [a], size: 1}\n"), false},
		{"rounds zero", replace(baseScenario, "rounds: auto", "rounds: 0"), false},
		{"rounds a word", replace(baseScenario, "rounds: auto", "rounds: many"), false},
		{"rounds fractional", replace(baseScenario, "rounds: auto", "rounds: 1.5"), false},
		{"no policies", replace(baseScenario, "policies: [no-redistribution, {name: direct, label: d2}]", "policies: []"), false},
		{"policies missing", replace(baseScenario, "policies: [no-redistribution, {name: direct, label: d2}]\n", ""), false},
		{"policy option a list", replace(baseScenario, "label: d2}", "label: d2, k: [1, 2]}"), false},
		{"policy without a name", replace(baseScenario, "{name: direct, label: d2}", "{label: d2}"), false},
		{"label with a dot", replace(baseScenario, "label: d2", "label: d.2"), false},
		{"label platform", replace(baseScenario, "label: d2", "label: platform"), false},
		{"seeds zero", replace(baseScenario, "seeds: 2", "seeds: 0"), false},
		{"seeds a word", replace(baseScenario, "seeds: 2", "seeds: two"), false},
		{"sweep no values", replace(baseScenario, "beta: [0.1, 0.2]", "beta: []"), false},
		{"sweep a word", replace(baseScenario, "beta: [0.1, 0.2]", "beta: fast"), false},
		{"sweep a list of words", replace(baseScenario, "beta: [0.1, 0.2]", "beta: [fast]"), false},
		{"sweep not a mapping", replace(baseScenario, "sweep:\n  beta: [0.1, 0.2]", "sweep: [beta]"), false},
		{"exec policy without a label", replace(baseScenario, "{name: direct, label: d2}", "{exec: [python3, mine.py]}"), false},
		{"exec policy without a program", replace(baseScenario, "{name: direct, label: d2}", "{exec: [], label: mine}"), false},
		{"exec policy unknown key", replace(baseScenario, "{name: direct, label: d2}", "{exec: [python3, mine.py], label: mine, k: 3}"), false},
		{"exec policy timeout a word", replace(baseScenario, "{name: direct, label: d2}", "{exec: [python3, mine.py], label: mine, timeout: soon}"), false},
		{"tree node without a name", replace(tree, "{name: h1}", "{relay: false}"), false},
		{"tree edge bandwidth zero", replace(tree, "bandwidth: 1", "bandwidth: 0"), false},
		{"tree edge duplex unknown", replace(tree, "latency: 0}", "latency: 0, duplex: simplex}"), false},
		{"broadcast size zero", replace(tree, "size: 1", "size: 0"), false},
		{"broadcast without roots", replace(tree, "roots: [h0], ", ""), false},
		{"workstation share 1", replace(ws, "{speed: 1}, {speed: 1}", "{speed: 1, share: 1}, {speed: 1}"), false},
		{"workstation speed missing", replace(ws, "{speed: 1}, {speed: 1}", "{share: 0.5}, {speed: 1}"), false},
		{"topology unknown", replace(ws, "topology: ring", "topology: star"), false},
		{"balance jitter 1", replace(ws, "interval: 1}", "interval: 1, jitter: 1}"), false},
		{"balance work missing", replace(ws, "work: 1, ", ""), false},
		{"balance tasks negative", replace(ws, "tasks: 4", "tasks: -4"), false},
		{"delay rho negative", replace(dag, "rho: 1", "rho: -1"), false},
		{"delay processors negative", replace(dag, "rho: 1}", "rho: 1, processors: -2}"), false},
		{"dag tasks and from", replace(dag, "edges:", "from: {fft: 8}, edges:"), false},
		{"dag two sources", replace(dag, "{tasks: [{weight: 1}, {weight: 2}], edges: [{from: 0, to: 1}]}", "{from: {fft: 8, gauss: 4}}"), false},
		{"dag no tasks", replace(dag, "{tasks: [{weight: 1}, {weight: 2}], edges: [{from: 0, to: 1}]}", "{tasks: []}"), false},
		{"dag weight negative", replace(dag, "{weight: 2}", "{weight: -2}"), false},
		{"dag edge data a word", replace(dag, "to: 1}", "to: 1, data: lots}"), false},
		{"dag edge from negative", replace(dag, "from: 0", "from: -1"), false},
		{"platform from a workflow", wf, true},
		{"platform from and a kind", replace(wf, "platform:\n", "platform:\n  delay: {rho: 1}\n"), false},
		{"platform from without bandwidth", replace(wf, ", bandwidth: 1e8", ""), false},
		{"platform from, alpha negative", replace(wf, "1e8", "1e8, alpha: -1"), false},
		{"platform from, memory given", replace(wf, "1e8", "1e8, memory: 2e10"), true},
		{"platform from, memory 0", replace(wf, "1e8", "1e8, memory: 0"), false},
		{"platform from, no file", replace(wf, "wfcommons: ../cmd/netsched/testdata/recorded-fork.json, ", ""), false},
		{"dag from generator", replace(dag, "{tasks: [{weight: 1}, {weight: 2}], edges: [{from: 0, to: 1}]}", "{from: {gauss: 4}}"), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, loadErr := scenarios.Parse("case.yaml", []byte(c.yaml))
			schemaErr := validateYAML(s, []byte(c.yaml))
			if c.valid {
				if loadErr != nil || schemaErr != nil {
					t.Errorf("want accepted by both; loader: %v; schema: %v", loadErr, schemaErr)
				}
				return
			}
			if loadErr == nil {
				t.Errorf("the loader accepts it; the case is wrong")
			}
			if schemaErr == nil {
				t.Errorf("the loader rejects it (%v), the schema accepts it", loadErr)
			}
		})
	}
}

// netsched builds the command into a temporary directory.
func netsched(t *testing.T) string {
	t.Helper()
	if err := srcstat.Stat("..", ".go", ".mod", ".sum"); err != nil {
		t.Fatal(err)
	}
	goTool := tooltest.Command(t, "go", "")
	bin := filepath.Join(t.TempDir(), "netsched")
	cmd := exec.Command(goTool, "build", "-o", bin, "../cmd/netsched")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestSchedulesNetschedWrites runs netsched run --out on a few bundled
// scenarios (under NETSCHED_SLOW=1, on every bundled scenario and every
// other scenario file that loads without a file of its own), and
// validates each schedule file it writes.
// Each file is also read back by schedfile and replayed: the schema and
// the reader agree on what netsched writes.
func TestSchedulesNetschedWrites(t *testing.T) {
	s := compile(t, schemas.ScheduleFile)
	bin := netsched(t)
	names := scenarios.Bundled()
	if testing.Short() || !slowtest.Enabled() {
		names = []string{"crossbar-hetero", "delay-small", "multicluster-two", "tree-small", "loadbalance-paper"}
	} else {
		for _, file := range scenarioFiles(t) {
			if !strings.Contains(file, "/bundled/") {
				if _, err := scenarios.Load(file); err == nil {
					names = append(names, file)
				}
			}
		}
	}
	total, ran := 0, 0
	for _, name := range names {
		out := t.TempDir()
		cmd := exec.Command(bin, "run", name, "--out", out, "--gantt", "none", "--seeds", "1", "-j", "1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			var exit *exec.ExitError
			switch {
			case errors.As(err, &exit) && exit.ExitCode() == 1: // a schedule failed verification, still written
			case errors.As(err, &exit) && exit.ExitCode() == 2 && !slices.Contains(scenarios.Bundled(), name):
				continue // a test's scenario that the sweep's checks refuse, as it should
			default:
				t.Errorf("netsched run %s: %v\n%s", name, err, stderr.String())
				continue
			}
		}
		ran++
		files, _ := filepath.Glob(filepath.Join(out, "*.schedule.json"))
		if len(files) == 0 {
			t.Errorf("netsched run %s --out wrote no schedule file", name)
		}
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			total++
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := validateJSON(s, data); err != nil {
				t.Errorf("%s: %s does not validate against %s:\n%v", name, filepath.Base(f), schemas.ScheduleFile, err)
			}
			sched, err := schedfile.Read(bytes.NewReader(data), &sc.Platform)
			if err != nil {
				t.Errorf("%s: %s: %v", name, filepath.Base(f), err)
				continue
			}
			if _, err := runs.Schedule(context.Background(), sc, sched, sim.Timed); err != nil {
				t.Errorf("%s: %s: %v", name, filepath.Base(f), err)
			}
		}
	}
	t.Logf("%d schedule files of %d scenarios validate", total, ran)
}

// TestScheduleRejected checks that schedule files netsched verify rejects
// for a field's name, type or range (the reader, or the replay's check of
// each action) are rejected by the schema too, and that good ones pass
// both.
func TestScheduleRejected(t *testing.T) {
	s := compile(t, schemas.ScheduleFile)
	sc, err := scenarios.Load("crossbar-hetero")
	if err != nil {
		t.Fatal(err)
	}
	const good = `{"policy": "mine", "claimed_makespan": 10,
 "actions": [
  {"kind": "compute", "node": "fast0", "amount": 1, "start": 0, "end": 0.05, "label": "x", "round": 1},
  {"kind": "transfer", "from": 0, "to": "slow2", "amount": 2, "start": 0.05, "after": [0]}
 ],
 "metrics": {"T": 1.5}, "warnings": ["w"]}`
	cases := []struct {
		name, json string
		valid      bool
	}{
		{"good", good, true},
		{"nulls", `{"policy": null, "claimed_makespan": 0, "actions": [{"kind": "compute", "node": 1, "start": null, "end": null, "after": null, "label": null, "round": null}], "metrics": null, "warnings": null}`, true},
		{"no actions", `{"claimed_makespan": 0, "actions": []}`, true},
		{"unknown top-level field", `{"claimed_makespan": 0, "actions": [], "makespan": 1}`, false},
		{"claim a string", `{"claimed_makespan": "10", "actions": []}`, false},
		{"actions an object", `{"claimed_makespan": 0, "actions": {}}`, false},
		{"metrics of words", `{"actions": [], "metrics": {"T": "fast"}}`, false},
		{"warnings of numbers", `{"actions": [], "warnings": [1]}`, false},
		{"not an object", `[]`, false},
		{"action unknown field", strings.Replace(good, `"label": "x"`, `"tag": "x"`, 1), false},
		{"action a number", `{"actions": [1]}`, false},
		{"compute with from", strings.Replace(good, `"node": "fast0"`, `"node": "fast0", "from": 1`, 1), false},
		{"transfer with node", strings.Replace(good, `"from": 0`, `"node": 0, "from": 0`, 1), false},
		{"node negative", strings.Replace(good, `"from": 0`, `"from": -1`, 1), false},
		{"node fractional", strings.Replace(good, `"from": 0`, `"from": 0.5`, 1), false},
		{"node a list", strings.Replace(good, `"from": 0`, `"from": [0]`, 1), false},
		{"amount a string", strings.Replace(good, `"amount": 1`, `"amount": "1"`, 1), false},
		{"start a string", strings.Replace(good, `"start": 0,`, `"start": "0",`, 1), false},
		{"after of words", strings.Replace(good, `"after": [0]`, `"after": ["zero"]`, 1), false},
		{"round fractional", strings.Replace(good, `"round": 1`, `"round": 1.5`, 1), false},
		{"label a number", strings.Replace(good, `"label": "x"`, `"label": 7`, 1), false},
		// read, then refused by the replay's check of each action
		{"kind unknown", strings.Replace(good, `"kind": "compute"`, `"kind": "move"`, 1), false},
		{"kind missing", strings.Replace(good, `"kind": "compute", `, ``, 1), false},
		{"amount negative", strings.Replace(good, `"amount": 1`, `"amount": -1`, 1), false},
		{"start negative", strings.Replace(good, `"start": 0,`, `"start": -1,`, 1), false},
		{"end negative", strings.Replace(good, `"end": 0.05`, `"end": -0.05`, 1), false},
		{"after negative", strings.Replace(good, `"after": [0]`, `"after": [-1]`, 1), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !json.Valid([]byte(c.json)) {
				t.Fatalf("the case is not JSON: %s", c.json)
			}
			netschedErr := readAndReplay(sc, c.json)
			schemaErr := validateJSON(s, []byte(c.json))
			if c.valid {
				if netschedErr != nil || schemaErr != nil {
					t.Errorf("want accepted by both; netsched: %v; schema: %v", netschedErr, schemaErr)
				}
				return
			}
			if netschedErr == nil {
				t.Errorf("netsched accepts it; the case is wrong")
			}
			if schemaErr == nil {
				t.Errorf("netsched rejects it (%v), the schema accepts it", netschedErr)
			}
		})
	}
}

// readAndReplay reads a schedule as netsched verify does and replays it
// on the scenario's platform; a violation is not an error, a schedule the
// reader or the engine refuses is.
func readAndReplay(sc *scenarios.Scenario, data string) error {
	sched, err := schedfile.Read(strings.NewReader(data), &sc.Platform)
	if err != nil {
		return err
	}
	_, err = runs.Schedule(context.Background(), sc, sched, sim.Ordered)
	return err
}

// TestYAMLValue checks the conversion of YAML into JSON values.
func TestYAMLValue(t *testing.T) {
	cases := []struct {
		yaml, json string
		err        bool
	}{
		{"a: 1\nb: [x, 2.5, true, null]\n", `{"a":1,"b":["x",2.5,true,null]}`, false},
		{"1: one\ntrue: yes\n", `{"1":"one","true":"yes"}`, false},
		{"base: &b {x: 1}\nother:\n  <<: *b\n  y: 2\n", `{"base":{"x":1},"other":{"x":1,"y":2}}`, false},
		{"a: .inf\n", "", true},
		{"? [1, 2]\n: x\n", "", true},
		{"a: 1\n---\nb: 2\n", "", true},
		{"", "", true},
		{"a: [\n", "", true},
	}
	for _, c := range cases {
		v, err := schemas.YAMLValue([]byte(c.yaml))
		if c.err {
			if err == nil {
				t.Errorf("YAMLValue(%q) = %v, want an error", c.yaml, v)
			}
			continue
		}
		if err != nil {
			t.Errorf("YAMLValue(%q): %v", c.yaml, err)
			continue
		}
		got, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.json {
			t.Errorf("YAMLValue(%q) = %s, want %s", c.yaml, got, c.json)
		}
	}
}

// TestScenarioExecPolicy checks the schema of an external policy's entry
// on its own: the forms package external documents pass, and a second
// program form or an option that is a list does not. (With the exec
// loader in the tree, TestScenariosValidate and TestScenarioRejected also
// hold these entries to it.)
func TestScenarioExecPolicy(t *testing.T) {
	s := compile(t, schemas.ScenarioFile)
	for _, c := range []struct {
		entry string
		valid bool
	}{
		{"{exec: [python3, my_sched.py], label: mine}", true},
		{"{exec: [python3, my_sched.py], label: mine, timeout: 60s, persistent: true, options: {k: 3, mode: fast}}", true},
		{"{exec: [./sched, --seed, 3], label: mine, timeout: 1.5}", true},
		{"{exec: [python3], label: mine, timeout: 1m30s}", true},
		{"{exec: python3, label: mine}", false},
		{"{exec: [python3, ''], label: mine}", false},
		{"{exec: [python3], label: mine, timeout: -1}", false},
		{"{exec: [python3], label: mine, persistent: yes-please}", false},
		{"{exec: [python3], label: mine, options: {k: [1, 2]}}", false},
		{"{exec: [python3], name: direct, label: mine}", false},
		{"{exec: [python3], label: 'my policy'}", false},
	} {
		doc := strings.Replace(baseScenario, "{name: direct, label: d2}", c.entry, 1)
		err := validateYAML(s, []byte(doc))
		if c.valid && err != nil {
			t.Errorf("%s: want valid, got %v", c.entry, err)
		}
		if !c.valid && err == nil {
			t.Errorf("%s: want rejected", c.entry)
		}
	}
}

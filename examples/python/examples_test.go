package python_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/internal/srcstat"
	"github.com/netsched/netsched/internal/tooltest"
	"github.com/netsched/netsched/models"
	_ "github.com/netsched/netsched/policies/all"
	"github.com/netsched/netsched/policies/external"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/schemas"
)

// netsched builds the command once for every test, or skips the test
// when python3 is missing.
var netsched = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "netsched-examples-")
	if err != nil {
		return "", err
	}
	// Rerun these tests when netsched's sources change, not only this
	// package's imports.
	if err := srcstat.Stat("../..", ".go", ".mod", ".sum"); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "netsched")
	out, err := exec.Command("go", "build", "-o", bin, "../../cmd/netsched").CombinedOutput()
	if err != nil {
		return "", &buildError{out}
	}
	return bin, nil
})

type buildError struct{ out []byte }

func (e *buildError) Error() string { return "go build: " + string(e.out) }

func TestMain(m *testing.M) {
	code := m.Run()
	if bin, err := netsched(); err == nil {
		os.RemoveAll(filepath.Dir(bin))
	}
	os.Exit(code)
}

// command returns the built netsched, skipping the test without python3.
func command(t *testing.T) string {
	t.Helper()
	skipWithoutPython(t)
	bin, err := netsched()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// skipWithoutPython skips a test when python3 is missing, and fails it
// under CI=true, where .ci/run installs it.
func skipWithoutPython(t testing.TB) {
	t.Helper()
	tooltest.Command(t, "python3", "python3")
}

// run runs netsched with args and returns its standard output and exit
// status.
func run(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(command(t), args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if stderr.Len() > 0 {
		t.Logf("netsched %s: stderr:\n%s", strings.Join(args, " "), stderr.String())
	}
	return stdout.String(), code
}

// rows reads CSV results into records by column name.
func rows(t *testing.T, data string) []map[string]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(data)).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("results %q: %v", data, err)
	}
	var out []map[string]string
	for _, rec := range recs[1:] {
		m := map[string]string{}
		for i, name := range recs[0] {
			m[name] = rec[i]
		}
		out = append(out, m)
	}
	return out
}

// script is the absolute path of an example script.
func script(t testing.TB, name string) string {
	abs, err := filepath.Abs(name)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// TestGoodPoliciesVerify runs the list scheduler on every bundled task
// graph scenario of the delay platform and the broadcast heuristic on
// every bundled tree broadcast, once per run and persistent, at the
// scenario's own values (at every point of its sweep with NETSCHED_SLOW=1,
// 10 s of CPU): every schedule must verify.
func TestGoodPoliciesVerify(t *testing.T) {
	command(t)
	tried := 0
	for _, name := range scenarios.Bundled() {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		var py string
		switch {
		case sc.Platform.Kind() == models.KindDelay && sc.Problem.Family() == models.FamilyDAG:
			py = "list_sched.py"
		case sc.Platform.Kind() == models.KindTree && sc.Problem.Family() == models.FamilyBroadcast:
			py = "broadcast.py"
		default:
			continue
		}
		tried++
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			file := withPolicies(t, name, []map[string]any{
				{"exec": []string{"python3", script(t, py)}, "label": "py"},
				{"exec": []string{"python3", script(t, py)}, "label": "py-persistent", "persistent": true},
			})
			cmd := "run"
			if slowtest.Enabled() {
				cmd = "sweep"
			}
			out, code := run(t, cmd, file, "--allow-exec", "--format", "csv")
			if code != 0 {
				t.Fatalf("exit status %d:\n%s", code, out)
			}
			got := map[string]int{}
			for _, r := range rows(t, out) {
				got[r["policy"]]++
				if r["verified"] != "true" {
					t.Errorf("%s at %v: not verified: %s", r["policy"], r, r["error"])
				}
			}
			if got["py"] == 0 || got["py"] != got["py-persistent"] {
				t.Errorf("runs per policy %v", got)
			}
		})
	}
	if tried < 4 {
		t.Errorf("only %d bundled scenarios have a task graph on the delay platform or a tree broadcast", tried)
	}
}

// withPolicies writes bundled scenario name with its policies replaced,
// and returns the file's path.
func withPolicies(t *testing.T, name string, policies []map[string]any) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "scenarios", "bundled", name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	doc["policies"] = policies
	// Axes of the scenario's own policies' options (LABEL.OPTION) go with
	// them; those of the platform and problem stay.
	if axes, ok := doc["sweep"].(map[string]any); ok {
		for path := range axes {
			head, _, dotted := strings.Cut(path, ".")
			if dotted && head != "platform" && head != "problem" {
				delete(axes, path)
			}
		}
		if len(axes) == 0 {
			delete(doc, "sweep")
		}
	}
	out, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), name+".yaml")
	if err := os.WriteFile(file, out, 0o666); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestExampleScenarios runs the example scenario files as their comments
// say: every policy verifies.
func TestExampleScenarios(t *testing.T) {
	for _, file := range []string{"list-sched.yaml", "broadcast.yaml"} {
		out, code := run(t, "run", file, "--allow-exec", "--format", "csv")
		if code != 0 {
			t.Errorf("%s: exit status %d:\n%s", file, code, out)
		}
		for _, r := range rows(t, out) {
			if r["verified"] != "true" {
				t.Errorf("%s: %s not verified: %s", file, r["policy"], r["error"])
			}
		}
	}
}

// sleepyTimeout is sleepy's timeout in TestMisbehaving: sleepy writes its
// line on stderr as soon as Python has started (tens of milliseconds of
// CPU), and the error row must show it, so the kill must come after it
// even on a machine loaded many times over, where the example's 3 s may
// not be enough.
const sleepyTimeout = "10s"

// misbehaving writes misbehaving.yaml with sleepy's timeout set to
// sleepyTimeout (and the scripts' paths made absolute), and returns the
// file's path.
func misbehaving(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("misbehaving.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, p := range doc["policies"].([]any) {
		p := p.(map[string]any)
		argv := p["exec"].([]any)
		argv[1] = script(t, argv[1].(string))
		if p["label"] == "sleepy" {
			p["timeout"] = sleepyTimeout
		}
	}
	out, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "misbehaving.yaml")
	if err := os.WriteFile(file, out, 0o666); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestMisbehaving sweeps the scenario of misbehaving policies with two
// seeds (all ten runs at once, so that sleepy's waits overlap): each failure is an error row naming its policy, with what went
// wrong and the end of its stderr, and the sweep runs every job, writes
// its results and then exits 1, saying how many runs failed.
func TestMisbehaving(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.csv")
	cmd := exec.Command(command(t), "sweep", misbehaving(t), "--allow-exec", "--seeds", "2", "--jobs", "10", "-o", out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(stderr.String(), "8 of 10 runs failed: see the error column") {
		t.Fatalf("netsched sweep misbehaving.yaml: %v, want exit status 1 and the count of failed runs on stderr; stderr:\n%s", err, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"list":               nil,
		"sleepy":             {"timed out: no schedule within " + sleepyTimeout + "; killed", "stderr: sleepy: thinking very hard"},
		"fails":              {"fails.py: exited with exit status 1", "RuntimeError: fails.py: no schedule for scenario policy fails"},
		"garbage":            {"garbage.py: printed no valid schedule", "line 1, column 1: invalid character 's'"},
		"garbage-persistent": {"garbage.py: printed no valid schedule", "line 1, column 1: invalid character 's'"},
	}
	count := map[string]int{}
	for _, r := range rows(t, string(data)) {
		p := r["policy"]
		count[p]++
		phrases, ok := want[p]
		switch {
		case !ok:
			t.Errorf("unexpected policy %q", p)
		case phrases == nil && r["verified"] != "true":
			t.Errorf("%s (seed %s) not verified: %s", p, r["seed"], r["error"])
		case phrases != nil:
			if r["verified"] != "false" || !strings.HasPrefix(r["error"], "policy "+p+": ") {
				t.Errorf("%s (seed %s): error %q does not name the policy", p, r["seed"], r["error"])
			}
			for _, w := range phrases {
				if !strings.Contains(r["error"], w) {
					t.Errorf("%s (seed %s): error %q does not say %q", p, r["seed"], r["error"], w)
				}
			}
		}
	}
	for p := range want {
		if count[p] != 2 {
			t.Errorf("%s has %d rows, want one per seed", p, count[p])
		}
	}
	// netsched run of the example itself (sleepy's timeout 3 s) reports
	// the same failures and exits 1.
	if _, code := run(t, "run", "misbehaving.yaml", "--allow-exec"); code != 1 {
		t.Errorf("run: exit status %d, want 1", code)
	}
}

// TestSweepExecOption sweeps an option of an external policy, which it
// receives as it is: the list scheduler uses at most that many processors.
func TestSweepExecOption(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.yaml")
	scenario := `platform: {delay: {rho: 3}}
problem: {dag: {from: {gauss: 8}}}
policies:
  - {exec: [python3, ` + script(t, "list_sched.py") + `], label: list, persistent: true}
sweep:
  list.processors: [1, 2, 3]
`
	if err := os.WriteFile(file, []byte(scenario), 0o666); err != nil {
		t.Fatal(err)
	}
	out, code := run(t, "sweep", file, "--allow-exec", "--format", "csv")
	if code != 0 {
		t.Fatalf("exit status %d:\n%s", code, out)
	}
	rs := rows(t, out)
	if len(rs) != 3 {
		t.Fatalf("%d rows, want 3:\n%s", len(rs), out)
	}
	for _, r := range rs {
		if r["verified"] != "true" || r["metric.processors"] > r["list.processors"] {
			t.Errorf("processors %s: used %s, verified %s", r["list.processors"], r["metric.processors"], r["verified"])
		}
	}
	if rs[0]["metric.processors"] != "1" || rs[0]["claimed_makespan"] == rs[2]["claimed_makespan"] {
		t.Errorf("one processor should make a longer schedule than three:\n%s", out)
	}
}

// TestExamplesPrintValidSchedules runs each good example once on the
// instance of a bundled scenario, as netsched writes it, and validates
// what it prints against schemas/schedule.schema.json.
func TestExamplesPrintValidSchedules(t *testing.T) {
	skipWithoutPython(t)
	schema, err := schemas.Compile(schemas.ScheduleFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ scenario, script string }{
		{"delay-small", "list_sched.py"},
		{"clustering-fft", "list_sched.py"},
		{"tree-small", "broadcast.py"},
		{"broadcast-fig14", "broadcast.py"},
	} {
		sc, err := scenarios.Load(tc.scenario)
		if err != nil {
			t.Fatal(err)
		}
		in, err := external.NewInstance(sc.Instance(0, 1), "py").Marshal()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("python3", tc.script)
		cmd.Stdin = bytes.NewReader(append(in, '\n'))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s on %s: %v", tc.script, tc.scenario, err)
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("%s on %s: %v", tc.script, tc.scenario, err)
		}
		if err := schema.Validate(v); err != nil {
			t.Errorf("%s on %s prints a schedule the schema refuses: %v", tc.script, tc.scenario, err)
		}
	}
}

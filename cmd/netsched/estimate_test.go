package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/internal/slowtest"
)

// estimateCase is an input whose memory netsched estimates: the
// estimate is read from its refusal under a budget of budget.Least, and
// the resident memory measured running it within the default budget.
type estimateCase struct {
	name  string
	files map[string]string
	args  []string // run, sweep, gantt or verify, relative to the folder of files
}

func estimateCases() []estimateCase {
	var listed, dot strings.Builder
	listed.WriteString("platform:\n  crossbar:\n    beta: 0.01\n    duplex: half\n    processors:\n")
	for i := range 100_000 {
		fmt.Fprintf(&listed, "      - {name: p%d, gamma: 1, load: 1}\n", i)
	}
	listed.WriteString("problem: {divisible: {rounds: auto}}\npolicies: [no-redistribution]\n")
	dot.WriteString("digraph g {\n")
	for i := range 1_000_000 {
		fmt.Fprintf(&dot, "t%d -> t%d;\n", i%1000, 1000+i)
	}
	dot.WriteString("}\n")
	text := dot.String()
	cut := strings.Index(text[len(text)/5:], "\n") + len(text)/5 + 1 // a fifth of the edges, with node defaults: gonum's parser
	full := strings.Replace(text[:cut], "digraph g {\n", "digraph g {\nnode [shape=box];\n", 1) + "}\n"
	crossbar := func(processors, problem string) string {
		return "platform:\n  crossbar:\n    beta: 0.01\n    duplex: half\n    processors:\n" + processors +
			"problem:\n  " + problem + "\npolicies: [mmdl]\n"
	}
	return []estimateCase{
		{"STG file", map[string]string{"s.yaml": delayDAGFrom("stg: g.stg"), "g.stg": stgChain(300_000)}, []string{"gantt", "s.yaml", "-p", "none", "-o", "g.png"}},
		{"WfCommons file", map[string]string{"s.yaml": delayDAGFrom("wfcommons: w.json"), "w.json": wfChain(50_000)}, []string{"gantt", "s.yaml", "-p", "none", "-o", "g.png"}},
		{"scenario file", map[string]string{"s.yaml": listed.String()}, []string{"gantt", "s.yaml", "-p", "none", "-o", "g.png"}},
		{"DOT file", map[string]string{"s.yaml": delayDAGFrom("dot: g.dot"), "g.dot": dot.String()}, []string{"gantt", "s.yaml", "-p", "none", "-o", "g.png"}},
		{"DOT file, full parser", map[string]string{"s.yaml": delayDAGFrom("dot: g.dot"), "g.dot": full}, []string{"gantt", "s.yaml", "-p", "none", "-o", "g.png"}},
		{"generated graph", map[string]string{"s.yaml": delayDAGFrom("gauss: 500")}, []string{"run", "s.yaml"}},
		{"generated processors", map[string]string{"s.yaml": crossbar("      {count: 200000, gamma: 1, load: 1}\n", "divisible: {rounds: auto}")}, []string{"run", "s.yaml"}},
		{"rounds", map[string]string{"s.yaml": crossbar("      - {gamma: 0.05, load: 600}\n      - {gamma: 0.05}\n", "divisible: {rounds: 100000}")}, []string{"run", "s.yaml"}},
		{"schedule file", map[string]string{"s.json": bigSchedule(200_000)}, []string{"verify", "-s", "crossbar-hetero", "s.json"}},
		{"tree pairs", map[string]string{"s.yaml": starTree(1000)}, []string{"run", "s.yaml"}},
		{"sweep rows", nil, []string{"sweep", "delay-small", "--set", "rho=0:4999:1", "--seeds", "10", "-q", "--format", "csv", "--jobs", "1"}},
	}
}

// stgChain is a task graph of the Standard Task Graph Set's format: a
// chain of n tasks between its entry and exit dummies.
func stgChain(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%11d\n%11d%11d%11d\n", n, 0, 0, 0)
	for i := 1; i <= n+1; i++ {
		fmt.Fprintf(&b, "%11d%11d%11d%11d\n", i, i%10, 1, i-1)
	}
	return b.String()
}

// wfChain is a WfCommons instance (WfFormat 1.5) of a chain of n tasks,
// each passing a file to the next.
func wfChain(n int) string {
	var tasks, files, runs []string
	for i := range n {
		var children, parents, in string
		if i+1 < n {
			children = fmt.Sprintf(`"t%d"`, i+1)
		}
		if i > 0 {
			parents, in = fmt.Sprintf(`"t%d"`, i-1), fmt.Sprintf(`"f%d"`, i-1)
		}
		tasks = append(tasks, fmt.Sprintf(`{"name": "t%d", "id": "t%d", "children": [%s], "parents": [%s], "inputFiles": [%s], "outputFiles": ["f%d"]}`, i, i, children, parents, in, i))
		files = append(files, fmt.Sprintf(`{"id": "f%d", "sizeInBytes": 1000}`, i))
		runs = append(runs, fmt.Sprintf(`{"id": "t%d", "runtimeInSeconds": 1.5}`, i))
	}
	return `{"name": "chain", "schemaVersion": "1.5", "workflow": {"specification": {"tasks": [` + strings.Join(tasks, ",\n") +
		`], "files": [` + strings.Join(files, ",\n") + `]}, "execution": {"makespanInSeconds": 1, "executedAt": "2020", "tasks": [` +
		strings.Join(runs, ",\n") + `], "machines": []}}}`
}

// about reads the estimate of a refusal: "needs about 1.5 GiB of memory".
var about = regexp.MustCompile(`about ([0-9.e+]+ [KMGT]?i?B) of memory`)

// rssSlack is how far the peak resident memory may pass the budget that
// TestEstimatesOnSafeSide sets (see there).
const rssSlack = 1.25

// TestEstimatesOnSafeSide checks each estimate of the memory budget
// against the resident memory it predicts: given a budget of the
// estimate plus budget.Least (what netsched takes to run at all), which
// the input then fits, netsched runs it and its resident memory stays
// within that budget (the Go runtime's memory limit, which makes its
// garbage collector keep the heap down). Set NETSCHED_SLOW=1 to run it.
func TestEstimatesOnSafeSide(t *testing.T) {
	slowtest.Skip(t)
	bin := buildNetsched(t)
	for _, tc := range estimateCases() {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o666); err != nil {
					t.Fatal(err)
				}
			}
			run := func(args ...string) (*os.ProcessState, string) {
				cmd := exec.Command(bin, args...)
				cmd.Dir = dir
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				cmd.Run()
				return cmd.ProcessState, stderr.String()
			}
			// Each refusal names an estimate; the input may pass several
			// checks, so the budget grows to each estimate in turn.
			var estimate, limit budget.Bytes
			st, errs := run(append(tc.args, "--max-memory", "16MiB")...)
			for k := 0; ; k++ {
				m := about.FindStringSubmatch(errs)
				if code := st.ExitCode(); code != 2 && k > 0 || code == 2 && m == nil && strings.Contains(errs, `has no policy labelled or named "none"`) {
					break
				}
				if st.ExitCode() != 2 || m == nil || k == 3 {
					t.Fatalf("under a budget of %s: exit %d, %q; want a refusal with the estimate", budget.Format(float64(limit)), st.ExitCode(), errs)
				}
				e, err := budget.Parse(strings.ReplaceAll(m[1], " ", ""))
				if err != nil || e <= estimate {
					t.Fatalf("estimate %q after %s: %v", m[1], budget.Format(float64(estimate)), err)
				}
				estimate, limit = e, e+budget.Least
				st, errs = run(append(tc.args, "--max-memory", fmt.Sprintf("%dB", limit))...)
			}
			if st.ExitCode() > 2 {
				t.Fatalf("exit %d: %s", st.ExitCode(), errs)
			}
			rss := st.SysUsage().(*syscall.Rusage).Maxrss << 10
			t.Logf("estimate %s, resident %s (%.2f of the estimate)", budget.Format(float64(estimate)), budget.Format(float64(rss)), float64(rss)/float64(estimate))
			// The budget is the Go runtime's memory limit, a soft one: the
			// heap may pass it while the collector catches up, and pages it
			// frees stay resident until the scavenger returns them. Measured
			// on a loaded machine, the peak passed the limit by up to 18 %
			// in one run or another on cases that fit in others; 25 % more
			// still fails an estimate of the wrong size.
			if allowed := int64(float64(limit) * rssSlack); rss > allowed {
				t.Errorf("resident %s, above the estimate %s plus %s, and %.0f %% more", budget.Format(float64(rss)),
					budget.Format(float64(estimate)), budget.Format(float64(budget.Least)), 100*(rssSlack-1))
			}
		})
	}
}

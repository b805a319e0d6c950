package external

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
)

// schedule is a valid answer for instance below: task "a" on P0.
const schedule = `{"claimed_makespan": 2, "actions": [{"kind": "compute", "node": "P0", "amount": 2, "start": 0, "label": "a"}]}`

// instance is a one-task graph on the delay platform.
func instance() policies.Instance {
	return policies.Instance{
		Platform: &models.Platform{Delay: &models.Delay{Rho: 1}},
		Problem:  &models.Problem{DAG: &models.DAG{Tasks: []models.Task{{Weight: 2}}}},
		Options:  policies.Options{"k": 3},
		Seed:     7,
	}
}

// sh is a policy that runs script with sh.
func sh(script string, persistent bool, timeout time.Duration) *Policy {
	return New(Spec{Command: []string{"sh", "-c", script}, Persistent: persistent, Timeout: timeout}, "mine")
}

// shTimeout is the timeout of the tests' processes that must be killed
// by it: long enough for sh to start and write what the test reads (on
// stderr, in a file) before the kill, however loaded the machine.
const shTimeout = 2 * time.Second

func TestPlanOnce(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.json")
	p := sh("cat > "+in+"; echo '"+schedule+"'", false, 0)
	s, err := p.Plan(context.Background(), instance())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Actions) != 1 || s.Actions[0].Node != 0 || s.Claimed != 2 || s.Actions[0].Label != "a" {
		t.Errorf("schedule read as %+v", s)
	}
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(data), "\n") != 1 || !strings.HasSuffix(string(data), "}\n") {
		t.Errorf("the instance is not one line of JSON: %q", data)
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	var x Instance
	if err := dec.Decode(&x); err != nil {
		t.Fatalf("instance does not decode into Instance: %v", err)
	}
	if x.Format != InstanceFormat || x.Policy != "mine" || x.Seed != 7 || x.Options["k"] != 3.0 ||
		x.Platform.Delay.Rho != 1 || x.Problem.DAG.Tasks[0].Name != "t0" || len(x.Nodes) != 0 {
		t.Errorf("instance written as %s", data)
	}
}

func TestNodesByName(t *testing.T) {
	in := policies.Instance{
		Platform: &models.Platform{Crossbar: &models.Crossbar{Beta: 1, Duplex: models.HalfDuplex,
			Processors: []models.Processor{{Name: "fast", Gamma: 1, Load: 1}, {Gamma: 2}}}},
		Problem: &models.Problem{Divisible: &models.Divisible{}},
	}
	x := NewInstance(in, "mine")
	if strings.Join(x.Nodes, ",") != "fast,P1" {
		t.Errorf("nodes %q, want fast,P1", x.Nodes)
	}
}

// TestFailures runs misbehaving processes, one at a time and persistent:
// each failure is an *Error saying what happened, with the end of stderr.
func TestFailures(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		timeout      time.Duration
		want         []string
	}{
		{"exit", "echo first >&2; echo 'line two' >&2; exit 1", 0, []string{"exit status 1", "stderr: first | line two"}},
		{"garbage", "read -r line; echo 'not json'", 0, []string{"printed no valid schedule", "invalid character"}},
		{"empty", "read -r line", 0, []string{"no schedule", "stderr empty"}},
		{"unknown node", `read -r line; echo '{"claimed_makespan":1,"actions":[{"kind":"compute","node":"Q","amount":1}]}'`, 0,
			[]string{`no node is named "Q"`}},
		{"timeout", "echo sleeping >&2; sleep 30", shTimeout, []string{"timed out", "stderr: sleeping"}},
		{"missing program", "", 0, []string{"cannot start"}},
	} {
		for _, persistent := range []bool{false, true} {
			t.Run(tc.name+"/persistent="+strconv.FormatBool(persistent), func(t *testing.T) {
				p := sh(tc.script, persistent, tc.timeout)
				if tc.name == "missing program" {
					p = New(Spec{Command: []string{filepath.Join(t.TempDir(), "nothing")}, Persistent: persistent}, "mine")
				}
				defer p.Close()
				begin := time.Now()
				_, err := p.Plan(context.Background(), instance())
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("got %v, want an *Error", err)
				}
				for _, w := range tc.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not say %q", err, w)
					}
				}
				if d := time.Since(begin); d > tc.timeout+5*time.Second && slowtest.TimingEnabled() {
					t.Errorf("took %v", d)
				}
			})
		}
	}
}

// TestTimeoutKillsGroup checks that a timeout kills what the process
// started too.
func TestTimeoutKillsGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	p := sh("sleep 30 & echo $! > "+pidFile+"; wait", false, shTimeout)
	_, err := p.Plan(context.Background(), instance())
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("got %v, want a timeout", err)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if !gone(pid) {
		t.Errorf("the process's child %d still runs after the timeout", pid)
	}
}

// gone waits until process pid has ended (or is a zombie), polling its
// state; false if it still runs after a minute, far longer than a kill
// takes on a loaded machine.
func gone(pid int) bool {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return true
		}
		if f := strings.Fields(string(stat)); len(f) > 2 && f[2] == "Z" {
			return true
		}
	}
	return false
}

func TestCancelKills(t *testing.T) {
	for _, persistent := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(200*time.Millisecond, cancel)
		p := sh("sleep 30", persistent, time.Minute)
		begin := time.Now()
		_, err := p.Plan(ctx, instance())
		if err == nil || !strings.Contains(err.Error(), "cancelled") {
			t.Errorf("persistent=%v: got %v, want cancelled", persistent, err)
		}
		if d := time.Since(begin); d > 5*time.Second && slowtest.TimingEnabled() {
			t.Errorf("persistent=%v: cancel took %v", persistent, d)
		}
		p.Close()
	}
}

// TestPersistent checks that one process answers line after line, and a
// new one starts after a failure.
func TestPersistent(t *testing.T) {
	// Answers two instances, then exits 4: the third planning fails, the
	// fourth gets a new process.
	script := `n=0; while read -r line; do n=$((n+1)); if [ $n -gt 2 ]; then echo "third: bye" >&2; exit 4; fi
echo '{"claimed_makespan": 2, "actions": [{"kind": "compute", "node": 0, "amount": 2, "start": 0, "label": "a"}], "metrics": {"pid": '$$', "n": '$n'}}'; done`
	p := sh(script, true, 5*time.Second)
	defer p.Close()
	var pids []float64
	for i := range 5 {
		s, err := p.Plan(context.Background(), instance())
		if i == 2 {
			if err == nil || !strings.Contains(err.Error(), "exit status 4") || !strings.Contains(err.Error(), "third: bye") {
				t.Fatalf("planning 3: got %v, want exit status 4 with its stderr", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("planning %d: %v", i+1, err)
		}
		pids = append(pids, s.Metrics["pid"])
		want := float64(i + 1)
		if i > 2 {
			want = float64(i - 2)
		}
		if s.Metrics["n"] != want {
			t.Errorf("planning %d was the process's instance %v, want %v", i+1, s.Metrics["n"], want)
		}
	}
	if pids[0] != pids[1] || pids[2] != pids[3] || pids[1] == pids[2] {
		t.Errorf("process ids %v: want one process for the first two plannings, a new one after the failure", pids)
	}
	pid := int(pids[3])
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if !gone(pid) {
		t.Errorf("process %d still runs after Close", pid)
	}
}

func TestReadLine(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{"abc\ndef\n", "abc", ""},
		{"abc\r\n", "abc", ""},
		{"abc", "", "no end of line"},
		{"", "", "EOF"},
		{strings.Repeat("x", 100) + "\n", "", "more than"},
	} {
		got, err := readLine(newReader(tc.in), 50, errors.New("printed more than 50 B"))
		if tc.err == "" && (err != nil || string(got) != tc.want) || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("readLine(%q) = %q, %v; want %q, %q", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestTail(t *testing.T) {
	var tl tail
	for i := range 3000 {
		tl.Write([]byte("line " + strconv.Itoa(i) + "\n\n"))
	}
	tl.Write([]byte(strings.Repeat("é", 400)))
	got := tl.lines()
	if len(got) != tailLines || got[0] != "line 2996" || got[3] != "line 2999" || !strings.HasSuffix(got[4], "é…") {
		t.Errorf("tail %q", got)
	}
}

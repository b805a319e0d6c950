package tracefile_test

import (
	"bytes"
	"cmp"
	"math"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/tooltest"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/tracefile"
)

// pajeState is one state as pj_dump shows it, or as the trace has it.
type pajeState struct {
	lane, kind, value string
	start, end        float64
}

// TestPajeReadBackByPajeng reads every bundled scenario's Paje trace back
// with pajeng's pj_dump and finds each interval of the trace as one state:
// on a container of its lane, of its kind, with its label, start and end.
func TestPajeReadBackByPajeng(t *testing.T) {
	pjDump := tooltest.Command(t, "pj_dump", "pajeng")
	dir := t.TempDir()
	for k, nt := range bundledTraces(t) {
		t.Run(nt.name, func(t *testing.T) {
			path := filepath.Join(dir, strconv.Itoa(k)+".paje")
			if err := tracefile.Save(nt.tr, nt.name, path); err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd := exec.Command(pjDump, "--float-precision=15", path)
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("pj_dump %s: %v\n%s", path, err, stderr.Bytes())
			}
			got := dumpedStates(t, nt.tr, string(out))
			want := traceStates(nt.tr)
			if len(got) != len(want) {
				t.Fatalf("pj_dump shows %d states, the trace has %d intervals", len(got), len(want))
			}
			for i := range want {
				g, w := got[i], want[i]
				if g.lane != w.lane || g.kind != w.kind || g.value != w.value || !near(g.start, w.start) || !near(g.end, w.end) {
					t.Fatalf("state %d: pj_dump shows %+v, the trace has %+v", i, g, w)
				}
			}
		})
	}
}

// trackSuffix is what a lane's further tracks add to its name.
var trackSuffix = regexp.MustCompile(` #[0-9]+$`)

// dumpedStates parses pj_dump's State lines ("State, container, type,
// start, end, duration, imbrication, value"), mapping each container back
// to its lane, sorted as traceStates sorts.
func dumpedStates(t *testing.T, tr *sim.Trace, dump string) []pajeState {
	t.Helper()
	var states []pajeState
	for line := range strings.Lines(dump) {
		f := strings.Split(strings.TrimSuffix(line, "\n"), ", ")
		if f[0] != "State" {
			continue
		}
		if len(f) != 8 {
			t.Fatalf("pj_dump line with %d fields, want 8 (a comma in a name?): %q", len(f), line)
		}
		lane := trackSuffix.ReplaceAllString(f[1], "")
		if !slices.Contains(tr.Lanes, lane) {
			t.Fatalf("pj_dump line on container %q, which is no lane's: %q", f[1], line)
		}
		if f[6] != "0.000000000000000" {
			t.Fatalf("pj_dump line with imbrication %s, want 0 (a track's states never overlap): %q", f[6], line)
		}
		s := pajeState{lane: lane, kind: f[2], value: f[7]}
		var err1, err2 error
		s.start, err1 = strconv.ParseFloat(f[3], 64)
		s.end, err2 = strconv.ParseFloat(f[4], 64)
		if err := cmp.Or(err1, err2); err != nil {
			t.Fatalf("pj_dump line %q: %v", line, err)
		}
		states = append(states, s)
	}
	sortStates(states)
	return states
}

// traceStates is every interval of tr as the Paje trace should show it.
func traceStates(tr *sim.Trace) []pajeState {
	states := make([]pajeState, len(tr.Intervals))
	for i, iv := range tr.Intervals {
		value := iv.Label
		if value == "" {
			value = string(iv.Kind)
		}
		states[i] = pajeState{tr.Lanes[iv.Lane], string(iv.Kind), value, iv.Start, iv.End}
	}
	sortStates(states)
	return states
}

func sortStates(s []pajeState) {
	slices.SortFunc(s, func(a, b pajeState) int {
		return cmp.Or(cmp.Compare(a.lane, b.lane), cmp.Compare(a.kind, b.kind), cmp.Compare(a.value, b.value),
			cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end))
	})
}

// near reports whether pj_dump's printed time matches the trace's, to the
// 15 decimals it prints and float64's own precision.
func near(got, want float64) bool {
	return math.Abs(got-want) <= 1e-12*max(1, math.Abs(want))
}

// TestPajeSmall checks the Paje trace of a small trace with overlaps, a
// zero-length interval, an idle lane and names to sanitise, byte for byte:
// no comment line, and each state's value in its kind's colour, compute,
// send and link apart.
func TestPajeSmall(t *testing.T) {
	tr := &sim.Trace{Lanes: []string{"P0", "P1", "link"}}
	tr.Record(sim.Interval{Lane: 0, Kind: sim.KindCompute, Start: 0, End: 2.5, Amount: 5, Label: `say "hi"`})
	tr.Record(sim.Interval{Lane: 0, Kind: sim.KindSend, Start: 1, End: 1.1, Amount: 1, Label: "B\nC"})
	tr.Record(sim.Interval{Lane: 2, Kind: sim.KindLink, Start: 1, End: 1, Action: -1})
	var buf bytes.Buffer
	if err := tracefile.WritePaje(&buf, tr, ""); err != nil {
		t.Fatal(err)
	}
	body := buf.String()[strings.LastIndex(buf.String(), "%EndEventDef\n")+len("%EndEventDef\n"):]
	want := `0 Platform 0 "Platform"
0 Lane Platform "Lane"
1 s0 Lane "compute"
1 s1 Lane "link"
1 s2 Lane "send"
6 v0 s0 "say 'hi'" "0.337 0.706 0.914"
6 v1 s2 "B C" "0.902 0.624 0"
6 v2 s1 "link" "0.8 0.475 0.655"
2 0 root Platform 0 "platform"
2 0 c0 Lane root "P0"
2 0 c1 Lane root "P0 #2"
2 0 c2 Lane root "P1"
2 0 c3 Lane root "link"
4 0 s0 c0 v0
4 1 s2 c1 v1
4 1 s1 c3 v2
5 1 s1 c3
5 1.1 s2 c1
5 2.5 s0 c0
3 2.5 Lane c0
3 2.5 Lane c1
3 2.5 Lane c2
3 2.5 Lane c3
3 2.5 Platform root
`
	if body != want {
		t.Errorf("got\n%s\nwant\n%s", body, want)
	}
	// ViTE warns about every comment line; the file starts with the header.
	if !strings.HasPrefix(buf.String(), "%EventDef PajeDefineContainerType 0\n") || strings.Contains(buf.String(), "\n#") {
		t.Errorf("the trace has a comment line or does not start with the header:\n%s", buf.String()[:80])
	}
}

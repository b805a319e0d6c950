package tracefile_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/tracefile"
)

// TestJSONTraceEventFormat checks the JSON of every bundled scenario's
// trace: it parses, every event has the Trace Event Format's required
// fields (name, ph, ts, pid, tid; dur for X), every track is named, and
// every interval appears once, as one complete event.
func TestJSONTraceEventFormat(t *testing.T) {
	for _, nt := range bundledTraces(t) {
		t.Run(nt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tracefile.WriteJSON(&buf, nt.tr, nt.name); err != nil {
				t.Fatal(err)
			}
			checkJSON(t, nt.tr, buf.Bytes())
		})
	}
}

// checkJSON checks a trace's JSON against the trace.
func checkJSON(t *testing.T, tr *sim.Trace, data []byte) {
	t.Helper()
	var doc struct {
		TraceEvents []map[string]any `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("the JSON does not parse: %v", err)
	}
	threads := map[float64]string{} // tid → thread name
	seen := map[string]int{}        // interval key → complete events
	for i, ev := range doc.TraceEvents {
		required := []string{"name", "ph", "ts", "pid", "tid"}
		if ev["ph"] == "X" {
			required = append(required, "dur")
		}
		for _, f := range required {
			if _, ok := ev[f]; !ok {
				t.Fatalf("event %d lacks %q: %v", i, f, ev)
			}
		}
		tid, _ := ev["tid"].(float64)
		switch ev["ph"] {
		case "M":
			if ev["name"] == "thread_name" {
				threads[tid] = ev["args"].(map[string]any)["name"].(string)
			}
		case "X":
			name, ok := threads[tid]
			if !ok {
				t.Fatalf("event %d on tid %v, which has no thread_name before it", i, tid)
			}
			args := ev["args"].(map[string]any)
			key := fmt.Sprintf("%s|%v|%s|%v|%v|%v|%v|%v", trackSuffix.ReplaceAllString(name, ""), ev["cat"], ev["name"],
				ev["ts"], ev["dur"], args["amount"], args["round"], args["action"])
			seen[key]++
		default:
			t.Fatalf("event %d has phase %v, want M or X", i, ev["ph"])
		}
	}
	want := map[string]int{}
	for _, iv := range tr.Intervals {
		name := iv.Label
		if name == "" {
			name = string(iv.Kind)
		}
		// As the JSON gives them: microseconds to the thousandth.
		start, end := math.Round(iv.Start*1e9), math.Round(iv.End*1e9)
		key := fmt.Sprintf("%s|%v|%s|%v|%v|%v|%v|%v", tr.Lanes[iv.Lane], iv.Kind, name,
			start/1e3, (end-start)/1e3, iv.Amount, float64(iv.Round), float64(iv.Action))
		want[key]++
	}
	if len(seen) != len(want) {
		t.Errorf("%d distinct complete events, want %d", len(seen), len(want))
	}
	for k, n := range want {
		if seen[k] != n {
			t.Errorf("interval %s: %d complete events, want %d", k, seen[k], n)
		}
	}
}

// TestJSONSmall checks the events of a small trace with overlaps, a
// zero-length interval and an idle lane, byte for byte.
func TestJSONSmall(t *testing.T) {
	tr := &sim.Trace{Lanes: []string{"P0", "P1", "link"}}
	tr.Record(sim.Interval{Lane: 0, Kind: sim.KindCompute, Start: 0, End: 2.5, Amount: 5, Label: "A", Action: 0})
	tr.Record(sim.Interval{Lane: 0, Kind: sim.KindSend, Start: 1, End: 1.1, Amount: 1, Label: "B", Round: 1, Action: 1})
	tr.Record(sim.Interval{Lane: 2, Kind: sim.KindLink, Start: 1, End: 1, Amount: 0, Action: -1})
	var buf bytes.Buffer
	if err := tracefile.WriteJSON(&buf, tr, ""); err != nil {
		t.Fatal(err)
	}
	want := `{"otherData": {"generator": "netsched", "time": "1 s shown = 1 unit of model time"},
"traceEvents": [
{"name":"process_name","ph":"M","ts":0,"pid":1,"tid":0,"args":{"name":"platform"}},
{"name":"thread_name","ph":"M","ts":0,"pid":1,"tid":1,"args":{"name":"P0"}},
{"name":"thread_sort_index","ph":"M","ts":0,"pid":1,"tid":1,"args":{"sort_index":0}},
{"name":"thread_name","ph":"M","ts":0,"pid":1,"tid":2,"args":{"name":"P0 #2"}},
{"name":"thread_sort_index","ph":"M","ts":0,"pid":1,"tid":2,"args":{"sort_index":1}},
{"name":"thread_name","ph":"M","ts":0,"pid":1,"tid":3,"args":{"name":"P1"}},
{"name":"thread_sort_index","ph":"M","ts":0,"pid":1,"tid":3,"args":{"sort_index":2}},
{"name":"thread_name","ph":"M","ts":0,"pid":1,"tid":4,"args":{"name":"link"}},
{"name":"thread_sort_index","ph":"M","ts":0,"pid":1,"tid":4,"args":{"sort_index":3}},
{"name":"A","cat":"compute","ph":"X","ts":0,"dur":2500000,"pid":1,"tid":1,"args":{"amount":5,"round":0,"action":0}},
{"name":"B","cat":"send","ph":"X","ts":1000000,"dur":100000,"pid":1,"tid":2,"args":{"amount":1,"round":1,"action":1}},
{"name":"link","cat":"link","ph":"X","ts":1000000,"dur":0,"pid":1,"tid":4,"args":{"amount":0,"round":0,"action":-1}}
]}
`
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	checkJSON(t, tr, buf.Bytes())
}

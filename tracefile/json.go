package tracefile

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/netsched/netsched/sim"
)

// pid is the process that stands for the platform.
const pid = 1

// metaEvent is a Trace Event Format metadata event (ph "M").
type metaEvent struct {
	Name string  `json:"name"`
	Ph   string  `json:"ph"`
	Ts   float64 `json:"ts"`
	Pid  int     `json:"pid"`
	Tid  int     `json:"tid"`
	Args any     `json:"args"`
}

// completeEvent is a Trace Event Format complete event (ph "X").
type completeEvent struct {
	Name string       `json:"name"`
	Cat  string       `json:"cat"`
	Ph   string       `json:"ph"`
	Ts   float64      `json:"ts"`
	Dur  float64      `json:"dur"`
	Pid  int          `json:"pid"`
	Tid  int          `json:"tid"`
	Args intervalArgs `json:"args"`
}

// intervalArgs are the interval's fields that a complete event has no
// place for.
type intervalArgs struct {
	Amount float64 `json:"amount"`
	Round  int     `json:"round"`
	Action int     `json:"action"`
}

// WriteJSON writes tr to w in the Trace Event Format's JSON object form,
// for Chrome tracing (chrome://tracing) and Perfetto (ui.perfetto.dev).
// The title names the platform's process ("platform" when empty). See the
// package documentation for the mapping; the same trace gives the same
// bytes.
func WriteJSON(w io.Writer, tr *sim.Trace, title string) error {
	tracks, err := layout(tr)
	if err != nil {
		return err
	}
	if title == "" {
		title = "platform"
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "{\"otherData\": {\"generator\": \"netsched\", \"time\": \"1 s shown = 1 unit of model time\"},\n\"traceEvents\": [\n")
	sep := ""
	emit := func(ev any) error {
		b, err := json.Marshal(ev)
		if err != nil {
			return fmt.Errorf("tracefile: %w", err)
		}
		bw.WriteString(sep)
		bw.Write(b)
		sep = ",\n"
		return nil
	}
	meta := []metaEvent{{Name: "process_name", Ph: "M", Pid: pid, Args: map[string]string{"name": title}}}
	for k, t := range tracks {
		meta = append(meta,
			metaEvent{Name: "thread_name", Ph: "M", Pid: pid, Tid: k + 1, Args: map[string]string{"name": t.name}},
			metaEvent{Name: "thread_sort_index", Ph: "M", Pid: pid, Tid: k + 1, Args: map[string]int{"sort_index": k}})
	}
	for _, ev := range meta {
		if err := emit(ev); err != nil {
			return err
		}
	}
	type placed struct{ iv, tid int }
	var ivs []placed
	for k, t := range tracks {
		for _, i := range t.ivs {
			ivs = append(ivs, placed{i, k + 1})
		}
	}
	slices.SortFunc(ivs, func(a, b placed) int {
		x, y := &tr.Intervals[a.iv], &tr.Intervals[b.iv]
		return cmp.Or(cmp.Compare(x.Start, y.Start), cmp.Compare(a.tid, b.tid), cmp.Compare(x.End, y.End), cmp.Compare(a.iv, b.iv))
	})
	for _, p := range ivs {
		iv := &tr.Intervals[p.iv]
		start, end := nanos(iv.Start), nanos(iv.End)
		ev := completeEvent{Name: name(iv), Cat: string(iv.Kind), Ph: "X",
			Ts: start / 1e3, Dur: (end - start) / 1e3, Pid: pid, Tid: p.tid,
			Args: intervalArgs{Amount: iv.Amount, Round: iv.Round, Action: iv.Action}}
		if err := emit(ev); err != nil {
			return err
		}
	}
	bw.WriteString("\n]}\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("tracefile: %w", err)
	}
	return nil
}

// nanos is model time t in viewer nanoseconds (1 model unit = 1 s), a
// whole number, so that microseconds print with at most three decimals.
func nanos(t float64) float64 { return math.Round(t * 1e9) }

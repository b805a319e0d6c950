package tracefile

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/netsched/netsched/sim"
)

// The event identifiers of the Paje header.
const (
	pajeDefineContainerType = iota
	pajeDefineStateType
	pajeCreateContainer
	pajeDestroyContainer
	pajePushState
	pajePopState
	pajeDefineEntityValue
)

// kindColors are the colours of the interval kinds in Paje traces, "r g b"
// in [0, 1]: those of the Gantt charts (package plots, Okabe–Ito), so that
// ViTE shows computation, sends, receptions and links apart as the charts
// do. A kind without one is grey.
var kindColors = map[sim.IntervalKind]string{
	sim.KindCompute: "0.337 0.706 0.914",
	sim.KindSend:    "0.902 0.624 0",
	sim.KindRecv:    "0 0.62 0.451",
	sim.KindLink:    "0.8 0.475 0.655",
}

// kindColor is the Paje colour of kind.
func kindColor(kind sim.IntervalKind) string {
	if c, ok := kindColors[kind]; ok {
		return c
	}
	return "0.6 0.6 0.6"
}

// pajeHeader defines the events a netsched trace uses, with the field
// names of Paje 1.2 that pajeng reads in its strict mode.
const pajeHeader = `%EventDef PajeDefineContainerType 0
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineStateType 1
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeCreateContainer 2
% Time date
% Alias string
% Type string
% Container string
% Name string
%EndEventDef
%EventDef PajeDestroyContainer 3
% Time date
% Type string
% Name string
%EndEventDef
%EventDef PajePushState 4
% Time date
% Type string
% Container string
% Value string
%EndEventDef
%EventDef PajePopState 5
% Time date
% Type string
% Container string
%EndEventDef
%EventDef PajeDefineEntityValue 6
% Alias string
% Type string
% Name string
% Color color
%EndEventDef
`

// WritePaje writes tr to w in the Paje trace format, for ViTE and pajeng.
// The title names the root container ("platform" when empty). See the
// package documentation for the mapping; the same trace gives the same
// bytes.
func WritePaje(w io.Writer, tr *sim.Trace, title string) error {
	tracks, err := layout(tr)
	if err != nil {
		return err
	}
	if title == "" {
		title = "platform"
	}
	t0, t1 := 0.0, tr.Makespan()
	var kinds []sim.IntervalKind
	for _, iv := range tr.Intervals {
		t0 = min(t0, iv.Start)
		if !slices.Contains(kinds, iv.Kind) {
			kinds = append(kinds, iv.Kind)
		}
	}
	slices.Sort(kinds)

	// No comment line: ViTE warns about each. One unit of model time is
	// one second of Paje time (see the package documentation).
	bw := bufio.NewWriter(w)
	bw.WriteString(pajeHeader)
	fmt.Fprintf(bw, "%d Platform 0 %s\n", pajeDefineContainerType, quote("Platform"))
	fmt.Fprintf(bw, "%d Lane Platform %s\n", pajeDefineContainerType, quote("Lane"))
	for k, kind := range kinds {
		fmt.Fprintf(bw, "%d s%d Lane %s\n", pajeDefineStateType, k, quote(string(kind)))
	}
	// An entity value per state name and kind, in the colour of its kind.
	type entity struct {
		kind sim.IntervalKind
		name string
	}
	values := map[entity]string{}
	for i := range tr.Intervals {
		iv := &tr.Intervals[i]
		e := entity{iv.Kind, name(iv)}
		if _, ok := values[e]; ok {
			continue
		}
		alias := "v" + strconv.Itoa(len(values))
		values[e] = alias
		fmt.Fprintf(bw, "%d %s s%d %s %s\n", pajeDefineEntityValue, alias, slices.Index(kinds, iv.Kind), quote(e.name), quote(kindColor(iv.Kind)))
	}
	fmt.Fprintf(bw, "%d %s root Platform 0 %s\n", pajeCreateContainer, date(t0), quote(title))
	for k, t := range tracks {
		fmt.Fprintf(bw, "%d %s c%d Lane root %s\n", pajeCreateContainer, date(t0), k, quote(t.name))
	}

	// Each track's pushes and pops, in its order, then all in time order.
	type event struct {
		t     float64
		push  bool
		iv    int
		track int
	}
	var evs []event
	for k, t := range tracks {
		for _, i := range t.ivs {
			iv := &tr.Intervals[i]
			evs = append(evs, event{iv.Start, true, i, k}, event{iv.End, false, i, k})
		}
	}
	slices.SortStableFunc(evs, func(a, b event) int { return cmp.Compare(a.t, b.t) })
	for _, ev := range evs {
		iv := &tr.Intervals[ev.iv]
		typ := "s" + strconv.Itoa(slices.Index(kinds, iv.Kind))
		if ev.push {
			fmt.Fprintf(bw, "%d %s %s c%d %s\n", pajePushState, date(ev.t), typ, ev.track, values[entity{iv.Kind, name(iv)}])
		} else {
			fmt.Fprintf(bw, "%d %s %s c%d\n", pajePopState, date(ev.t), typ, ev.track)
		}
	}

	for k := range tracks {
		fmt.Fprintf(bw, "%d %s Lane c%d\n", pajeDestroyContainer, date(t1), k)
	}
	fmt.Fprintf(bw, "%d %s Platform root\n", pajeDestroyContainer, date(t1))
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("tracefile: %w", err)
	}
	return nil
}

// date writes a time in the shortest decimal that reads back exactly,
// without an exponent.
func date(t float64) string { return strconv.FormatFloat(t, 'f', -1, 64) }

// quote makes s a Paje string field, which has no escapes.
func quote(s string) string {
	return `"` + strings.NewReplacer(`"`, `'`, "\n", " ", "\r", " ").Replace(s) + `"`
}

package plots

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/netsched/netsched/sim"
)

// ErrGanttOptions is returned (wrapped) for Gantt options that do not fit
// the trace: a time window outside it, lanes it does not have.
var ErrGanttOptions = errors.New("gantt")

// window returns the time span [From, To] of o within the trace's span
// [lo, hi]: To 0 is hi.
func (o GanttOptions) window(lo, hi float64) (float64, float64, error) {
	from, to := o.From, o.To
	if to == 0 {
		to = hi
	}
	switch {
	case !finite(from) || !finite(to):
		return 0, 0, fmt.Errorf("%w: time window from %g to %g: want finite times", ErrGanttOptions, from, to)
	case to <= lo || from >= hi:
		return 0, 0, fmt.Errorf("%w: time window from %g to %g: the schedule runs from %g to %g", ErrGanttOptions, from, to, lo, hi)
	case !(to > from):
		return 0, 0, fmt.Errorf("%w: time window from %g to %g: want from before to", ErrGanttOptions, from, to)
	}
	return from, to, nil
}

// clipTrace returns the trace with its intervals cut to [lo, hi]; those
// outside it are left out.
func clipTrace(tr *sim.Trace, lo, hi float64) *sim.Trace {
	out := &sim.Trace{Lanes: tr.Lanes}
	for _, iv := range tr.Intervals {
		if iv.End <= lo || iv.Start >= hi {
			continue
		}
		iv.Start, iv.End = max(iv.Start, lo), min(iv.End, hi)
		out.Intervals = append(out.Intervals, iv)
	}
	return out
}

// selectLanes returns the trace with only the lanes that some entry of
// sel names (GanttOptions.Lanes), in trace order.
func selectLanes(tr *sim.Trace, sel []string) (*sim.Trace, error) {
	kinds := laneKindsOf(tr)
	keep := make([]bool, len(tr.Lanes))
	for _, s := range sel {
		s = strings.TrimSpace(s)
		if _, err := path.Match(s, ""); err != nil {
			return nil, fmt.Errorf("%w: lanes %q: bad pattern: %v", ErrGanttOptions, s, err)
		}
		found := false
		for i, name := range tr.Lanes {
			ok, _ := path.Match(s, name)
			if ok || name == s || laneKey(name, kinds[i]) == s {
				keep[i], found = true, true
			}
		}
		if !found {
			return nil, fmt.Errorf("%w: lanes %q: no lane or group has that name (lanes: %s)", ErrGanttOptions, s, abbreviate(tr.Lanes, 12))
		}
	}
	index := make([]int, len(tr.Lanes))
	out := &sim.Trace{}
	for i, name := range tr.Lanes {
		index[i] = -1
		if keep[i] {
			index[i] = len(out.Lanes)
			out.Lanes = append(out.Lanes, name)
		}
	}
	for _, iv := range tr.Intervals {
		if index[iv.Lane] >= 0 {
			iv.Lane = index[iv.Lane]
			out.Intervals = append(out.Intervals, iv)
		}
	}
	return out, nil
}

// abbreviate lists the first n names and counts the rest.
func abbreviate(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(", … (%d in all)", len(names))
}

// laneKindsOf tells for each lane of tr whether it is a link lane: one
// with link intervals only.
func laneKindsOf(tr *sim.Trace) []bool {
	link := make([]bool, len(tr.Lanes))
	other := make([]bool, len(tr.Lanes))
	for _, iv := range tr.Intervals {
		if iv.Kind == sim.KindLink {
			link[iv.Lane] = true
		} else {
			other[iv.Lane] = true
		}
	}
	for i := range link {
		link[i] = link[i] && !other[i]
	}
	return link
}

// laneKey is the group of a lane: "links" for a link (a link lane, or a
// name with an arrow), else the letters its name starts with ("A" for A0
// and "A uplink-out", "P" for P12, "smp" for smp3; "" for a number).
func laneKey(name string, isLink bool) string {
	if isLink || strings.Contains(name, "→") {
		return "links"
	}
	i := strings.IndexFunc(name, func(r rune) bool { return !unicode.IsLetter(r) })
	if i < 0 {
		return name
	}
	return name[:i]
}

// laneGroup is a run of consecutive lanes named together.
type laneGroup struct {
	label       string
	first, last int // lane indices, inclusive
}

// groupLanes splits the lanes of tr into at most about maxGroups runs of
// consecutive lanes: lanes of one key (laneKey) together, each run cut
// into blocks of the smallest power of two from minBlock up that keeps the
// groups within maxGroups (so a cluster of up to minBlock processors stays
// whole), and, if there are still too many (many short runs),
// neighbouring groups merged while together they fit in a block of the
// lanes over maxGroups.
func groupLanes(tr *sim.Trace, maxGroups int) []laneGroup {
	n := len(tr.Lanes)
	links := laneKindsOf(tr)
	var runs [][2]int
	for i := 0; i < n; {
		key := laneKey(tr.Lanes[i], links[i])
		j := i
		for j+1 < n && laneKey(tr.Lanes[j+1], links[j+1]) == key {
			j++
		}
		runs = append(runs, [2]int{i, j})
		i = j + 1
	}
	count := func(block int) int {
		c := 0
		for _, r := range runs {
			c += (r[1] - r[0] + block) / block
		}
		return c
	}
	block := minBlock
	for block < n && count(block) > maxGroups {
		block *= 2
	}
	var groups []laneGroup
	for _, r := range runs {
		for b := r[0]; b <= r[1]; b += block {
			last := min(r[1], b+block-1)
			if r[1]-last < block/2 { // a short remainder joins this block
				last = r[1]
			}
			groups = append(groups, laneGroup{first: b, last: last})
			b = last + 1 - block
		}
	}
	merge := (n + maxGroups - 1) / maxGroups
	for len(groups) > maxGroups {
		merged := groups[:1]
		for _, g := range groups[1:] {
			last := &merged[len(merged)-1]
			if g.last-last.first < merge {
				last.last = g.last
			} else {
				merged = append(merged, g)
			}
		}
		if len(merged) == len(groups) {
			merge *= 2
		}
		groups = merged
	}
	for k := range groups {
		groups[k].label = groupLabel(tr.Lanes[groups[k].first:groups[k].last+1], links[groups[k].first:groups[k].last+1])
	}
	return groups
}

// minBlock is the smallest number of lanes groupLanes cuts a run into.
const minBlock = 8

// groupLabel names a group of lanes: a lane's own name; "P0–P15" for
// numbered lanes of one key, or "0–11" for numbers; for other lanes of one
// key, their common beginning if longer than the key ("A uplink (2)" for
// A uplink-out and A uplink-in), else the key ("links (12)"); "fe – 3"
// (first and last) for a mix.
func groupLabel(names []string, links []bool) string {
	if len(names) == 1 {
		return names[0]
	}
	key := laneKey(names[0], links[0])
	numbered := true
	for i, name := range names {
		k := laneKey(name, links[i])
		if k != key {
			return names[0] + " – " + names[len(names)-1]
		}
		if _, err := strconv.Atoi(strings.TrimPrefix(name, k)); err != nil {
			numbered = false
		}
	}
	if numbered {
		return names[0] + "–" + names[len(names)-1]
	}
	prefix := names[0]
	for _, name := range names[1:] {
		for !strings.HasPrefix(name, prefix) {
			_, size := utf8.DecodeLastRuneInString(prefix)
			prefix = prefix[:len(prefix)-size]
		}
	}
	prefix = strings.TrimRightFunc(prefix, func(r rune) bool { return !unicode.IsLetter(r) })
	if len(prefix) > len(key) {
		key = prefix
	}
	return fmt.Sprintf("%s (%d)", key, len(names))
}

package models

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// Workstations is the platform of paper 003: a cluster of workstations
// running an SPMD program beside other users' jobs (§2.1, §3.1).
//
// Each processor has a speed (work units per time unit when it is not
// loaded) and an external load share: the fraction of its time that other
// users' jobs take, constant or piecewise constant in time (a named load
// profile). A task of work w started at time s on processor i ends at the
// time e with ∫_s^e Speed·(1 − share(t)) dt = w.
//
// Load information (each processor's Power) flows along a directed
// topology: a binary tree (processor k's parent is (k−1)/2, both
// directions, the default of paper 003 §3.2 as ../shared/papers/README.md
// decides), a ring (both directions), the complete graph, or the explicit
// Edges. Requests and migrated tasks travel between any two processors: a
// message takes Latency, a migration of n tasks Latency + n·PerTask, and
// messages do not contend.
type Workstations struct {
	Processors []Workstation `yaml:"processors" json:"processors"`
	// Topology is tree, ring or complete; leave it out (or write edges)
	// to give Edges instead.
	Topology string     `yaml:"topology,omitempty" json:"topology,omitempty"`
	Edges    []InfoEdge `yaml:"edges,omitempty" json:"edges,omitempty"`
	// Profiles are the named external load profiles processors refer to.
	Profiles []LoadProfile `yaml:"profiles,omitempty" json:"profiles,omitempty"`
	Latency  float64       `yaml:"latency" json:"latency"`   // time of one message
	PerTask  float64       `yaml:"per_task" json:"per_task"` // transfer time per migrated task
}

// Workstation is one processor of a Workstations platform. Its external
// load is the constant Share or, if Profile is set, the named profile.
type Workstation struct {
	Name    string  `yaml:"name,omitempty" json:"name,omitempty"`
	Speed   float64 `yaml:"speed" json:"speed"`
	Share   float64 `yaml:"share,omitempty" json:"share,omitempty"`
	Profile string  `yaml:"profile,omitempty" json:"profile,omitempty"`
}

// LoadProfile is a named external load: Share from time 0, changed by each
// step from its time on.
type LoadProfile struct {
	Name  string     `yaml:"name" json:"name"`
	Share float64    `yaml:"share" json:"share"`
	Steps []LoadStep `yaml:"steps,omitempty" json:"steps,omitempty"`
}

// LoadStep sets the external load share to Share from time At on.
type LoadStep struct {
	At    float64 `yaml:"at" json:"at"`
	Share float64 `yaml:"share" json:"share"`
}

// InfoEdge says that From sends its load information (Power) to To; with
// Both, To sends its own to From as well. Processors are named as
// Workstations.Name names them.
type InfoEdge struct {
	From string `yaml:"from" json:"from"`
	To   string `yaml:"to" json:"to"`
	Both bool   `yaml:"both,omitempty" json:"both,omitempty"`
}

// The topologies a Workstations platform can name.
const (
	TopologyTree     = "tree"
	TopologyRing     = "ring"
	TopologyComplete = "complete"
	TopologyEdges    = "edges"
)

// Name is the name of processor i: its given name or "P<i>".
func (w *Workstations) Name(i int) string {
	if i >= 0 && i < len(w.Processors) && w.Processors[i].Name != "" {
		return w.Processors[i].Name
	}
	return defaultNodeName(i)
}

// NodeIndex maps a processor name (as Name gives it) to its index.
func (w *Workstations) NodeIndex(name string) (int, bool) {
	k := nameKey(name)
	for i := range w.Processors {
		if w.nameKey(i) == k {
			return i, true
		}
	}
	return 0, false
}

// wsName is a processor name as a key that needs no formatting: a name
// "P<i>", processor i's default or a given one, is the number i, any
// other name itself. Two names are equal if and only if their keys are.
type wsName struct {
	given string // the name, unless it has the form P<i>
	num   int    // i, or -1
}

// nameKey is the key of a processor name.
func nameKey(name string) wsName {
	if i, ok := defaultNameNumber(name); ok {
		return wsName{num: i}
	}
	return wsName{given: name, num: -1}
}

// nameKey is the key of processor i's name, as Name gives it.
func (w *Workstations) nameKey(i int) wsName {
	if name := w.Processors[i].Name; name != "" {
		return nameKey(name)
	}
	return wsName{num: i}
}

// compareNames orders name keys, equal exactly when the names are.
func compareNames(a, b wsName) int {
	return cmp.Or(strings.Compare(a.given, b.given), cmp.Compare(a.num, b.num))
}

// defaultNameNumber returns i if name is "P<i>" as Name writes it: i in
// decimal, without sign or leading zeros.
func defaultNameNumber(name string) (int, bool) {
	digits, ok := strings.CutPrefix(name, "P")
	if !ok || digits == "" || len(digits) > 18 || (digits[0] == '0' && len(digits) > 1) {
		return 0, false
	}
	i := 0
	for _, c := range []byte(digits) {
		if c < '0' || c > '9' {
			return 0, false
		}
		i = 10*i + int(c-'0')
	}
	return i, true
}

// Load returns the external load of processor i as a profile from time 0.
// It assumes a validated platform.
func (w *Workstations) Load(i int) Load {
	p := &w.Processors[i]
	if p.Profile == "" {
		return Load{{At: 0, Share: p.Share}}
	}
	k := slices.IndexFunc(w.Profiles, func(lp LoadProfile) bool { return lp.Name == p.Profile })
	return append(Load{{At: 0, Share: w.Profiles[k].Share}}, w.Profiles[k].Steps...)
}

// InfoGraph lists, for each processor, the processors it sends its load
// information to, sorted and without repeats. It assumes a validated
// platform.
func (w *Workstations) InfoGraph() [][]int {
	n := len(w.Processors)
	out := make([][]int, n)
	link := func(a, b int) {
		if a != b {
			out[a] = append(out[a], b)
		}
	}
	switch w.Topology {
	case TopologyTree:
		for k := 1; k < n; k++ {
			link(k, (k-1)/2)
			link((k-1)/2, k)
		}
	case TopologyRing:
		for k := range n {
			link(k, (k+1)%n)
			link((k+1)%n, k)
		}
	case TopologyComplete:
		for a := range n {
			for b := range n {
				link(a, b)
			}
		}
	default:
		for _, e := range w.Edges {
			a, _ := w.NodeIndex(e.From)
			b, _ := w.NodeIndex(e.To)
			link(a, b)
			if e.Both {
				link(b, a)
			}
		}
	}
	for k := range out {
		slices.Sort(out[k])
		out[k] = slices.Compact(out[k])
	}
	return out
}

// MigrationTime is the time a migration of n tasks takes: Latency +
// n·PerTask.
func (w *Workstations) MigrationTime(n float64) float64 { return w.Latency + n*w.PerTask }

// IdealBound is the earliest time T at which the processors together could
// have done work units, every one computing all the time at its effective
// speed: Σ_i ∫_0^T Speed_i·(1 − share_i(t)) dt = work. With constant
// shares it is work / Σ_i Speed_i·(1 − Share_i). No schedule of the work
// ends earlier. It assumes a validated platform.
func (w *Workstations) IdealBound(work float64) float64 {
	loads := make([]Load, len(w.Processors))
	var times []float64
	for i := range w.Processors {
		loads[i] = w.Load(i)
		for _, s := range loads[i] {
			times = append(times, s.At)
		}
	}
	slices.Sort(times)
	times = slices.Compact(times)
	t, left := 0.0, work
	for k, at := range times {
		rate := 0.0
		for i, l := range loads {
			rate += w.Processors[i].Speed * (1 - l.ShareAt(at))
		}
		if k+1 == len(times) || left <= rate*(times[k+1]-at) {
			return at + left/rate
		}
		left -= rate * (times[k+1] - at)
		t = times[k+1]
	}
	return t
}

// Load is an external load share, piecewise constant: step k holds from
// its At until the next step's. The first step is at time 0.
type Load []LoadStep

// ShareAt is the share at time t (a step holds from its own time on).
func (l Load) ShareAt(t float64) float64 { return l[l.step(t)].Share }

// step is the index of the step in force at time t.
func (l Load) step(t float64) int {
	k, _ := slices.BinarySearchFunc(l, t, func(s LoadStep, t float64) int {
		if s.At <= t {
			return -1
		}
		return 1
	})
	return max(k-1, 0)
}

// Finish is when work units started at time start end on a processor of
// the given speed under this load: the e with ∫_start^e speed·(1 −
// share(t)) dt = work.
func (l Load) Finish(speed, start, work float64) float64 {
	t := start
	for k := l.step(start); ; k++ {
		rate := speed * (1 - l[k].Share)
		end := t + work/rate
		if k+1 == len(l) || end <= l[k+1].At {
			return end
		}
		work = max(0, work-rate*(l[k+1].At-t))
		t = l[k+1].At
	}
}

// Validate checks the workstations platform; path prefixes error paths.
func (w *Workstations) Validate(path string) error { return w.validate(rootPath(path)) }

// validate is Validate below a path kept in pieces. Platforms of up to
// scratchLen processors validate without allocating.
func (w *Workstations) validate(path fieldPath) error {
	if len(w.Processors) == 0 {
		return fieldErr(path.field("processors"), "must list at least one processor")
	}
	var small [scratchLen]int
	names := newByKey(scratch(small[:], len(w.Processors)), w.nameKey, compareNames)
	if err := w.validateProcessors(path, names); err != nil {
		return err
	}
	for k := range w.Profiles {
		if err := w.validateProfile(path.elem("profiles", k), k); err != nil {
			return err
		}
	}
	if err := w.validateProfileUse(path); err != nil {
		return err
	}
	if err := w.validateTopology(path, names); err != nil {
		return err
	}
	if err := nonNegative(path.field("latency"), w.Latency); err != nil {
		return err
	}
	return nonNegative(path.field("per_task"), w.PerTask)
}

// validateProcessors checks each processor's name, speed and share; names
// holds the processors by name.
func (w *Workstations) validateProcessors(path fieldPath, names byKey[wsName]) error {
	dup, first, repeated := names.firstRepeat()
	for i, p := range w.Processors {
		pp := path.elem("processors", i)
		if repeated && i == dup {
			return fieldErr(pp.field("name"), "%q is also the name of processors[%d]", w.Name(i), first)
		}
		if err := positive(pp.field("speed"), p.Speed); err != nil {
			return err
		}
		if err := loadShare(pp.field("share"), p.Share); err != nil {
			return err
		}
	}
	return nil
}

// validateProfileUse checks that each processor with a profile names one
// and gives no share besides.
func (w *Workstations) validateProfileUse(path fieldPath) error {
	for i, p := range w.Processors {
		if p.Profile == "" {
			continue
		}
		pp := path.elem("processors", i)
		if !slices.ContainsFunc(w.Profiles, func(lp LoadProfile) bool { return lp.Name == p.Profile }) {
			return fieldErr(pp.field("profile"), "no load profile is named %q", p.Profile)
		}
		if p.Share != 0 {
			return fieldErr(pp.field("share"), "give a share or a profile, not both")
		}
	}
	return nil
}

// validateProfile checks profile k, at path.
func (w *Workstations) validateProfile(path fieldPath, k int) error {
	lp := &w.Profiles[k]
	if lp.Name == "" {
		return fieldErr(path.field("name"), "must not be empty")
	}
	if j := slices.IndexFunc(w.Profiles[:k], func(o LoadProfile) bool { return o.Name == lp.Name }); j >= 0 {
		return fieldErr(path.field("name"), "%q is also the name of profiles[%d]", lp.Name, j)
	}
	if err := loadShare(path.field("share"), lp.Share); err != nil {
		return err
	}
	prev := 0.0
	for m, s := range lp.Steps {
		sp := path.elem("steps", m)
		if !(s.At > prev) || math.IsInf(s.At, 0) {
			return fieldErr(sp.field("at"), "must be a finite time after %v (steps in increasing time, after 0), got %v", prev, s.At)
		}
		if err := loadShare(sp.field("share"), s.Share); err != nil {
			return err
		}
		prev = s.At
	}
	return nil
}

// validateTopology checks the topology and the edges; names holds the
// processors by name.
func (w *Workstations) validateTopology(path fieldPath, names byKey[wsName]) error {
	switch w.Topology {
	case TopologyTree, TopologyRing, TopologyComplete:
		if len(w.Edges) > 0 {
			return fieldErr(path.field("edges"), "the topology is %q: give edges only with topology %q or none", w.Topology, TopologyEdges)
		}
		return nil
	case "", TopologyEdges:
	default:
		return fieldErr(path.field("topology"), "must be %q, %q, %q or %q (with edges), got %q",
			TopologyTree, TopologyRing, TopologyComplete, TopologyEdges, w.Topology)
	}
	if len(w.Edges) == 0 && len(w.Processors) > 1 {
		return fieldErr(path.field("topology"), "must be %q, %q or %q, or edges must list who sends load information to whom",
			TopologyTree, TopologyRing, TopologyComplete)
	}
	for k := range w.Edges {
		if err := validateInfoEdge(path.elem("edges", k), &w.Edges[k], names); err != nil {
			return err
		}
	}
	return nil
}

// validateInfoEdge checks one edge at path ep; names holds the processors
// by name.
func validateInfoEdge(ep fieldPath, e *InfoEdge, names byKey[wsName]) error {
	for _, end := range []struct{ field, name string }{{"from", e.From}, {"to", e.To}} {
		if _, ok := names.find(nameKey(end.name)); !ok {
			return fieldErr(ep.field(end.field), "no processor is named %q", end.name)
		}
	}
	if e.From == e.To {
		return fieldErr(ep, "edge joins %q to itself", e.From)
	}
	return nil
}

// loadShare checks an external load share: in [0, 1), since a processor
// whose whole time goes to other jobs would never finish a task.
func loadShare(path fieldPath, v float64) error {
	if !(v >= 0 && v < 1) {
		return fieldErr(path, "must be in [0, 1) (the fraction of the processor's time taken by external load), got %v", v)
	}
	return nil
}

package models

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"

	"github.com/netsched/netsched/internal/budget"
	"go.yaml.in/yaml/v3"
)

// Processors is the processor list of a crossbar or of a cluster. In a
// scenario it is either a YAML list of processors or a generator
// (ProcessorGen), a mapping that draws them: a large platform in one line,
//
//	processors: {count: 1000000, seed: 3, gamma: {uniform: [1, 4]}, load: {choice: [0, 100]}}
type Processors []Processor

// UnmarshalYAML reads a list of processors, or a generator mapping whose
// processors it draws. It decodes through the caller's decoder, so that
// an unknown key is an error in either form.
func (ps *Processors) UnmarshalYAML(unmarshal func(any) error) error {
	var n nodeOf
	if err := unmarshal(&n); err != nil {
		return err
	}
	if n.Kind == yaml.SequenceNode {
		if list, ok := plainProcessors(n.Node); ok {
			*ps = list
			return nil
		}
	}
	if n.Kind != yaml.MappingNode {
		return unmarshal((*[]Processor)(ps))
	}
	var g ProcessorGen
	if err := unmarshal(&g); err != nil {
		return err
	}
	list, err := g.Generate()
	if err != nil {
		return fmt.Errorf("line %d: processors: %w", n.Line, err)
	}
	*ps = list
	return nil
}

// plainNumber is a YAML number whose value strconv.ParseFloat gives as the
// YAML decoder does: no sign but '-', no leading zero, no '_', no base
// prefix, no .inf or .nan.
var plainNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)

// plainProcessors reads a list of processors written the common way, each
// a mapping of name (text), gamma and load (plain numbers), straight from
// the nodes: for 10^5 processors the decoder's reflection took about
// 0.4 s of the 1 s a list took to load. ok is false for any other list
// (another key, a tag, an alias, a repeated key, another kind of value),
// which the decoder then reads with its own checks and messages.
func plainProcessors(list *yaml.Node) (ps []Processor, ok bool) {
	ps = make([]Processor, len(list.Content))
	for i, item := range list.Content {
		if item.Kind != yaml.MappingNode || item.ShortTag() != "!!map" || len(item.Content) > 6 {
			return nil, false
		}
		var seen [3]bool
		for j := 0; j < len(item.Content); j += 2 {
			k, v := item.Content[j], item.Content[j+1]
			if k.Kind != yaml.ScalarNode || k.Style != 0 || k.ShortTag() != "!!str" || v.Kind != yaml.ScalarNode {
				return nil, false
			}
			field := slices.Index([]string{"name", "gamma", "load"}, k.Value)
			if field < 0 || seen[field] {
				return nil, false
			}
			seen[field] = true
			if field == 0 {
				if v.ShortTag() != "!!str" {
					return nil, false
				}
				ps[i].Name = v.Value
				continue
			}
			if tag := v.ShortTag(); v.Style != 0 || tag != "!!int" && tag != "!!float" || !plainNumber.MatchString(v.Value) {
				return nil, false
			}
			x, err := strconv.ParseFloat(v.Value, 64)
			if err != nil {
				return nil, false
			}
			if field == 1 {
				ps[i].Gamma = x
			} else {
				ps[i].Load = x
			}
		}
	}
	return ps, true
}

// nodeOf keeps the node it is decoded from, without decoding it.
type nodeOf struct{ *yaml.Node }

// UnmarshalYAML keeps n.
func (o *nodeOf) UnmarshalYAML(n *yaml.Node) error {
	o.Node = n
	return nil
}

// ProcessorGen draws Count processors, in a scenario written in place of
// the list of processors. It takes every field a listed processor takes
// (Processor): each number is either fixed or drawn from a distribution
// (see Dist), independently for every processor, from a random stream
// that the seed alone determines: the same mapping gives the same
// platform on every run and every machine. With per_run: true, the stream
// follows each run's seed too, so that seeds: N draws N platforms.
type ProcessorGen struct {
	// Count is the number of processors, >= 1. Before the platform is
	// built it is checked against the memory budget (--max-memory), at
	// ProcessorBytes each (see CheckProcessorCount).
	Count int `yaml:"count"`
	// Seed seeds the draws (default 0).
	Seed uint64 `yaml:"seed,omitempty"`
	// PerRun draws the processors anew for every run, from the run's seed
	// plus Seed: seeds: N then gives N platforms (see Draw).
	PerRun bool `yaml:"per_run,omitempty"`
	// Name, when set, names processor i Name followed by i ("fast0",
	// "fast1", ...); otherwise processors have the default names P<i>.
	Name string `yaml:"name,omitempty"`
	// Gamma is each processor's compute time per unit, γ > 0: a number or
	// a distribution over positive numbers. Required.
	Gamma Dist `yaml:"gamma"`
	// Load is the load each processor starts with, >= 0 (default 0): a
	// number or a distribution over non-negative numbers.
	Load Dist `yaml:"load,omitempty"`
	// Overlap is each processor's Processor.Overlap: for each
	// communication kind, γ_k as a number, a distribution, or the word
	// gamma (the processor's own γ: it computes at full speed while it
	// communicates).
	Overlap map[string]OverlapDraw `yaml:"overlap,omitempty"`
	// Combined is every processor's Processor.Combined, as listed.
	Combined []CombinedRate `yaml:"combined,omitempty"`
}

// OverlapDraw is γ_k of a generated processor: a number (.inf: it stops
// computing while k is active), a distribution, or the processor's own γ.
type OverlapDraw struct {
	Dist
	Gamma bool // the word gamma: γ_k = γ
}

// UnmarshalYAML reads the word gamma, a number or a distribution.
func (o *OverlapDraw) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && n.Value == "gamma" {
		*o = OverlapDraw{Gamma: true}
		return nil
	}
	var v float64
	if n.Kind == yaml.ScalarNode && n.Decode(&v) != nil {
		return fmt.Errorf("line %d: want the word gamma, a number or a distribution, got %s", n.Line, DescribeNode(n))
	}
	o.Gamma = false
	return o.Dist.UnmarshalYAML(n)
}

// MarshalYAML writes the draw as it is read.
func (o OverlapDraw) MarshalYAML() (any, error) {
	if o.Gamma {
		return "gamma", nil
	}
	return o.Dist.MarshalYAML()
}

// ProcessorBytes is the memory a run takes per processor of a generated
// crossbar, end to end (load, plan, replay with its trace, check), used to
// refuse a platform too large before it is drawn. Measured at 10^6
// processors (results/benchmarks.md, "Big inputs"): 1.1 KB with
// no-redistribution, 1.4 KB with names, 2.8 KB with single-round.
const ProcessorBytes = 2 << 10

// nameCopies is how many copies of each generated processor's name a run
// holds (the platform, the replay's lanes, the trace, the outputs), with a
// margin.
const nameCopies = 4

// CheckProcessorCount refuses a generated platform of n processors, named
// by a prefix of nameLen bytes (0: default names), whose runs would need
// more memory than the budget b; the error names the estimate and the flag.
func CheckProcessorCount(n float64, nameLen int, b budget.Bytes) error {
	per := float64(ProcessorBytes)
	if nameLen > 0 {
		per += nameCopies * float64(nameLen+20) // the prefix and the index
	}
	return b.Check(fmt.Sprintf("%.4g processors need", n), n*per)
}

// Generate draws the processors, after checking the generator: a count
// >= 1 and distributions whose every value is a valid γ (> 0), load
// (>= 0) or γ_k (> 0). Errors name the field of the generator. With
// per_run it draws for a run of seed 0; Draw draws for a run's seed.
func (g *ProcessorGen) Generate() ([]Processor, error) {
	return g.Draw(0)
}

// Draw is Generate for a run of seed runSeed: the draws follow Seed, plus
// runSeed when PerRun is set.
func (g *ProcessorGen) Draw(runSeed uint64) ([]Processor, error) {
	if err := g.check(); err != nil {
		return nil, err
	}
	seed := g.Seed
	if g.PerRun {
		seed += runSeed
	}
	kinds := slices.Sorted(maps.Keys(g.Overlap))   // a fixed order of draws
	rng := rand.New(rand.NewPCG(seed, 0x70726f63)) // "proc"
	ps := make([]Processor, g.Count)
	for i := range ps {
		ps[i].Gamma = g.Gamma.draw(rng)
		ps[i].Load = g.Load.draw(rng)
		if g.Name != "" {
			ps[i].Name = g.Name + strconv.Itoa(i)
		}
		if len(kinds) > 0 {
			ps[i].Overlap = make(map[string]float64, len(kinds))
			for _, k := range kinds {
				if o := g.Overlap[k]; o.Gamma {
					ps[i].Overlap[k] = ps[i].Gamma
				} else {
					ps[i].Overlap[k] = o.draw(rng)
				}
			}
		}
		ps[i].Combined = g.Combined
	}
	return ps, nil
}

// check checks the generator's fields alone; the platform's Validate
// checks the processors it draws (γ_k >= γ, known kinds).
func (g *ProcessorGen) check() error {
	if g.Count < 1 {
		return fmt.Errorf("count: must be a whole number >= 1, got %d", g.Count)
	}
	if g.Gamma.isZero() {
		return fmt.Errorf("gamma: missing (a number > 0, or a distribution over them)")
	}
	if err := g.Gamma.check(false); err != nil {
		return fmt.Errorf("gamma: %w", err)
	}
	if err := g.Load.check(true); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	for _, k := range slices.Sorted(maps.Keys(g.Overlap)) {
		if o := g.Overlap[k]; !o.Gamma && !(o.Uniform == nil && o.Choice == nil && math.IsInf(o.Value, 1)) {
			if err := o.check(false); err != nil {
				return fmt.Errorf("overlap.%s: %w", k, err)
			}
		}
	}
	return nil
}

// Dist is a number of a generated processor. In YAML it is a number
// (every processor gets it), or a mapping of one key:
//
//	{uniform: [lo, hi]}      drawn uniformly in [lo, hi)
//	{choice: [v1, v2, ...]}  one of the values, each as likely
type Dist struct {
	Value   float64     // the number, when neither Uniform nor Choice is set
	Uniform *[2]float64 // lo and hi, lo <= hi
	Choice  []float64   // at least one value
	set     bool        // whether the scenario gave it
}

// UnmarshalYAML reads a number, {uniform: [lo, hi]} or {choice: [...]}.
func (d *Dist) UnmarshalYAML(n *yaml.Node) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("line %d: %s", n.Line, fmt.Sprintf(format, args...))
	}
	numbers := func(n *yaml.Node) ([]float64, error) {
		if n.Kind != yaml.SequenceNode {
			return nil, bad("want a list of numbers, got %s", DescribeNode(n))
		}
		vs := make([]float64, len(n.Content))
		for i, c := range n.Content {
			v, err := yamlNumber(c)
			if err != nil {
				return nil, bad("%v", err)
			}
			vs[i] = v
		}
		return vs, nil
	}
	*d = Dist{set: true}
	switch n.Kind {
	case yaml.ScalarNode:
		v, err := yamlNumber(n)
		if err != nil {
			return bad("%v", err)
		}
		d.Value = v
		return nil
	case yaml.MappingNode:
		if len(n.Content) != 2 {
			return bad("want a distribution of one key, uniform or choice, got a mapping of %d keys", len(n.Content)/2)
		}
		vs, err := numbers(n.Content[1])
		if err != nil {
			return err
		}
		switch key := n.Content[0].Value; key {
		case "uniform":
			if len(vs) != 2 {
				return bad("uniform: want [lo, hi], got %d numbers", len(vs))
			}
			d.Uniform = &[2]float64{vs[0], vs[1]}
		case "choice":
			if len(vs) == 0 {
				return bad("choice: want at least one value")
			}
			d.Choice = vs
		default:
			return bad("want a distribution uniform or choice, got %q", key)
		}
		return nil
	}
	return bad("want a number or a distribution ({uniform: [lo, hi]} or {choice: [...]}), got %s", DescribeNode(n))
}

// MarshalYAML writes the number or the distribution as it is read.
func (d Dist) MarshalYAML() (any, error) {
	switch {
	case d.Uniform != nil:
		return map[string][]float64{"uniform": d.Uniform[:]}, nil
	case d.Choice != nil:
		return map[string][]float64{"choice": d.Choice}, nil
	}
	return d.Value, nil
}

// isZero reports whether the scenario left the number out.
func (d *Dist) isZero() bool { return !d.set && d.Uniform == nil && d.Choice == nil && d.Value == 0 }

// check requires every value the distribution can give to be finite and
// > 0, or >= 0 when zero is allowed.
func (d *Dist) check(zero bool) error {
	ok := func(v float64) bool { return !math.IsInf(v, 0) && (v > 0 || zero && v >= 0) }
	want := "> 0"
	if zero {
		want = ">= 0"
	}
	switch {
	case d.Uniform != nil:
		lo, hi := d.Uniform[0], d.Uniform[1]
		if !ok(lo) || !ok(hi) || !(lo <= hi) {
			return fmt.Errorf("uniform: want [lo, hi] with lo <= hi, both finite and %s, got [%v, %v]", want, lo, hi)
		}
	case d.Choice != nil:
		for i, v := range d.Choice {
			if !ok(v) {
				return fmt.Errorf("choice[%d]: must be a finite number %s, got %v", i, want, v)
			}
		}
	default:
		if !ok(d.Value) {
			return fmt.Errorf("must be a finite number %s, got %v", want, d.Value)
		}
	}
	return nil
}

// draw returns the next value.
func (d *Dist) draw(rng *rand.Rand) float64 {
	switch {
	case d.Uniform != nil:
		return d.Uniform[0] + rng.Float64()*(d.Uniform[1]-d.Uniform[0])
	case d.Choice != nil:
		return d.Choice[rng.IntN(len(d.Choice))]
	}
	return d.Value
}

// yamlNumber reads a scalar node as a number.
func yamlNumber(n *yaml.Node) (float64, error) {
	var v float64
	if n.Kind != yaml.ScalarNode || n.Decode(&v) != nil {
		return 0, fmt.Errorf("want a number, got %s", DescribeNode(n))
	}
	return v, nil
}

// DescribeNode names a YAML node for error messages: "a list", "a
// mapping", "an alias", or a scalar's value quoted.
func DescribeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.AliasNode:
		return "an alias"
	}
	return strconv.Quote(n.Value)
}

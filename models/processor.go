package models

import (
	"math"
	"slices"
	"sort"
	"strings"
)

// Communication kinds that can be active on a processor while it computes.
// A crossbar processor has send and receive; a multi-cluster processor has
// intra- and inter-cluster traffic in each direction (paper 001 §3.2.2).
const (
	KindSend      = "send"
	KindRecv      = "recv"
	KindIntraSend = "intra-send"
	KindIntraRecv = "intra-recv"
	KindInterSend = "inter-send"
	KindInterRecv = "inter-recv"
)

// kindAliases lets a scenario name both directions of a class at once.
var kindAliases = map[string][]string{
	"intra": {KindIntraSend, KindIntraRecv},
	"inter": {KindInterSend, KindInterRecv},
}

// CombinedRate gives the compute time per unit of a processor outright for
// one set of simultaneously active communication kinds, overriding the
// consistent-degradation rule for that set.
type CombinedRate struct {
	Active []string `yaml:"active" json:"active"`
	Gamma  float64  `yaml:"gamma" json:"gamma"`
}

// Processor is one computing node: its base compute time per unit γ, the
// load it starts with, and how its compute rate degrades while it
// communicates.
//
// Overlap maps a communication kind k to γ_k, the time per unit while k is
// active. A kind that is absent, or +Inf (".inf" in YAML), stops computing
// while it is active: no overlap, the base model of paper 000 §2.2.
type Processor struct {
	Name     string             `yaml:"name,omitempty" json:"name,omitempty"`
	Gamma    float64            `yaml:"gamma" json:"gamma"`
	Load     float64            `yaml:"load,omitempty" json:"load,omitempty"`
	Overlap  map[string]float64 `yaml:"overlap,omitempty" json:"overlap,omitempty"`
	Combined []CombinedRate     `yaml:"combined,omitempty" json:"combined,omitempty"`
}

// OverlapGamma returns γ_k for one kind, resolving the aliases "intra" and
// "inter"; +Inf when the processor cannot compute while k is active.
func (p *Processor) OverlapGamma(kind string) float64 {
	if g, ok := p.Overlap[kind]; ok {
		return g
	}
	for alias, kinds := range kindAliases {
		if g, ok := p.Overlap[alias]; ok && slices.Contains(kinds, kind) {
			return g
		}
	}
	return math.Inf(1)
}

// Rate returns the compute rate (units per time) while the given set of
// communication kinds is active. An explicit CombinedRate for exactly that
// set wins; otherwise the rate is consistent degradation (papers 000 §4.3 and
// 001 §3.2.2): 1/γ − Σ_{k∈S}(1/γ − 1/γ_k), floored at 0.
func (p *Processor) Rate(active []string) float64 {
	if len(active) == 0 {
		return 1 / p.Gamma
	}
	if g, ok := p.combinedGamma(active); ok {
		return 1 / g
	}
	base := 1 / p.Gamma
	r := base
	for _, k := range active {
		r -= base - 1/p.OverlapGamma(k)
	}
	return math.Max(r, 0)
}

// combinedGamma looks up an explicit rate for the active set.
func (p *Processor) combinedGamma(active []string) (float64, bool) {
	if len(p.Combined) == 0 {
		return 0, false
	}
	key := kindSetKey(active)
	for _, c := range p.Combined {
		if kindSetKey(c.Active) == key {
			return c.Gamma, true
		}
	}
	return 0, false
}

func kindSetKey(kinds []string) string {
	var all []string
	for _, k := range kinds {
		if exp, ok := kindAliases[k]; ok {
			all = append(all, exp...)
		} else {
			all = append(all, k)
		}
	}
	sort.Strings(all)
	return strings.Join(slices.Compact(all), "+")
}

// ConsistentlyDegrading reports whether every explicit combined rate equals
// the consistent-degradation rate for its set, the condition under which the
// papers' optimality claims hold (000 §4.3).
func (p *Processor) ConsistentlyDegrading() bool {
	saved := p.Combined
	defer func() { p.Combined = saved }()
	for _, c := range saved {
		p.Combined = nil
		want := p.Rate(c.Active)
		if math.Abs(want-1/c.Gamma) > 1e-12*math.Max(1, want) {
			return false
		}
	}
	return true
}

// validate checks one processor; kinds lists the kinds its platform knows.
func (p *Processor) validate(path fieldPath, kinds []string) error {
	if !(p.Gamma > 0) || math.IsInf(p.Gamma, 0) {
		return fieldErr(path.field("gamma"), "must be a finite number > 0, got %v", p.Gamma)
	}
	if !(p.Load >= 0) || math.IsInf(p.Load, 0) {
		return fieldErr(path.field("load"), "must be a finite number >= 0, got %v", p.Load)
	}
	if err := p.validateOverlap(path, kinds); err != nil {
		return err
	}
	for i := range p.Combined {
		if err := p.validateCombined(path.elem("combined", i), &p.Combined[i], kinds); err != nil {
			return err
		}
	}
	return nil
}

// validateOverlap checks the overlap rates and reports the first bad kind
// in sorted order, without sorting the kinds: one walk finds the least.
func (p *Processor) validateOverlap(path fieldPath, kinds []string) error {
	bad, found := "", false
	for k, g := range p.Overlap {
		if (!knownKind(k, kinds) || !(g >= p.Gamma)) && (!found || k < bad) {
			bad, found = k, true
		}
	}
	if !found {
		return nil
	}
	op := path.field("overlap")
	kp := op.field(bad)
	if err := checkKind(kp, bad, kinds); err != nil {
		return err
	}
	return fieldErr(kp, "γ_%s = %v is below γ = %v: a processor cannot compute faster while communicating",
		bad, p.Overlap[bad], p.Gamma)
}

// validateCombined checks one combined rate of the processor.
func (p *Processor) validateCombined(path fieldPath, c *CombinedRate, kinds []string) error {
	if len(c.Active) == 0 {
		return fieldErr(path.field("active"), "must name at least one communication kind")
	}
	for _, k := range c.Active {
		if err := checkKind(path.field("active"), k, kinds); err != nil {
			return err
		}
	}
	if !(c.Gamma >= p.Gamma) {
		return fieldErr(path.field("gamma"), "must be >= γ = %v, got %v", p.Gamma, c.Gamma)
	}
	return nil
}

// checkKind requires k to be one of kinds or an alias of some of them.
func checkKind(path fieldPath, k string, kinds []string) error {
	if knownKind(k, kinds) {
		return nil
	}
	return fieldErr(path, "unknown communication kind %q (this platform has %s)", k, strings.Join(kinds, ", "))
}

// knownKind reports whether k is one of kinds or an alias of some of them.
func knownKind(k string, kinds []string) bool {
	if slices.Contains(kinds, k) {
		return true
	}
	exp, ok := kindAliases[k]
	return ok && slices.Contains(kinds, exp[0])
}

// Package scenarios loads what netsched is asked to run: YAML scenario files
// that name a platform, a problem on it, the policies to compare, optional
// sweep axes and a number of seeds (../shared/DESIGN.md, "Scenarios").
//
// Loading is strict: an unknown key, a value out of range, a policy that is
// not registered or does not fit the problem is an error that names the file,
// the line and the field, for example
//
//	scenario my.yaml: line 7: platform.crossbar.beta: must be a finite number > 0, got -1
//
// A scenario file looks like this:
//
//	name: crossbar-demo
//	description: one line for `netsched list`
//	platform:
//	  crossbar:
//	    beta: 0.1
//	    duplex: half
//	    processors:
//	      - {gamma: 1.0, load: 1000}
//	      - {gamma: 0.5}
//	problem:
//	  divisible: {rounds: auto}
//	policies: [no-redistribution, {name: direct}]
//	sweep:
//	  beta: [0.05, 0.1, 0.2]     # a list of values
//	  alpha: "0:0.01:0.002"      # or start:stop:step
//	seeds: 1
//
// Every key a file accepts is declared, with its type, unit, range, default
// and meaning, in Sections; `netsched doc` prints them as the reference,
// docs/scenarios.md, and the tests hold the declarations to the loader.
//
// The bundled scenarios (Bundled) are embedded in the binary, so Load finds
// them by name from any directory.
package scenarios

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/netsched/netsched/formats"
	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/internal/suggest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/network/lower"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/external"
	"go.yaml.in/yaml/v3"
)

// Scenario is one loaded and validated scenario file.
type Scenario struct {
	Name        string // from the file, or its base name
	Description string
	Platform    models.Platform
	Problem     models.Problem
	Policies    []PolicySpec // at least one, each registered and fitting the problem
	Sweep       []Axis       // in file order, read but not checked (package sweep does); empty when nothing is swept
	Seeds       int          // runs per policy, >= 1
	// Sharing names the bandwidth sharing model (network.ParseSharing)
	// under which runs also replay every schedule's transfers as flows on
	// the platform lowered to links; "" for none.
	Sharing string
	Source  string // file path, or "bundled:<name>"
	// Warnings are what the loader accepted but did not use, such as a
	// DOT file's Graphviz attributes, each naming the file, line and
	// field; the CLI prints them on stderr.
	Warnings []string
	// Generated lists the processor generators of the platform, whose
	// processors the platform holds as drawn (for a run of seed 0 when per_run; ForSeed draws
	// them for a run, Regenerate for a sweep point).
	Generated []Generated
}

// PolicySpec names a policy of the registry and its options. In YAML it is
// either a bare name ("direct") or a mapping ({name: cross, k: 10}) whose
// other keys are the options, each a scalar. A mapping may give the
// variant a label ({name: cross, label: cross-k5, k: 5}), which every
// output then uses in place of the name; labels and names are unique
// within a scenario.
//
// A mapping with exec names an external policy instead, run as a child
// process (package external): {exec: [python3, my_sched.py], label: mine,
// timeout: 60s, persistent: true, options: {k: 3}}. It has no Name; its
// label is required.
type PolicySpec struct {
	Name    string
	Label   string // "" when the variant has none
	Options policies.Options
	Exec    *external.Spec // an external policy; nil for a registered one
	// Line is the line of the entry in the scenario file (of its exec:
	// key for an external policy); 0 when not read from a file.
	Line int
}

// ID is what outputs call the variant: its label, or else its policy's
// name.
func (s PolicySpec) ID() string {
	if s.Label != "" {
		return s.Label
	}
	return s.Name
}

// Error is a scenario that cannot be loaded: which file, which line, and
// what is wrong. Err is a *models.FieldError for a validation error.
type Error struct {
	Source string // file path or "bundled:<name>"
	Line   int    // 1-based; 0 when no line applies (a missing file)
	Err    error
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("scenario %s: line %d: %v", e.Source, e.Line, e.Err)
	}
	return fmt.Sprintf("scenario %s: %v", e.Source, e.Err)
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

//go:embed bundled/*.yaml
var bundledFS embed.FS

const bundledPrefix = "bundled:"

// Bundled returns the sorted names of the scenarios embedded in the binary.
func Bundled() []string {
	entries, err := fs.ReadDir(bundledFS, "bundled")
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// Load loads a bundled scenario by name, or else the YAML file at the path,
// within the default memory budget (budget.Default). A file of the same
// name as a bundled scenario is reached as ./name.
func Load(nameOrPath string) (*Scenario, error) {
	return LoadWithin(context.Background(), nameOrPath, budget.Default())
}

// yamlBytesPerByte is the memory a scenario's YAML takes per byte of the
// file once decoded and run (measured: a 4.3 MiB list of 10^5 processors,
// 700 MB).
const yamlBytesPerByte = 160

// LoadWithin is Load within the memory budget b: a scenario file, task
// graph or problem that would need more is refused, naming the field and
// the estimate, before it is read or built. Reading a large file takes
// seconds: LoadWithin returns ctx.Err() when ctx is done first.
func LoadWithin(ctx context.Context, nameOrPath string, b budget.Bytes) (*Scenario, error) {
	if !strings.ContainsAny(nameOrPath, `/\`) {
		if data, err := bundledFS.ReadFile(path.Join("bundled", nameOrPath+".yaml")); err == nil {
			return ParseWithin(ctx, bundledPrefix+nameOrPath, data, b)
		}
	}
	data, err := b.ReadFile(nameOrPath, yamlBytesPerByte)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		if errors.Is(err, fs.ErrNotExist) && filepath.Ext(nameOrPath) == "" {
			err = fmt.Errorf("no such file, and no bundled scenario of that name%s (bundled: %s)",
				suggest.DidYouMean(nameOrPath, Bundled()), strings.Join(Bundled(), ", "))
		}
		return nil, &Error{Source: nameOrPath, Err: err}
	}
	return ParseWithin(ctx, nameOrPath, data, b)
}

// file is the YAML layout of a scenario. Policies and sweep are kept as
// nodes: their order and lines matter and they are checked by hand.
type file struct {
	Name        string          `yaml:"name"`
	Description string          `yaml:"description"`
	Platform    models.Platform `yaml:"platform"`
	Problem     models.Problem  `yaml:"problem"`
	Policies    yaml.Node       `yaml:"policies"`
	Sweep       yaml.Node       `yaml:"sweep"`
	Seeds       *int            `yaml:"seeds"`
	Sharing     string          `yaml:"sharing"`
}

// Parse reads and validates a scenario from YAML within the default memory
// budget; source names it in errors.
func Parse(source string, data []byte) (*Scenario, error) {
	return ParseWithin(context.Background(), source, data, budget.Default())
}

// ParseWithin is Parse within the memory budget b (see LoadWithin); it
// returns ctx.Err() when ctx is done before the scenario is parsed.
func ParseWithin(ctx context.Context, source string, data []byte, b budget.Bytes) (*Scenario, error) {
	p := &parser{locator{source: source, src: data}}
	f, err := p.document(ctx, data, b)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := &Scenario{Name: f.Name, Description: f.Description, Platform: f.Platform, Problem: f.Problem,
		Seeds: 1, Source: source}
	if s.Name == "" {
		base := path.Base(filepath.ToSlash(strings.TrimPrefix(source, bundledPrefix)))
		s.Name = strings.TrimSuffix(base, path.Ext(base))
	}
	if s.Generated, err = p.generators(); err != nil {
		return nil, err
	}
	if err := formats.ResolvePlatform(&s.Platform, scenarioDir(s), b); err != nil {
		return nil, p.fieldError(err)
	}
	if err := s.Platform.Validate(); err != nil {
		return nil, p.fieldError(err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	warnings, err := resolveGraph(ctx, s, b)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, p.fieldError(err)
	}
	for _, w := range warnings {
		s.Warnings = append(s.Warnings, (&Error{Source: source, Line: p.lineOf(w.Path), Err: errors.New(w.String())}).Error())
	}
	if w := dataless(s); w != "" {
		s.Warnings = append(s.Warnings, (&Error{Source: source, Line: p.lineOf("problem.dag"), Err: errors.New(w)}).Error())
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := s.Problem.Validate(&s.Platform); err != nil {
		return nil, p.fieldError(err)
	}
	if err := models.CheckSize(&s.Platform, &s.Problem, b); err != nil {
		return nil, p.fieldError(err)
	}
	if s.Policies, err = p.policies(&f.Policies, s, b); err != nil {
		return nil, err
	}
	if s.Sweep, err = p.sweep(&f.Sweep); err != nil {
		return nil, err
	}
	if f.Seeds != nil {
		if *f.Seeds < 1 {
			return nil, p.errAt(p.lineOf("seeds"), "seeds: must be a whole number >= 1, got %d", *f.Seeds)
		}
		s.Seeds = *f.Seeds
	}
	if err := s.SetSharing(f.Sharing); err != nil {
		return nil, p.errAt(p.lineOf("sharing"), "sharing: %v", err)
	}
	return s, nil
}

// SetSharing sets the scenario's bandwidth sharing model by name:
// "maxmin" or "cm02", or "" or "none" for none. The platform must lower
// to links (package network/lower).
func (s *Scenario) SetSharing(name string) error {
	if name == "" || name == "none" {
		s.Sharing = ""
		return nil
	}
	if _, err := network.ParseSharing(name); err != nil {
		return err
	}
	if _, err := lower.Lower(&s.Platform); err != nil {
		return err
	}
	s.Sharing = name
	return nil
}

// resolveGraph loads a task graph the scenario gives by file or generator.
// Files are found relative to the scenario file; a bundled scenario can
// only use the generators. The warnings are the graph reader's.
func resolveGraph(ctx context.Context, s *Scenario, b budget.Bytes) ([]models.FieldWarning, error) {
	if s.Problem.DAG == nil || s.Problem.DAG.From == nil {
		return nil, nil
	}
	return formats.ResolveDAG(ctx, s.Problem.DAG, "problem.dag", scenarioDir(s), b)
}

// scenarioDir is where the paths of a scenario's files start: the
// scenario file's directory, or none for a bundled scenario.
func scenarioDir(s *Scenario) string {
	if strings.HasPrefix(s.Source, bundledPrefix) {
		return ""
	}
	return filepath.Dir(s.Source)
}

// Instance is what policy number i of the scenario schedules with a seed.
// Platform and problem are shared with the scenario and must not be changed.
func (s *Scenario) Instance(policy int, seed uint64) policies.Instance {
	return policies.Instance{
		Platform: &s.Platform,
		Problem:  &s.Problem,
		Options:  maps.Clone(s.Policies[policy].Options),
		Seed:     seed,
		Valid:    true, // validated when loaded, or when the sweep point was made
	}
}

// parser carries the source name and the node tree of one file, to point
// errors at lines.
type parser struct {
	locator
}

// locator points errors at the file's lines: it keeps the file and its
// YAML tree, and turns decoding and validation errors into *Error values
// naming the file, line and field (errors.go).
type locator struct {
	source string
	src    []byte     // the file, to quote a line of a syntax error
	root   *yaml.Node // the top-level mapping
}

// errAt is an error at a line of the file.
func (p *locator) errAt(line int, format string, args ...any) *Error {
	return &Error{Source: p.source, Line: line, Err: fmt.Errorf(format, args...)}
}

// document parses the YAML syntax once and decodes the one document the
// file must hold, whose top level must be a mapping, strictly into a file;
// the parser keeps the tree (p.root) to point errors at lines. Processor
// generators are checked against the budget b before they are decoded,
// since decoding draws their processors. The YAML parser reads the file
// through a reader that fails once ctx is done, so that a large file's
// parse stops within a few hundred bytes.
func (p *parser) document(ctx context.Context, data []byte, b budget.Bytes) (*file, error) {
	dec := yaml.NewDecoder(ctxReader{ctx, bytes.NewReader(data)})
	dec.KnownFields(true)
	doc := &oneParse{ctx: ctx, p: p, b: b}
	if err := dec.Decode(doc); err != nil {
		var stop *Error
		switch {
		case errors.Is(err, io.EOF):
			return nil, p.errAt(0, "the file is empty: a scenario needs platform, problem and policies")
		case errors.As(err, &stop):
			return nil, stop
		case p.root == nil: // the parser failed: nothing was decoded
			return nil, p.syntaxError(err)
		}
		return nil, p.decodeError(err)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		return nil, p.errAt(next.Line, "a second YAML document starts here: a scenario file holds one")
	case !errors.Is(err, io.EOF):
		return nil, p.syntaxError(err)
	}
	root := p.root
	if root == nil || root.Tag == "!!null" {
		return nil, p.errAt(0, "the file is empty: a scenario needs platform, problem and policies")
	}
	if root.Kind != yaml.MappingNode {
		return nil, p.errAt(root.Line, "a scenario is a mapping with platform, problem and policies, got %s", models.DescribeNode(root))
	}
	return &doc.f, nil
}

// oneParse decodes a scenario from the tree of its one parse: it keeps
// the top node in the parser, checks the generators, then decodes the file
// from the same tree with the caller's strict decoder. Decoding a YAML list
// of 10^5 processors took two parses before, 72 % of its time.
type oneParse struct {
	ctx context.Context
	p   *parser
	b   budget.Bytes
	f   file
}

// UnmarshalYAML keeps the node, then decodes the file when it is a
// mapping; a fraction where a whole number belongs (checkWhole) or a
// generator above the budget stops it with its *Error.
func (o *oneParse) UnmarshalYAML(unmarshal func(any) error) error {
	var top topNode
	if err := unmarshal(&top); err != nil {
		return err
	}
	o.p.root = top.Node
	if top.Kind != yaml.MappingNode {
		return nil
	}
	if err := o.p.checkWhole(top.Node, reflect.TypeFor[file]()); err != nil {
		return err
	}
	if err := o.p.checkGenerated(o.b); err != nil {
		return err
	}
	if err := o.ctx.Err(); err != nil {
		return err
	}
	return unmarshal(&o.f)
}

// topNode keeps the node it is decoded from, without decoding it.
type topNode struct{ *yaml.Node }

// UnmarshalYAML keeps n.
func (t *topNode) UnmarshalYAML(n *yaml.Node) error {
	t.Node = n
	return nil
}

// ctxReader reads from r until ctx is done, and then fails with ctx.Err().
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(b)
}

// dataless is a warning when the task graph's edges carry no data on a
// platform whose transfers take time by their data (a crossbar, a
// multi-cluster, a network): every transfer then takes no time, which a
// comparison of policies on that platform should not rest on unseen. The
// generated graphs (fft, gauss) and the STG files have no data on their
// edges.
func dataless(s *Scenario) string {
	g := s.Problem.DAG
	if g == nil || len(g.Edges) == 0 {
		return ""
	}
	switch s.Platform.Kind() {
	case models.KindCrossbar, models.KindMultiCluster, models.KindNetwork:
	default:
		return ""
	}
	for _, e := range g.Edges {
		if e.Data != 0 {
			return ""
		}
	}
	return fmt.Sprintf("problem.dag: none of the task graph's %d edges carries data, so on a %s every transfer takes no time "+
		"(generated graphs and STG files have none: give the edges data in an inline graph, a DOT file or a WfCommons instance)",
		len(g.Edges), s.Platform.Kind())
}

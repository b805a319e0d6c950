package scenarios

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/netsched/netsched/models"
)

// TestFieldsDeclared walks the YAML layout of a scenario file by
// reflection and requires every key the loader accepts to be declared in
// Fields, and every declared key to be one the loader accepts, so that the
// reference (`netsched doc`) lists exactly what a file can say.
func TestFieldsDeclared(t *testing.T) {
	declared := map[string]bool{}
	for _, s := range Sections() {
		if strings.HasPrefix(s.Title, "platform.") || strings.HasPrefix(s.Title, "problem.") {
			declared[s.Title] = true // a platform kind or problem family: a mapping
		}
	}
	for _, f := range Fields() {
		if declared[f.Path] {
			t.Errorf("%s declared twice", f.Path)
		}
		declared[f.Path] = true
	}
	accepted := acceptedPaths()
	for _, p := range accepted {
		if !declared[p] {
			t.Errorf("the loader accepts %s, which scenarios.Fields does not declare", p)
		}
	}
	// Keys under policies and sweep are read by hand (policy, sweep): the
	// entry keys the loader knows besides options, and the axes.
	byHand := []string{"policies[].name", "policies[].label", "policies[].<option>", "sweep.<path>"}
	for p := range declared {
		if !slices.Contains(accepted, p) && !slices.Contains(byHand, p) {
			t.Errorf("scenarios.Fields declares %s, which the loader does not accept", p)
		}
	}
}

// TestFieldsComplete requires every declaration to say what the reference
// prints, and the sections to hold the fields under their titles.
func TestFieldsComplete(t *testing.T) {
	for _, s := range Sections() {
		if s.Title == "" || s.Intro == "" || len(s.Fields) == 0 {
			t.Errorf("section %q: a title, an intro and fields are needed", s.Title)
		}
		for _, f := range s.Fields {
			if f.Type == "" || f.Range == "" || f.Default == "" || f.Doc == "" {
				t.Errorf("%s: type, range, default and doc are needed: %+v", f.Path, f)
			}
			if s.Title != "top level" && !strings.HasPrefix(f.Path, s.Title) {
				t.Errorf("%s is in section %s", f.Path, s.Title)
			}
		}
	}
}

// TestPolicyEntryKeys checks the entry keys declared under policies[]
// against the loader: name and label are read as such, and any other key
// is an option of the policy.
func TestPolicyEntryKeys(t *testing.T) {
	const src = "platform: {delay: {rho: 1}}\nproblem: {dag: {tasks: [{weight: 1}]}}\npolicies: [{name: cross, label: c5, k: 5}]\n"
	s, err := Parse("entry.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := s.Policies[0]
	if got.Name != "cross" || got.Label != "c5" || len(got.Options) != 1 || got.Options["k"] != 5 {
		t.Errorf("entry read as %+v", got)
	}
}

// acceptedPaths walks the YAML layout of a scenario file by reflection and
// returns the path of every key its decoder accepts, as Field.Path writes
// it (section titles declare the platform kinds and problem families): a list's items as "[]", a map's keys as "<kind>", a key read by
// hand (a yaml.Node) as a leaf, and a processor's fields under
// "processor.".
func acceptedPaths() []string {
	var paths []string
	var walk func(prefix string, t reflect.Type)
	walk = func(prefix string, t reflect.Type) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch {
		case t == reflect.TypeFor[models.Processor]():
			prefix = "processor"
			if slices.Contains(paths, "processor.gamma") {
				return
			}
		case t == reflect.TypeFor[yaml.Node]() || reflect.PointerTo(t).Implements(reflect.TypeFor[yaml.Unmarshaler]()):
			paths = append(paths, prefix)
			return
		}
		switch t.Kind() {
		case reflect.Struct:
			if prefix != "" && prefix != "processor" && !strings.HasSuffix(prefix, "[]") {
				paths = append(paths, prefix) // a mapping
			}
			for i := range t.NumField() {
				f := t.Field(i)
				if !f.IsExported() {
					continue
				}
				name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
				switch {
				case name == "-":
					continue
				case strings.Contains(opts, "inline"):
					walk(prefix, f.Type)
					continue
				case name == "":
					name = strings.ToLower(f.Name)
				}
				walk(join(prefix, name), f.Type)
			}
		case reflect.Slice:
			paths = append(paths, prefix)
			walk(prefix+"[]", t.Elem())
		case reflect.Map:
			paths = append(paths, prefix)
			walk(prefix+".<kind>", t.Elem())
		default:
			paths = append(paths, prefix)
		}
	}
	walk("", reflect.TypeFor[file]())
	return paths
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

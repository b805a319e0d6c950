package scenarios

import (
	"fmt"
	"go/ast"
	goparser "go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
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
	for _, k := range execKeys {
		byHand = append(byHand, "policies[]."+k)
	}
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
			if s.Title != "top level" && !strings.HasPrefix(f.Path, strings.Fields(s.Title)[0]) {
				t.Errorf("%s is in section %s", f.Path, s.Title)
			}
		}
	}
}

// TestPolicyEntryKeys checks the entry keys declared under policies[]
// against the loader: the keys policyMapping reads by hand (the cases of
// its switch on the key, found in its source) are exactly those declared,
// and any other key is an option of the policy.
func TestPolicyEntryKeys(t *testing.T) {
	for _, tt := range []struct {
		section string
		read    []string
	}{
		{"policies[]", handReadKeys(t, "policy.go", "policyMapping")},
		{"policies[] (exec)", slices.DeleteFunc(slices.Clone(execKeys), func(k string) bool { return k == "label" })}, // label: declared above
	} {
		var declared []string
		for _, sec := range Sections() {
			if sec.Title != tt.section {
				continue
			}
			for _, f := range sec.Fields {
				if key, ok := strings.CutPrefix(f.Path, "policies[]."); ok && key != "<option>" {
					declared = append(declared, key)
				}
			}
		}
		read := slices.Sorted(slices.Values(tt.read))
		slices.Sort(declared)
		if !slices.Equal(declared, read) {
			t.Errorf("the loader reads the entry keys %q; scenarios.Sections declares %q under %s", read, declared, tt.section)
		}
	}

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
	paths, _ := accepted()
	return paths
}

// acceptedTypes maps every path of acceptedPaths to the Go type that
// decodes its value.
func acceptedTypes() map[string]reflect.Type {
	_, types := accepted()
	return types
}

// accepted is acceptedPaths, with the type of each path.
func accepted() ([]string, map[string]reflect.Type) {
	var paths []string
	types := map[string]reflect.Type{}
	var walk func(prefix string, t reflect.Type)
	walk = func(prefix string, t reflect.Type) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if _, seen := types[prefix]; !seen && prefix != "processor" {
			types[prefix] = t
		}
		switch {
		case t == reflect.TypeFor[models.Processors]():
			// a list of processors, or a generator mapping in its place
			paths = append(paths, prefix)
			if !slices.Contains(paths, "generator.count") {
				g := reflect.TypeFor[models.ProcessorGen]()
				for _, f := range yamlFields(g) {
					walk("generator."+f.name, g.FieldByIndex(f.index).Type)
				}
			}
			walk(prefix+"[]", reflect.TypeFor[models.Processor]())
			return
		case t == reflect.TypeFor[models.Processor]():
			prefix = "processor"
			if slices.Contains(paths, "processor.gamma") {
				return
			}
		case t == reflect.TypeFor[models.ProcessorGen]():
			prefix = "generator"
		case t == reflect.TypeFor[yaml.Node]() || reflect.PointerTo(t).Implements(reflect.TypeFor[yaml.Unmarshaler]()):
			paths = append(paths, prefix)
			return
		}
		switch t.Kind() {
		case reflect.Struct:
			if prefix != "" && prefix != "processor" && prefix != "generator" && !strings.HasSuffix(prefix, "[]") {
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
	walk("", reflect.TypeFor[models.ProcessorGen]()) // read in place of a list by models.Processors
	return paths, types
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// outOfRange lists, for each range a numeric field declares, values just
// outside it.
var outOfRange = map[string][]string{
	"> 0, finite":                            {"0", "-1", ".inf"},
	">= 0, finite":                           {"-1", ".inf"},
	"[0, 1)":                                 {"-0.5", "1"},
	">= 0":                                   {"-1"},
	">= 0; at least one task in all":         {"-1"},
	">= 1":                                   {"0"},
	">= 1, within --max-memory":              {"0", "1e15"},
	">= 2":                                   {"1"},
	"a power of two >= 2":                    {"1", "6"},
	"a task's number":                        {"-1", "99"},
	">= gamma":                               {"0.001"},
	">= gamma; .inf stops computing":         {"0.001"},
	"> the previous step's at (> 0), finite": {"0", "-1"},
}

// TestFieldRanges checks the ranges the reference states against the
// loader: every numeric field, set in the example scenario of its platform
// kind or problem family (docs/examples) to a value just outside its
// declared range, is refused with an error naming the field and its line.
func TestFieldRanges(t *testing.T) {
	for _, f := range Fields() {
		if f.Type != "number" && f.Type != "whole number" {
			continue
		}
		bad, ok := outOfRange[f.Range]
		if !ok {
			t.Errorf("%s: no out-of-range values known for %q", f.Path, f.Range)
			continue
		}
		file, path := exampleOf(f.Path)
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range bad {
			var doc yaml.Node
			if err := yaml.Unmarshal(src, &doc); err != nil {
				t.Fatal(err)
			}
			at, err := setPath(doc.Content[0], path, v)
			if err != nil {
				t.Errorf("%s in %s: %v", f.Path, file, err)
				break
			}
			out, err := yaml.Marshal(&doc)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Parse(file, out)
			if err == nil || !strings.Contains(err.Error(), at) || !strings.Contains(err.Error(), ": line ") {
				t.Errorf("%s = %s (declared %s): loader says %v, want an error naming %s and its line", at, v, f.Range, err, at)
			}
		}
	}
}

// exampleOf returns the example scenario that has the field's platform
// kind or problem family, and the field's path in it (a processor's fields
// are a crossbar processor's, a generator's a generated crossbar's; a
// generated graph's size is a bundled scenario's).
func exampleOf(path string) (file, full string) {
	if rest, ok := strings.CutPrefix(path, "processor."); ok {
		path = "platform.crossbar.processors[]." + rest
	}
	examples := map[string]string{
		"crossbar": "crossbar-divisible", "divisible": "crossbar-divisible", "multicluster": "multicluster-divisible",
		"tree": "tree-broadcast", "broadcast": "tree-broadcast", "delay": "delay-dag", "dag": "delay-dag",
		"workstations": "workstations-balance", "balance": "workstations-balance",
		"network": "network-dag",
	}
	switch {
	case strings.HasPrefix(path, "generator."):
		return filepath.Join("testdata", "processors-generated.yaml"), "platform.crossbar.processors." + strings.TrimPrefix(path, "generator.")
	case strings.HasPrefix(path, "platform.from."):
		return filepath.Join("testdata", "platform-from.yaml"), path
	case path == "problem.dag.from.fft":
		return filepath.Join("bundled", "clustering-fft.yaml"), path
	case path == "problem.dag.from.gauss":
		return filepath.Join("bundled", "clustering-gauss.yaml"), path
	}
	name := "delay-dag"
	if parts := strings.Split(path, "."); len(parts) > 1 {
		if e, ok := examples[parts[1]]; ok {
			name = e
		}
	}
	return filepath.Join("..", "docs", "examples", name+".yaml"), path
}

// setPath sets the scalar at a Field.Path in a YAML mapping to value and
// returns the path it set, with indices. A "[]" step takes the first item
// that has the next key (else the first); a missing key is added, and so
// are missing mappings on the way; a "<kind>" key is "send".
func setPath(n *yaml.Node, path, value string) (string, error) {
	steps := strings.Split(strings.ReplaceAll(path, "[]", ".[]"), ".")
	var at []string
	for i, st := range steps {
		if st == "<kind>" {
			st = "send"
		}
		if st == "[]" {
			if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
				return "", fmt.Errorf("%s is not a list with items", strings.Join(at, "."))
			}
			k := 0
			for j, item := range n.Content {
				if i+1 < len(steps) && item.Kind == yaml.MappingNode && mappingValue(item, steps[i+1]) != nil {
					k = j
					break
				}
			}
			at[len(at)-1] += "[" + strconv.Itoa(k) + "]"
			n = n.Content[k]
			continue
		}
		if n.Kind != yaml.MappingNode {
			return "", fmt.Errorf("%s is not a mapping", strings.Join(at, "."))
		}
		at = append(at, st)
		next := mappingValue(n, st)
		if next == nil {
			next = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			if i == len(steps)-1 {
				next = &yaml.Node{Kind: yaml.ScalarNode}
			}
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: st}, next)
		}
		n = next
	}
	n.Kind, n.Tag, n.Value, n.Style = yaml.ScalarNode, "", value, 0
	return strings.Join(at, "."), nil
}

// mappingValue returns the value of key in a mapping node, or nil.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// handReadKeys returns the string constants of the case clauses of every
// switch on k.Value in the function fn of file: the keys a hand-written
// reader knows.
func handReadKeys(t *testing.T, file, fn string) []string {
	t.Helper()
	f, err := goparser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	found := false
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != fn {
			continue
		}
		ast.Inspect(fd, func(n ast.Node) bool {
			sw, ok := n.(*ast.SwitchStmt)
			if !ok {
				return true
			}
			if sel, ok := sw.Tag.(*ast.SelectorExpr); !ok || sel.Sel.Name != "Value" {
				return true
			}
			found = true
			for _, st := range sw.Body.List {
				for _, e := range st.(*ast.CaseClause).List {
					if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						k, _ := strconv.Unquote(lit.Value)
						keys = append(keys, k)
					}
				}
			}
			return true
		})
	}
	if !found {
		t.Fatalf("no switch on a key's Value in %s's %s: update handReadKeys to where the loader reads entry keys", file, fn)
	}
	return keys
}

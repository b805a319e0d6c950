package schemas

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// The names of the schema files, as Files holds them.
const (
	ScenarioFile = "scenario.schema.json"
	ScheduleFile = "schedule.schema.json"
	InstanceFile = "instance.schema.json"
)

//go:embed *.schema.json
var files embed.FS

// Files returns the schema files, by name.
func Files() fs.FS { return files }

// Compile compiles the schema file name of Files, such as ScenarioFile.
// Every file of Files is known to the compiler by its $id, so one schema
// may refer to another's definitions ("scenario.schema.json#/$defs/platform").
func Compile(name string) (*jsonschema.Schema, error) {
	entries, err := fs.Glob(files, "*.schema.json")
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	c := jsonschema.NewCompiler()
	loc := ""
	for _, file := range entries {
		data, err := files.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", file, err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", file, err)
		}
		url := file
		if m, ok := doc.(map[string]any); ok {
			if id, ok := m["$id"].(string); ok && id != "" {
				url = id
			}
		}
		if err := c.AddResource(url, doc); err != nil {
			return nil, fmt.Errorf("schema %s: %w", file, err)
		}
		if file == name {
			loc = url
		}
	}
	if loc == "" {
		return nil, fmt.Errorf("schema %s: no such file (have %v)", name, entries)
	}
	s, err := c.Compile(loc)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	return s, nil
}

// YAMLValue decodes the one YAML document in data into the value a JSON
// decoder would give for the same data: mappings become map[string]any
// (keys written as YAML scalars become their text), sequences []any, and
// scalars string, bool, nil, int or float64. It refuses what JSON cannot
// say: an infinite or NaN number, and a mapping key that is not a scalar.
func YAMLValue(data []byte) (any, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("yaml: no document")
		}
		return nil, fmt.Errorf("yaml: %w", err)
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		return nil, errors.New("yaml: more than one document")
	}
	var v any
	if err := doc.Decode(&v); err != nil {
		return nil, fmt.Errorf("yaml: %w", err)
	}
	return jsonValue(v)
}

// jsonValue converts a value decoded from YAML into a JSON value.
func jsonValue(v any) (any, error) {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			x, err := jsonValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			x, err := jsonValue(e)
			if err != nil {
				return nil, err
			}
			out[k] = x
		}
		return out, nil
	case map[any]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			switch k.(type) {
			case []any, map[string]any, map[any]any:
				return nil, fmt.Errorf("yaml: a mapping key that is not a scalar (%v) has no JSON form", k)
			}
			x, err := jsonValue(e)
			if err != nil {
				return nil, err
			}
			out[fmt.Sprint(k)] = x
		}
		return out, nil
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, fmt.Errorf("yaml: %v has no JSON form", v)
		}
	}
	return v, nil
}

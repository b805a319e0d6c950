package sweep

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sweep/axis"
)

// step is one element of a dotted path, with the index of its struct
// field once resolveFields has found it.
type step struct {
	axis.Step
	field []int
}

// splitPath parses a dotted path such as
// "platform.crossbar.processors[2].overlap.send".
func splitPath(path string) ([]step, error) {
	parts, err := axis.SplitPath(path)
	if err != nil {
		return nil, err
	}
	steps := make([]step, len(parts))
	for i, p := range parts {
		steps[i].Step = p
	}
	return steps, nil
}

// setSteps stores x in the numeric field of sc at the path, copying
// first every pointer, list and map on the way to it: sc is a shallow copy
// of a scenario, which the change must not reach, and the cost is the
// path's alone (a sweep point shares its task graph with every other).
func setSteps(sc *scenarios.Scenario, steps []step, x float64) error {
	var cur reflect.Value
	switch steps[0].Key {
	case "platform":
		cur = reflect.ValueOf(&sc.Platform).Elem()
	case "problem":
		cur = reflect.ValueOf(&sc.Problem).Elem()
	default:
		return fmt.Errorf("%s: a path starts with platform., problem. or a policy's label, or is a parameter name such as beta", pathString(steps))
	}
	for i, st := range steps[1:] {
		where := lazyPath(steps[:i+2]) // formatted only if an error needs it
		for cur.Kind() == reflect.Pointer {
			if cur.IsNil() {
				return fmt.Errorf("%s: not set in this scenario", pathString(steps[:i+1]))
			}
			c := reflect.New(cur.Type().Elem())
			c.Elem().Set(cur.Elem())
			cur.Set(c)
			cur = cur.Elem()
		}
		switch {
		case st.IsIndex:
			if cur.Kind() != reflect.Slice {
				return fmt.Errorf("%s: %s is not a list", where, pathString(steps[:i+1]))
			}
			if st.Index >= cur.Len() {
				return fmt.Errorf("%s: index out of range (%d items)", where, cur.Len())
			}
			c := reflect.MakeSlice(cur.Type(), cur.Len(), cur.Len())
			reflect.Copy(c, cur)
			cur.Set(c)
			cur = cur.Index(st.Index)
		case cur.Kind() == reflect.Struct && st.field != nil:
			cur = cur.FieldByIndex(st.field)
		case cur.Kind() == reflect.Struct:
			f, ok := fieldIndexByKey(cur.Type(), st.Key)
			if !ok {
				return fmt.Errorf("%s: unknown field", where)
			}
			cur = cur.FieldByIndex(f)
		case cur.Kind() == reflect.Map && i == len(steps)-2:
			return setMapEntry(cur, where, st.Key, x)
		default:
			return fmt.Errorf("%s: %s has no field %q", where, pathString(steps[:i+1]), st.Key)
		}
	}
	return setNumber(cur, lazyPath(steps), x)
}

// resolveFields records in each struct-field step of a path the index of
// its field, found by walking the scenario's types, so that setting the
// path at every sweep point reads no struct tags. It stops at the first
// step it cannot resolve, which setSteps then reports.
func resolveFields(steps []step) {
	var t reflect.Type
	switch steps[0].Key {
	case "platform":
		t = reflect.TypeFor[models.Platform]()
	case "problem":
		t = reflect.TypeFor[models.Problem]()
	default:
		return
	}
	for i := 1; i < len(steps); i++ {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch {
		case steps[i].IsIndex && t.Kind() == reflect.Slice:
			t = t.Elem()
		case !steps[i].IsIndex && t.Kind() == reflect.Struct:
			f, ok := fieldIndexByKey(t, steps[i].Key)
			if !ok {
				return
			}
			steps[i].field, t = f, t.FieldByIndex(f).Type
		default:
			return
		}
	}
}

// fieldIndexByKey returns the index of the field of struct type t whose
// YAML key is key (the tag name, or the lower-cased field name; inline
// structs searched too), for reflect.Value.FieldByIndex.
func fieldIndexByKey(t reflect.Type, key string) ([]int, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case name == "-":
			continue
		case strings.Contains(opts, "inline") && f.Type.Kind() == reflect.Struct:
			if sub, ok := fieldIndexByKey(f.Type, key); ok {
				return append([]int{i}, sub...), true
			}
			continue
		case name == "":
			name = strings.ToLower(f.Name)
		}
		if name == key {
			return []int{i}, true
		}
	}
	return nil, false
}

// setNumber stores x in a float or integer field.
func setNumber(v reflect.Value, where fmt.Stringer, x float64) error {
	switch v.Kind() {
	case reflect.Float64, reflect.Float32:
		v.SetFloat(x)
	case reflect.Int, reflect.Int64, reflect.Int32:
		if x != math.Trunc(x) || math.Abs(x) > 1<<31 {
			return fmt.Errorf("%s: want a whole number, got %v", where, x)
		}
		v.SetInt(int64(x))
	default:
		return fmt.Errorf("%s: is not a number, cannot be swept", where)
	}
	return nil
}

// setMapEntry stores x under key in a copy of a map of numbers (an
// overlap table).
func setMapEntry(m reflect.Value, where fmt.Stringer, key string, x float64) error {
	if m.Type().Key().Kind() != reflect.String || m.Type().Elem().Kind() != reflect.Float64 {
		return fmt.Errorf("%s: is not a number, cannot be swept", where)
	}
	c := reflect.MakeMapWithSize(m.Type(), m.Len()+1)
	for it := m.MapRange(); it.Next(); {
		c.SetMapIndex(it.Key(), it.Value())
	}
	c.SetMapIndex(reflect.ValueOf(key).Convert(m.Type().Key()), reflect.ValueOf(x).Convert(m.Type().Elem()))
	m.Set(c)
	return nil
}

// lazyPath is a path printed only when it is formatted, so that setting a
// field (every sweep point does) builds no strings.
type lazyPath []step

func (p lazyPath) String() string { return pathString(p) }

// pathString prints steps back as a dotted path.
func pathString(steps []step) string {
	parts := make([]axis.Step, len(steps))
	for i, st := range steps {
		parts[i] = st.Step
	}
	return axis.PathString(parts)
}

package scenarios

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/netsched/netsched/models"
)

// step is one element of a dotted path: a field or map key, or a list index.
type step struct {
	key     string
	index   int
	isIndex bool
	field   []int // a struct field's index, once resolveFields has found it
}

// splitPath parses a dotted path such as
// "platform.crossbar.processors[2].overlap.send".
func splitPath(path string) ([]step, error) {
	if path == "" {
		return nil, fmt.Errorf("empty path")
	}
	var steps []step
	for _, part := range strings.Split(path, ".") {
		key, rest, _ := strings.Cut(part, "[")
		if key == "" {
			return nil, fmt.Errorf("path %q: empty field name", path)
		}
		steps = append(steps, step{key: key})
		for rest != "" {
			num, after, ok := strings.Cut(rest, "]")
			i, err := strconv.Atoi(num)
			if !ok || err != nil || i < 0 || (after != "" && after[0] != '[') {
				return nil, fmt.Errorf("path %q: want [index] with a whole number >= 0", path)
			}
			steps = append(steps, step{index: i, isIndex: true})
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return steps, nil
}

// qualify turns a bare parameter name (beta, rho, size) into the path of
// that field of the platform, or else of the problem; other paths are
// returned as they are.
func (s *Scenario) qualify(path string) string {
	if strings.ContainsAny(path, ".[") {
		return path
	}
	for _, prefix := range []string{"platform." + s.Platform.Kind(), "problem." + s.Problem.Family()} {
		full := prefix + "." + path
		if _, err := s.set(full, math.NaN(), probe); err == nil {
			return full
		}
	}
	return path
}

// setMode says how set treats the scenario.
type setMode int

const (
	inPlace     setMode = iota // change the field where it is
	probe                      // only check that the field exists (x may be anything)
	copyOnWrite                // copy every pointer, list and map on the path first
)

// set stores x in the numeric field at path and returns a function that
// puts the old value back. In copyOnWrite mode the containers on the way
// to the field are copied before it is changed, so a shallow copy of a
// scenario can be changed without touching the original, at the cost of
// the path alone (a sweep point shares its task graph with every other).
func (s *Scenario) set(path string, x float64, mode setMode) (restore func(), err error) {
	steps, err := splitPath(path)
	if err != nil {
		return nil, err
	}
	return s.setSteps(steps, x, mode)
}

// setSteps is set on a path already split into steps.
func (s *Scenario) setSteps(steps []step, x float64, mode setMode) (restore func(), err error) {
	var cur reflect.Value
	switch steps[0].key {
	case "platform":
		cur = reflect.ValueOf(&s.Platform).Elem()
	case "problem":
		cur = reflect.ValueOf(&s.Problem).Elem()
	default:
		return nil, fmt.Errorf("%s: a path starts with platform. or problem., or is a parameter name such as beta", pathString(steps))
	}
	for i, st := range steps[1:] {
		where := lazyPath(steps[:i+2]) // formatted only if an error needs it
		for cur.Kind() == reflect.Pointer {
			if cur.IsNil() {
				return nil, fmt.Errorf("%s: not set in this scenario", pathString(steps[:i+1]))
			}
			if mode == copyOnWrite {
				c := reflect.New(cur.Type().Elem())
				c.Elem().Set(cur.Elem())
				cur.Set(c)
			}
			cur = cur.Elem()
		}
		switch {
		case st.isIndex:
			if cur.Kind() != reflect.Slice {
				return nil, fmt.Errorf("%s: %s is not a list", where, pathString(steps[:i+1]))
			}
			if st.index >= cur.Len() {
				return nil, fmt.Errorf("%s: index out of range (%d items)", where, cur.Len())
			}
			if mode == copyOnWrite {
				c := reflect.MakeSlice(cur.Type(), cur.Len(), cur.Len())
				reflect.Copy(c, cur)
				cur.Set(c)
			}
			cur = cur.Index(st.index)
		case cur.Kind() == reflect.Struct && st.field != nil:
			cur = cur.FieldByIndex(st.field)
		case cur.Kind() == reflect.Struct:
			f, ok := fieldIndexByKey(cur.Type(), st.key)
			if !ok {
				return nil, fmt.Errorf("%s: unknown field", where)
			}
			cur = cur.FieldByIndex(f)
		case cur.Kind() == reflect.Map && i == len(steps)-2:
			if mode == copyOnWrite && !cur.IsNil() {
				cur.Set(cloneMap(cur))
			}
			return setMapEntry(cur, where, st.key, x, mode == probe)
		default:
			return nil, fmt.Errorf("%s: %s has no field %q", where, pathString(steps[:i+1]), st.key)
		}
	}
	return setNumber(cur, lazyPath(steps), x, mode)
}

// resolveFields records in each struct-field step of a path the index of
// its field, found by walking the scenario's types, so that setting the
// path at every sweep point reads no struct tags. It stops at the first
// step it cannot resolve, which setSteps then reports.
func resolveFields(steps []step) {
	var t reflect.Type
	switch steps[0].key {
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
		case steps[i].isIndex && t.Kind() == reflect.Slice:
			t = t.Elem()
		case !steps[i].isIndex && t.Kind() == reflect.Struct:
			f, ok := fieldIndexByKey(t, steps[i].key)
			if !ok {
				return
			}
			steps[i].field, t = f, t.FieldByIndex(f).Type
		default:
			return
		}
	}
}

// cloneMap copies a map of numbers.
func cloneMap(m reflect.Value) reflect.Value {
	c := reflect.MakeMapWithSize(m.Type(), m.Len())
	for it := m.MapRange(); it.Next(); {
		c.SetMapIndex(it.Key(), it.Value())
	}
	return c
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

// setNumber stores x in a float or integer field; only in place does it
// return a restore function (a copy on write is never undone).
func setNumber(v reflect.Value, where fmt.Stringer, x float64, mode setMode) (restore func(), err error) {
	switch v.Kind() {
	case reflect.Float64, reflect.Float32:
		if mode == inPlace {
			old := v.Float()
			restore = func() { v.SetFloat(old) }
		}
		if mode != probe {
			v.SetFloat(x)
		}
	case reflect.Int, reflect.Int64, reflect.Int32:
		if mode == inPlace {
			old := v.Int()
			restore = func() { v.SetInt(old) }
		}
		if mode != probe {
			if x != math.Trunc(x) || math.Abs(x) > 1<<31 {
				return nil, fmt.Errorf("%s: must be a whole number, got %v", where, x)
			}
			v.SetInt(int64(x))
		}
	default:
		return nil, fmt.Errorf("%s: is not a number, cannot be swept", where)
	}
	return restore, nil
}

// setMapEntry stores x under key in a map of numbers (an overlap table);
// restoring deletes a key that was absent.
func setMapEntry(m reflect.Value, where fmt.Stringer, key string, x float64, probe bool) (func(), error) {
	if m.Type().Key().Kind() != reflect.String || m.Type().Elem().Kind() != reflect.Float64 {
		return nil, fmt.Errorf("%s: is not a number, cannot be swept", where)
	}
	k := reflect.ValueOf(key).Convert(m.Type().Key())
	oldV, wasNil := m.MapIndex(k), m.IsNil()
	restore := func() {
		switch {
		case oldV.IsValid():
			m.SetMapIndex(k, oldV)
		case wasNil && m.CanSet():
			m.Set(reflect.Zero(m.Type()))
		case !m.IsNil():
			m.SetMapIndex(k, reflect.Value{})
		}
	}
	if !probe {
		if m.IsNil() {
			if !m.CanSet() {
				return nil, fmt.Errorf("%s: cannot be set", where)
			}
			m.Set(reflect.MakeMap(m.Type()))
		}
		m.SetMapIndex(k, reflect.ValueOf(x).Convert(m.Type().Elem()))
	}
	return restore, nil
}

// lazyPath is a path printed only when it is formatted, so that setting a
// field (every sweep point does) builds no strings.
type lazyPath []step

func (p lazyPath) String() string { return pathString(p) }

// pathString prints steps back as a dotted path.
func pathString(steps []step) string {
	var b strings.Builder
	for i, st := range steps {
		switch {
		case st.isIndex:
			fmt.Fprintf(&b, "[%d]", st.index)
		case i > 0:
			b.WriteString("." + st.key)
		default:
			b.WriteString(st.key)
		}
	}
	return b.String()
}

// deepCopy returns a copy of v that shares no pointer, slice or map with it.
func deepCopy[T any](v *T) *T {
	out := new(T)
	copyValue(reflect.ValueOf(out).Elem(), reflect.ValueOf(v).Elem())
	return out
}

func copyValue(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		n := reflect.New(src.Type().Elem())
		copyValue(n.Elem(), src.Elem())
		dst.Set(n)
	case reflect.Struct:
		dst.Set(src)
		for i := range src.NumField() {
			if dst.Field(i).CanSet() {
				copyValue(dst.Field(i), src.Field(i))
			}
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		n := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := range src.Len() {
			copyValue(n.Index(i), src.Index(i))
		}
		dst.Set(n)
	case reflect.Map:
		if src.IsNil() {
			return
		}
		n := reflect.MakeMapWithSize(src.Type(), src.Len())
		it := src.MapRange()
		for it.Next() {
			e := reflect.New(src.Type().Elem()).Elem()
			copyValue(e, it.Value())
			n.SetMapIndex(it.Key(), e)
		}
		dst.Set(n)
	default:
		dst.Set(src)
	}
}

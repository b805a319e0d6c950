package schedfile

import (
	"encoding/json"
	"strconv"

	"github.com/netsched/netsched/sim"
)

// list reads a list or null at place w, calling item with the index, first
// token and offset of each item; what names the items in errors. It
// reports whether the value was null.
func (r *reader) list(w place, what string, item func(k int, t json.Token, off int64) error) (null bool, err error) {
	t, off, err := r.token()
	switch {
	case err != nil:
		return false, err
	case t == nil:
		return true, nil
	case t != json.Delim('['):
		return false, r.fieldErr(off, w, "must be a list of %s, got %s", what, describe(t))
	}
	for k := 0; ; k++ {
		t, off, err := r.token()
		if err != nil {
			return false, err
		}
		if t == json.Delim(']') {
			return false, nil
		}
		if err := item(k, t, off); err != nil {
			return false, err
		}
	}
}

// str reads a string, or null as "" if nullable.
func (r *reader) str(w place, nullable bool) (string, error) {
	t, off, err := r.token()
	if err != nil {
		return "", err
	}
	switch v := t.(type) {
	case string:
		return v, nil
	case nil:
		if nullable {
			return "", nil
		}
	}
	return "", r.fieldErr(off, w, "must be a string, got %s", describe(t))
}

// strList reads a list of strings; null is nil.
func (r *reader) strList(w place) ([]string, error) {
	var out []string
	null, err := r.list(w, "strings", func(k int, t json.Token, off int64) error {
		v, ok := t.(string)
		if !ok {
			return r.fieldErr(off, place{action: w.action, key: w.key, elem: k}, "must be a string, got %s", describe(t))
		}
		out = append(out, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !null && out == nil {
		out = []string{}
	}
	return out, nil
}

// number reads a number that a float64 holds.
func (r *reader) number(w place) (float64, error) {
	t, off, err := r.token()
	if err != nil {
		return 0, err
	}
	return r.numberOf(t, off, w)
}

// numberOf is the number token t at off.
func (r *reader) numberOf(t json.Token, off int64, w place) (float64, error) {
	n, ok := t.(json.Number)
	if !ok {
		return 0, r.fieldErr(off, w, "must be a number, got %s", describe(t))
	}
	x, err := strconv.ParseFloat(string(n), 64)
	if err != nil { // out of range: JSON's syntax is ParseFloat's
		return 0, r.fieldErr(off, w, "must be a finite number, got %s", n)
	}
	return x, nil
}

// time reads a planned time, kept in s's memory; null is no time.
func (r *reader) time(s *sim.Schedule, w place) (*float64, error) {
	t, off, err := r.token()
	if err != nil || t == nil {
		return nil, err
	}
	x, err := r.numberOf(t, off, w)
	if err != nil {
		return nil, err
	}
	return s.Time(x), nil
}

// intOf is the integer token t, if it is one an int holds.
func intOf(t json.Token) (int, bool) {
	n, ok := t.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(string(n))
	return i, err == nil
}

// integer reads an integer; null is 0.
func (r *reader) integer(w place) (int, error) {
	t, off, err := r.token()
	if err != nil || t == nil {
		return 0, err
	}
	i, ok := intOf(t)
	if !ok {
		return 0, r.fieldErr(off, w, "must be an integer, got %s", describe(t))
	}
	return i, nil
}

// node reads a node: its index, or its name on the platform.
func (r *reader) node(w place) (int, error) {
	t, off, err := r.token()
	if err != nil {
		return 0, err
	}
	if name, ok := t.(string); ok {
		i, err := r.nodes.lookup(name)
		if err != nil {
			return 0, r.fieldErr(off, w, "%v", err)
		}
		return i, nil
	}
	i, ok := intOf(t)
	if !ok || i < 0 {
		return 0, r.fieldErr(off, w, "must be a node index (an integer >= 0) or a node name, got %s", describe(t))
	}
	return i, nil
}

// after reads an After list, kept in s's memory; null is nil. The
// indices are checked by the replay.
func (r *reader) after(s *sim.Schedule, w place) ([]int, error) {
	r.scratch = r.scratch[:0]
	null, err := r.list(w, "action indices", func(k int, t json.Token, off int64) error {
		i, ok := intOf(t)
		if !ok {
			return r.fieldErr(off, place{action: w.action, key: w.key, elem: k}, "must be an action index, an integer, got %s", describe(t))
		}
		r.scratch = append(r.scratch, i)
		return nil
	})
	if err != nil || null {
		return nil, err
	}
	after := s.Ints(len(r.scratch))
	copy(after, r.scratch)
	return after, nil
}

// metrics reads an object of named numbers; null is nil.
func (r *reader) metrics(w place) (map[string]float64, error) {
	t, off, err := r.token()
	switch {
	case err != nil || t == nil:
		return nil, err
	case t != json.Delim('{'):
		return nil, r.fieldErr(off, w, "must be an object of named numbers, got %s", describe(t))
	}
	m := map[string]float64{}
	for {
		t, off, err := r.token()
		if err != nil || t == json.Delim('}') {
			return m, err
		}
		kw := place{action: -1, key: w.key + "." + t.(string), elem: -1} // object keys are strings
		if _, ok := m[t.(string)]; ok {
			return nil, r.fieldErr(off, kw, "given twice")
		}
		if m[t.(string)], err = r.number(kw); err != nil {
			return nil, err
		}
	}
}

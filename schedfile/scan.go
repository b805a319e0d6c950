package schedfile

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// scanner reads a valid schedule file in one pass over its bytes, without
// tokens. It handles the grammar of a schedule file and nothing else: at
// anything it does not accept (a syntax error, an unknown or repeated
// field, a value of the wrong type, a node no name resolves, or a form it
// leaves to the decoder, such as a 19-digit index) it gives up, and the
// file is read again by walking the decoder's tokens, which accepts or
// rejects it with the exact error. So whenever the scanner succeeds, it
// gives what the token walk would.
type scanner struct {
	data    []byte
	i       int // the next byte to read
	nodes   nodeNames
	scratch []int // an After list being read
}

// scanSchedule reads the schedule in data, reporting false when the
// scanner gives up.
func scanSchedule(data []byte, p *models.Platform) (*sim.Schedule, bool) {
	sc := &scanner{data: data, nodes: nodeNames{p: p}}
	sc.space()
	if !sc.byte('{') {
		return nil, false
	}
	s := &sim.Schedule{}
	var seen [5]bool
	for first := true; ; first = false {
		key, done, ok := sc.field(first)
		if !ok {
			return nil, false
		}
		if done {
			break
		}
		f := -1
		switch string(key) {
		case "policy":
			f = fieldPolicy
		case "claimed_makespan":
			f = fieldClaimed
		case "actions":
			f = fieldActions
		case "metrics":
			f = fieldMetrics
		case "warnings":
			f = fieldWarnings
		}
		if f < 0 || seen[f] || !sc.scheduleValue(s, f) {
			return nil, false
		}
		seen[f] = true
	}
	sc.space()
	if sc.i != len(sc.data) {
		return nil, false
	}
	return s, true
}

// scheduleValue reads the value of the schedule's field number f.
func (sc *scanner) scheduleValue(s *sim.Schedule, f int) (ok bool) {
	switch f {
	case fieldPolicy:
		s.Policy, ok = sc.str(true)
	case fieldClaimed:
		s.Claimed, ok = sc.number()
	case fieldActions:
		ok = sc.actions(s)
	case fieldMetrics:
		s.Metrics, ok = sc.metrics()
	case fieldWarnings:
		s.Warnings, ok = sc.strings()
	}
	return ok
}

// actions reads the list of actions into s; null is no actions.
func (sc *scanner) actions(s *sim.Schedule) bool {
	null, ok := sc.list()
	if !ok || null {
		return ok
	}
	s.Actions = []sim.Action{}
	for k := 0; ; k++ {
		done, ok := sc.item(k)
		switch {
		case !ok:
			return false
		case done:
			return true
		case !sc.byte('{') || !sc.action(s):
			return false
		}
	}
}

// strings reads a list of strings; null is nil.
func (sc *scanner) strings() ([]string, bool) {
	null, ok := sc.list()
	if !ok || null {
		return nil, ok
	}
	out := []string{}
	for k := 0; ; k++ {
		done, ok := sc.item(k)
		if !ok || done {
			return out, ok
		}
		v, ok := sc.str(false)
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
}

// action reads an action whose '{' has been read and appends it to s.
func (sc *scanner) action(s *sim.Schedule) bool {
	var a sim.Action
	var seen [11]bool
	for first := true; ; first = false {
		key, done, ok := sc.field(first)
		if !ok {
			return false
		}
		if done {
			break
		}
		f := -1
		switch string(key) {
		case "kind":
			f = fieldKind
		case "node":
			f = fieldNode
		case "from":
			f = fieldFrom
		case "to":
			f = fieldTo
		case "amount":
			f = fieldAmount
		case "offset":
			f = fieldOffset
		case "start":
			f = fieldStart
		case "end":
			f = fieldEnd
		case "after":
			f = fieldAfter
		case "label":
			f = fieldLabel
		case "round":
			f = fieldRound
		}
		if f < 0 || seen[f] || !sc.actionValue(s, &a, f) {
			return false
		}
		seen[f] = true
	}
	switch {
	case a.Kind == sim.Compute && (seen[fieldFrom] || seen[fieldTo]):
		return false
	case a.Kind == sim.Transfer && seen[fieldNode]:
		return false
	}
	s.Actions = append(s.Actions, a)
	return true
}

// actionValue reads the value of field number f of action a of s.
func (sc *scanner) actionValue(s *sim.Schedule, a *sim.Action, f int) (ok bool) {
	switch f {
	case fieldKind:
		a.Kind, ok = sc.kind()
	case fieldNode:
		a.Node, ok = sc.node()
	case fieldFrom:
		a.From, ok = sc.node()
	case fieldTo:
		a.To, ok = sc.node()
	case fieldAmount:
		a.Amount, ok = sc.number()
	case fieldOffset:
		a.Offset, ok = sc.number()
	case fieldStart:
		a.Start, ok = sc.time(s)
	case fieldEnd:
		a.End, ok = sc.time(s)
	case fieldAfter:
		a.After, ok = sc.after(s)
	case fieldLabel:
		a.Label, ok = sc.str(true)
	case fieldRound:
		if sc.null() {
			return true
		}
		a.Round, ok = sc.integer()
	}
	return ok
}

// space skips JSON's white space.
func (sc *scanner) space() {
	for sc.i < len(sc.data) {
		switch sc.data[sc.i] {
		case ' ', '\t', '\n', '\r':
			sc.i++
		default:
			return
		}
	}
}

// byte reads the byte c after white space, reporting whether it was there.
func (sc *scanner) byte(c byte) bool {
	sc.space()
	if sc.i < len(sc.data) && sc.data[sc.i] == c {
		sc.i++
		return true
	}
	return false
}

// null reads null after white space, reporting whether it was there.
func (sc *scanner) null() bool {
	sc.space()
	if len(sc.data)-sc.i >= 4 && string(sc.data[sc.i:sc.i+4]) == "null" {
		sc.i += 4
		return true
	}
	return false
}

// field reads the key of an object's next field, leaving the scanner at
// its value, or the object's '}', reporting done; first is whether no
// field has been read since the object's '{'.
func (sc *scanner) field(first bool) (key []byte, done, ok bool) {
	if sc.byte('}') {
		return nil, true, true
	}
	if !first && !sc.byte(',') {
		return nil, false, false
	}
	sc.space()
	key, ok = sc.plainString()
	return key, false, ok && sc.byte(':')
}

// list reads the '[' of a list, or null, reporting whether the value was
// null.
func (sc *scanner) list() (null, ok bool) {
	if sc.null() {
		return true, true
	}
	return false, sc.byte('[')
}

// item moves the scanner to a list's item number k, or past the list's
// ']', reporting done.
func (sc *scanner) item(k int) (done, ok bool) {
	if sc.byte(']') {
		return true, true
	}
	return false, k == 0 || sc.byte(',')
}

// plainString reads a string with no escapes or control characters, in
// valid UTF-8, whose bytes are its value.
func (sc *scanner) plainString() ([]byte, bool) {
	if sc.i >= len(sc.data) || sc.data[sc.i] != '"' {
		return nil, false
	}
	start := sc.i + 1
	ascii := true
	for j := start; j < len(sc.data); j++ {
		switch c := sc.data[j]; {
		case c == '"':
			v := sc.data[start:j]
			if !ascii && !utf8.Valid(v) {
				return nil, false
			}
			sc.i = j + 1
			return v, true
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, false
}

// str reads a string, or null as "" if nullable. A string with escapes is
// decoded by encoding/json, as the decoder does.
func (sc *scanner) str(nullable bool) (string, bool) {
	if sc.null() {
		return "", nullable
	}
	if v, ok := sc.plainString(); ok {
		return string(v), true
	}
	if sc.i >= len(sc.data) || sc.data[sc.i] != '"' {
		return "", false
	}
	for j := sc.i + 1; j < len(sc.data); j++ {
		switch sc.data[j] {
		case '\\':
			j++
		case '"':
			var v string
			if json.Unmarshal(sc.data[sc.i:j+1], &v) != nil {
				return "", false
			}
			sc.i = j + 1
			return v, true
		}
	}
	return "", false
}

// kind reads an action's kind, a string; the bundled kinds take no memory.
func (sc *scanner) kind() (sim.ActionKind, bool) {
	sc.space()
	if v, ok := sc.plainString(); ok {
		switch string(v) {
		case string(sim.Compute):
			return sim.Compute, true
		case string(sim.Transfer):
			return sim.Transfer, true
		}
		return sim.ActionKind(v), true
	}
	v, ok := sc.str(false)
	return sim.ActionKind(v), ok
}

// literal reads a number as JSON writes it, returning its text and
// whether it is an integer (no fraction, no exponent).
func (sc *scanner) literal() (lit []byte, integer, ok bool) {
	sc.space()
	d, start := sc.data, sc.i
	j := start
	digits := func() int {
		k := j
		for j < len(d) && d[j] >= '0' && d[j] <= '9' {
			j++
		}
		return j - k
	}
	if j < len(d) && d[j] == '-' {
		j++
	}
	switch {
	case j < len(d) && d[j] == '0':
		j++
	case digits() == 0:
		return nil, false, false
	}
	integer = true
	if j < len(d) && d[j] == '.' {
		j++
		if digits() == 0 {
			return nil, false, false
		}
		integer = false
	}
	if j < len(d) && (d[j] == 'e' || d[j] == 'E') {
		j++
		if j < len(d) && (d[j] == '+' || d[j] == '-') {
			j++
		}
		if digits() == 0 {
			return nil, false, false
		}
		integer = false
	}
	sc.i = j
	return d[start:j], integer, true
}

// number reads a number that a float64 holds.
func (sc *scanner) number() (float64, bool) {
	lit, integer, ok := sc.literal()
	if !ok {
		return 0, false
	}
	if integer && lit[0] != '-' && len(lit) <= 15 { // exact in a float64, as ParseFloat gives it
		n, _ := smallInt(lit)
		return float64(n), true
	}
	x, err := strconv.ParseFloat(string(lit), 64)
	return x, err == nil
}

// smallInt is the integer literal lit of at most 18 digits, which an
// int64 holds; it reports false for other literals.
func smallInt(lit []byte) (int, bool) {
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	if len(lit) == 0 || len(lit) > 18 {
		return 0, false
	}
	n := 0
	for _, c := range lit {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// integer reads an integer that strconv.Atoi would take.
func (sc *scanner) integer() (int, bool) {
	lit, integer, ok := sc.literal()
	if !ok || !integer {
		return 0, false
	}
	return smallInt(lit)
}

// time reads a planned time, kept in s's memory; null is no time.
func (sc *scanner) time(s *sim.Schedule) (*float64, bool) {
	if sc.null() {
		return nil, true
	}
	x, ok := sc.number()
	if !ok {
		return nil, false
	}
	return s.Time(x), true
}

// node reads a node: its index, or its name on the platform.
func (sc *scanner) node() (int, bool) {
	sc.space()
	if sc.i < len(sc.data) && sc.data[sc.i] == '"' {
		name, ok := sc.str(false)
		if !ok {
			return 0, false
		}
		i, err := sc.nodes.lookup(name)
		return i, err == nil
	}
	i, ok := sc.integer()
	return i, ok && i >= 0
}

// after reads an After list, kept in s's memory; null is nil.
func (sc *scanner) after(s *sim.Schedule) ([]int, bool) {
	sc.scratch = sc.scratch[:0]
	null, ok := sc.list()
	if !ok || null {
		return nil, ok
	}
	for k := 0; ; k++ {
		done, ok := sc.item(k)
		if !ok {
			return nil, false
		}
		if done {
			break
		}
		i, ok := sc.integer()
		if !ok {
			return nil, false
		}
		sc.scratch = append(sc.scratch, i)
	}
	after := s.Ints(len(sc.scratch))
	copy(after, sc.scratch)
	return after, true
}

// metrics reads an object of named numbers; null is nil.
func (sc *scanner) metrics() (map[string]float64, bool) {
	if sc.null() {
		return nil, true
	}
	if !sc.byte('{') {
		return nil, false
	}
	m := map[string]float64{}
	for first := true; ; first = false {
		key, done, ok := sc.field(first)
		if !ok {
			return nil, false
		}
		if done {
			return m, true
		}
		if _, ok := m[string(key)]; ok {
			return nil, false
		}
		x, ok := sc.number()
		if !ok {
			return nil, false
		}
		m[string(key)] = x
	}
}

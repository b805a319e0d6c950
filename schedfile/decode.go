package schedfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/netsched/netsched/sim"
)

// The fields of a schedule, numbered as scheduleKeys lists them.
const (
	fieldPolicy = iota
	fieldClaimed
	fieldActions
	fieldMetrics
	fieldWarnings
)

// scheduleKeys are the keys of a schedule's fields.
func scheduleKeys() [5]string {
	return [...]string{"policy", "claimed_makespan", "actions", "metrics", "warnings"}
}

// The fields of an action, numbered as actionKeys lists them.
const (
	fieldKind = iota
	fieldNode
	fieldFrom
	fieldTo
	fieldAmount
	fieldOffset
	fieldStart
	fieldEnd
	fieldAfter
	fieldLabel
	fieldRound
)

// actionKeys are the keys of an action's fields.
func actionKeys() [11]string {
	return [...]string{"kind", "node", "from", "to", "amount", "offset", "start", "end", "after", "label", "round"}
}

// keyOffsets holds the offset of each field's key in the file, 0 for a
// field not given (a key never starts the file).
type keyOffsets [16]int64

// schedule reads the file: one object, and nothing after it.
func (r *reader) schedule() (*sim.Schedule, error) {
	if len(bytes.TrimSpace(r.data)) == 0 {
		return nil, r.at(0, errors.New("the file is empty: want a schedule, a JSON object"))
	}
	t, off, err := r.token()
	if err != nil {
		return nil, err
	}
	if t != json.Delim('{') {
		return nil, r.at(off, fmt.Errorf("want a schedule, a JSON object, got %s", describe(t)))
	}
	s := &sim.Schedule{}
	keys := scheduleKeys()
	var at keyOffsets
	if err := r.fields(keys[:], -1, &at, func(f int, w place) error { return r.scheduleValue(s, f, w) }); err != nil {
		return nil, err
	}
	if err := r.end(); err != nil {
		return nil, err
	}
	return s, nil
}

// end checks that nothing but white space follows the schedule.
func (r *reader) end() error {
	off := r.dec.InputOffset()
	if _, err := r.dec.Token(); err == io.EOF {
		return nil
	}
	return r.at(off, errors.New("more data after the schedule's closing brace; a file holds one schedule"))
}

// fields reads the fields of an object whose '{' has been read, calling
// value for each with the field's number in keys and its place; action is
// the index of the action the object is, or -1. It records in at where
// each key starts, and rejects unknown and repeated keys.
func (r *reader) fields(keys []string, action int, at *keyOffsets, value func(f int, w place) error) error {
	for {
		t, off, err := r.token()
		if err != nil {
			return err
		}
		if t == json.Delim('}') {
			return nil
		}
		w := place{action: action, key: t.(string), elem: -1} // object keys are strings
		f := slices.Index(keys, w.key)
		switch {
		case f < 0:
			return r.fieldErr(off, w, "unknown field (known here: %s)", strings.Join(keys, ", "))
		case at[f] != 0:
			return r.fieldErr(off, w, "given twice")
		}
		at[f] = off
		if err := value(f, w); err != nil {
			return err
		}
	}
}

// scheduleValue reads the value of the schedule's field number f.
func (r *reader) scheduleValue(s *sim.Schedule, f int, w place) (err error) {
	switch f {
	case fieldPolicy:
		s.Policy, err = r.str(w, true)
	case fieldClaimed:
		s.Claimed, err = r.number(w)
	case fieldActions:
		err = r.actions(s, w)
	case fieldMetrics:
		s.Metrics, err = r.metrics(w)
	case fieldWarnings:
		s.Warnings, err = r.strList(w)
	}
	return err
}

// actions reads the list of actions into s; null is no actions.
func (r *reader) actions(s *sim.Schedule, w place) error {
	null, err := r.list(w, "actions", func(i int, t json.Token, off int64) error {
		return r.action(s, i, t, off)
	})
	if err == nil && !null && s.Actions == nil {
		s.Actions = []sim.Action{}
	}
	return err
}

// action reads action i, whose first token t at off has been read.
func (r *reader) action(s *sim.Schedule, i int, t json.Token, off int64) error {
	if t != json.Delim('{') {
		return r.fieldErr(off, place{action: -1, key: "actions", elem: i}, "want an action, a JSON object, got %s", describe(t))
	}
	var a sim.Action
	var at keyOffsets
	keys := actionKeys()
	if err := r.fields(keys[:], i, &at, func(f int, w place) error { return r.actionValue(s, &a, f, w) }); err != nil {
		return err
	}
	if err := r.checkNodeFields(&a, i, &at); err != nil {
		return err
	}
	s.Actions = append(s.Actions, a)
	return nil
}

// actionValue reads the value of field number f of action a of s.
func (r *reader) actionValue(s *sim.Schedule, a *sim.Action, f int, w place) (err error) {
	switch f {
	case fieldKind:
		var kind string
		kind, err = r.str(w, false)
		a.Kind = sim.ActionKind(kind)
	case fieldNode:
		a.Node, err = r.node(w)
	case fieldFrom:
		a.From, err = r.node(w)
	case fieldTo:
		a.To, err = r.node(w)
	case fieldAmount:
		a.Amount, err = r.number(w)
	case fieldOffset:
		a.Offset, err = r.number(w)
	case fieldStart:
		a.Start, err = r.time(s, w)
	case fieldEnd:
		a.End, err = r.time(s, w)
	case fieldAfter:
		a.After, err = r.after(s, w)
	case fieldLabel:
		a.Label, err = r.str(w, true)
	case fieldRound:
		a.Round, err = r.integer(w)
	}
	return err
}

// checkNodeFields rejects the node fields action i's kind does not have:
// a compute action runs on its node, a transfer goes from one node to
// another. Kinds other than these are left to the replay.
func (r *reader) checkNodeFields(a *sim.Action, i int, at *keyOffsets) error {
	keys := actionKeys()
	check := func(f int, msg string) error {
		if at[f] == 0 {
			return nil
		}
		return r.fieldErr(at[f], place{action: i, key: keys[f], elem: -1}, "%s", msg)
	}
	switch a.Kind {
	case sim.Compute:
		const msg = "a compute action has a node, not from and to"
		if err := check(fieldFrom, msg); err != nil {
			return err
		}
		return check(fieldTo, msg)
	case sim.Transfer:
		return check(fieldNode, "a transfer has from and to, not a node")
	}
	return nil
}

package policies

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Options are a policy's settings from a scenario, such as k: 10: each
// value an int, a float64, a bool or a string, as YAML decodes it. They are
// checked against the policy's declared Option list (Entry.CheckOptions)
// before it plans, and read through the declarations (Option.Int and the
// like), which supply the defaults.
type Options map[string]any

// Type is the type of an option's values.
type Type string

// The option types.
const (
	TypeInt    Type = "int"    // a whole number
	TypeFloat  Type = "float"  // a finite number
	TypeBool   Type = "bool"   // true or false
	TypeChoice Type = "choice" // one word of Option.Choices
)

// Option declares one option of a policy: its name in scenarios, type,
// range or choices, default and meaning. A policy lists its options in its
// Entry and reads them with Int, Float, Bool or String, so the scenario
// loader, `netsched doc` and the policy use one declaration.
type Option struct {
	Name    string
	Type    Type
	Default any      // an int, float64, bool or string of the option's type
	Min     float64  // numbers: the least value allowed (inclusive unless MinOpen)
	MinOpen bool     // numbers: Min itself is not allowed (> Min)
	Choices []string // TypeChoice: the words allowed
	Doc     string   // one line: what it does, with the paper section where it helps
	// Source says where the default comes from: the paper (and section)
	// that sets it, or why netsched chose it where no paper does.
	Source string
}

// Range describes the values allowed, for errors and the reference:
// "a whole number >= 1", "a finite number > 0", "true or false", "one of
// cp, random".
func (o Option) Range() string {
	switch o.Type {
	case TypeInt:
		return "a whole number >= " + formatNumber(o.Min)
	case TypeFloat:
		op := ">="
		if o.MinOpen {
			op = ">"
		}
		return "a finite number " + op + " " + formatNumber(o.Min)
	case TypeBool:
		return "true or false"
	}
	return "one of " + strings.Join(o.Choices, ", ")
}

// Check reports whether v is a value of the option: of its type, in its
// range or among its choices. A whole float64 is a whole number (sweep
// values are float64).
func (o Option) Check(v any) error {
	if _, ok := o.convert(v); !ok {
		return fmt.Errorf("option %s: want %s, got %s", o.Name, o.Range(), describeValue(v))
	}
	return nil
}

// convert returns v as a value of the option's type (int, float64, bool or
// string), or false when it is not one in range.
func (o Option) convert(v any) (any, bool) {
	switch o.Type {
	case TypeInt:
		n, ok := wholeNumber(v)
		return n, ok && float64(n) >= o.Min
	case TypeFloat:
		x, ok := number(v)
		return x, ok && !math.IsNaN(x) && !math.IsInf(x, 0) && (x > o.Min || !o.MinOpen && x == o.Min)
	case TypeBool:
		b, ok := v.(bool)
		return b, ok
	case TypeChoice:
		s, ok := word(v)
		return s, ok && slices.Contains(o.Choices, s)
	}
	return nil, false
}

// word returns v as a choice: a string, or a whole number as written (YAML
// reads rule: 2004 as a number).
func word(v any) (string, bool) {
	if s, ok := v.(string); ok {
		return s, true
	}
	if n, ok := v.(int); ok {
		return strconv.Itoa(n), true
	}
	return "", false
}

// value returns the option's value in o, or its default when o does not
// set it or sets it to a value Check refuses (Plan checks options before a
// policy reads them, so that happens only to a planner called directly).
func (o Option) value(opts Options) any {
	if v, ok := opts[o.Name]; ok {
		if x, ok := o.convert(v); ok {
			return x
		}
	}
	return o.Default
}

// Int reads a TypeInt option from opts, or its default.
func (o Option) Int(opts Options) int { return o.value(opts).(int) }

// Float reads a TypeFloat option from opts, or its default.
func (o Option) Float(opts Options) float64 { return o.value(opts).(float64) }

// Bool reads a TypeBool option from opts, or its default.
func (o Option) Bool(opts Options) bool { return o.value(opts).(bool) }

// String reads a TypeChoice option from opts, or its default.
func (o Option) String(opts Options) string { return o.value(opts).(string) }

// validDeclaration reports a programming error in a declaration: no name,
// an unknown type, or a default that is not a value of the option.
func (o Option) validDeclaration() error {
	switch {
	case o.Name == "":
		return fmt.Errorf("an option has no name")
	case o.Type == TypeChoice && len(o.Choices) == 0:
		return fmt.Errorf("option %s: a choice without choices", o.Name)
	}
	x, ok := o.convert(o.Default)
	if !ok || x != o.Default {
		return fmt.Errorf("option %s: default %v (%T) is not %s of type %s", o.Name, o.Default, o.Default, o.Range(), o.Type)
	}
	return nil
}

// wholeNumber returns v as an int when it is an integer or a whole float.
func wholeNumber(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int(x), true
		}
	}
	return 0, false
}

// number returns v as a float64 when it is a number.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// describeValue names a value for an error: numbers and words as written.
func describeValue(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case float64:
		return formatNumber(x)
	}
	return fmt.Sprint(v)
}

func formatNumber(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

package models

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestPlainProcessors decodes random processor lists, written in the
// common way and in many others, through Processors (which reads the
// common way from the nodes itself) and as a plain []Processor through the
// strict decoder's reflection: the same processors or the same error.
func TestPlainProcessors(t *testing.T) {
	names := []string{"p0", `"p 1"`, "'q'", "5", "~", "yes", "!!str 7", `""`}
	numbers := []string{"1", "0.05", "2.5e-3", "10", "0", "-0", "1E3", `"2"`, "0x10", ".inf", "007", "1_0", "!!float 3", "!!int 2", "abc", "-1.5", "3."}
	keys := []string{"name", "gamma", "load", "gamma", "load", "overlap", "bogus", `"gamma"`, "<<"}
	plain, n := 0, uint64(3000)
	if testing.Short() {
		n = 600
	}
	for seed := range n {
		rng := rand.New(rand.NewPCG(seed, 5))
		var b strings.Builder
		b.WriteString("p:\n")
		for range 1 + rng.IntN(4) {
			var pairs []string
			perm := rng.Perm(3) // distinct keys, in the common way
			for j := range rng.IntN(4) {
				k := keys[rng.IntN(len(keys))]
				if seed%2 == 0 {
					k = keys[perm[j]]
				}
				var v string
				switch k {
				case "name":
					v = names[rng.IntN(len(names))]
				case "overlap":
					v = "{send: 2}"
				default:
					v = numbers[rng.IntN(len(numbers))]
					if seed%2 == 0 {
						v = numbers[rng.IntN(7)]
					}
				}
				pairs = append(pairs, k+": "+v)
			}
			fmt.Fprintf(&b, "  - {%s}\n", strings.Join(pairs, ", "))
		}
		in := b.String()
		var fast struct{ P Processors }
		var slow struct{ P []Processor }
		fastErr, slowErr := strictDecode(in, &fast), strictDecode(in, &slow)
		if fmt.Sprint(fastErr) != fmt.Sprint(slowErr) {
			t.Fatalf("%s: errors %v and %v", in, fastErr, slowErr)
		}
		if slowErr == nil && !reflect.DeepEqual([]Processor(fast.P), slow.P) {
			t.Fatalf("%s: got %+v, want %+v", in, fast.P, slow.P)
		}
		var doc yaml.Node
		if yaml.Unmarshal([]byte(in), &doc) == nil {
			if _, ok := plainProcessors(doc.Content[0].Content[1]); ok {
				plain++
			}
		}
	}
	if plain < int(n)/3 {
		t.Errorf("only %d of %d lists took the plain path", plain, n)
	}
}

func strictDecode(in string, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader([]byte(in)))
	dec.KnownFields(true)
	return dec.Decode(v)
}

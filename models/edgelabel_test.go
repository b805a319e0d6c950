package models

import "testing"

// TestEdgeLabel: every pair of names, the separator and quotes in them
// included, is written as a label that reads back as the same pair, and
// distinct pairs get distinct labels; a bare name holding the separator
// reads as no pair.
func TestEdgeLabel(t *testing.T) {
	names := []string{"a", "b→c", "a→b", "c", `"q`, `x"y`, "→", "", "t1", `"a→b"`}
	seen := map[string][2]string{}
	for _, u := range names {
		for _, v := range names {
			l := EdgeLabelOf(u, v)
			from, to, ok := ParseEdgeLabel(l)
			if !ok || from != u || to != v {
				t.Errorf("EdgeLabelOf(%q, %q) = %q reads back as %q, %q, %v", u, v, l, from, to, ok)
			}
			if p, dup := seen[l]; dup {
				t.Errorf("label %q names both %q and %q", l, p, [2]string{u, v})
			}
			seen[l] = [2]string{u, v}
		}
	}
	if got := EdgeLabelOf("a", "b"); got != "a→b" {
		t.Errorf(`EdgeLabelOf("a", "b") = %q, want a→b`, got)
	}
	for _, bad := range []string{"a→b→c", "ab", `"a→b`, `"a"b→c`, `a→"b"c`} {
		if from, to, ok := ParseEdgeLabel(bad); ok {
			t.Errorf("ParseEdgeLabel(%q) = %q, %q; want no pair", bad, from, to)
		}
	}
}

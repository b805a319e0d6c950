package suggest

import "testing"

func TestClosest(t *testing.T) {
	known := []string{"beta", "alpha", "duplex", "processors", "cross", "crossbar-hetero", "k"}
	for _, tc := range []struct{ name, want string }{
		{"beat", "beta"},              // a transposition: two edits
		{"bta", "beta"},               // a deletion
		{"Beta", "beta"},              // case alone
		{"proccessors", "processors"}, // an insertion
		{"crosss", "cross"},
		{"crosbar-hetero", "crossbar-hetero"},
		{"K", "k"},    // case alone, even for one letter
		{"kk", "k"},   // a key pressed twice
		{"j", ""},     // one letter is not a misspelling of another
		{"gamma", ""}, // far from everything
		{"beta", ""},  // known: nothing to suggest
		{"duplx", "duplex"},
	} {
		if got := Closest(tc.name, known); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := DidYouMean("beat", known); got != "; did you mean beta?" {
		t.Errorf("DidYouMean: %q", got)
	}
	if got := DidYouMean("zzzz", known); got != "" {
		t.Errorf("DidYouMean of nothing near: %q", got)
	}
}

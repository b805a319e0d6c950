package slowtest

import "testing"

func TestEnabled(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  bool
	}{{"", false}, {"0", false}, {"1", true}, {"yes", true}} {
		t.Setenv(Var, tc.value)
		if got := Enabled(); got != tc.want {
			t.Errorf("%s=%q: Enabled() = %v, want %v", Var, tc.value, got, tc.want)
		}
		if got := Pick(1, 2); got != map[bool]int{false: 1, true: 2}[tc.want] {
			t.Errorf("%s=%q: Pick(1, 2) = %d", Var, tc.value, got)
		}
	}
}

// TestSkip: without its variable a test skips (a subtest that Error would
// fail, and so would its parent); with it, it runs.
func TestSkip(t *testing.T) {
	for _, tc := range []struct {
		name string
		skip func(testing.TB)
	}{{Var, Skip}, {TimingVar, Timing}} {
		t.Setenv(tc.name, "")
		ran := false
		t.Run(tc.name+" unset", func(t *testing.T) {
			tc.skip(t)
			ran = true
			t.Error("ran without " + tc.name)
		})
		if ran {
			t.Errorf("returned without %s", tc.name)
		}
		t.Setenv(tc.name, "1")
		t.Run(tc.name+"=1", func(t *testing.T) {
			tc.skip(t)
			ran = true
		})
		if !ran {
			t.Errorf("skipped with %s=1", tc.name)
		}
	}
}

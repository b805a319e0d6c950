package tooltest

import (
	"errors"
	"testing"
)

func TestPathFound(t *testing.T) {
	if got := Path(t, func() (string, error) { return "/usr/bin/x", nil }); got != "/usr/bin/x" {
		t.Errorf("Path = %q", got)
	}
}

func TestCommandFound(t *testing.T) {
	if got := Command(t, "sh", "dash"); got == "" {
		t.Error("Command found no sh")
	}
}

// TestMissingSkips: outside CI a missing tool skips the test (a subtest
// that Fatal would fail, and so would its parent).
func TestMissingSkips(t *testing.T) {
	t.Setenv("CI", "")
	for name, find := range map[string]func(t *testing.T){
		"Path":    func(t *testing.T) { Path(t, func() (string, error) { return "", errors.New("x is not installed") }) },
		"Command": func(t *testing.T) { Command(t, "no-such-command-netsched", "none") },
	} {
		ok := t.Run(name, func(t *testing.T) {
			find(t)
			t.Error("returned for a missing tool")
		})
		if !ok {
			t.Errorf("%s: a missing tool failed the test outside CI", name)
		}
	}
}

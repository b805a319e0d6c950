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

func TestPathMissingSkips(t *testing.T) {
	t.Setenv("CI", "")
	ok := t.Run("missing", func(t *testing.T) {
		Path(t, func() (string, error) { return "", errors.New("x is not installed") })
		t.Error("Path returned for a missing tool")
	})
	if !ok {
		t.Error("a missing tool failed the test outside CI")
	}
}

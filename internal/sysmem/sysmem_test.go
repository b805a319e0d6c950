package sysmem

import "testing"

func TestTotal(t *testing.T) {
	if n := Total(); n < 64<<20 {
		t.Errorf("Total() = %d bytes, less than any machine this runs on", n)
	}
}

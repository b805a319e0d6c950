package sweep

import "testing"

func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{{"4GiB", 4 << 30}, {"500MB", 500e6}, {"1.5 KiB", 1536}, {"1024", 1024}, {"2B", 2}} {
		if got, err := ParseBytes(tc.in); err != nil || got != tc.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "lots", "-1GB", "0", "1e30TB"} {
		if _, err := ParseBytes(bad); err == nil {
			t.Errorf("ParseBytes(%q): no error", bad)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{{1000, "1000 B"}, {12, "12 B"}, {1536, "1.5 KiB"}, {50 << 10, "50 KiB"}, {300 << 20, "300 MiB"}} {
		if got := FormatBytes(tc.in); got != tc.want {
			t.Errorf("FormatBytes(%g) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

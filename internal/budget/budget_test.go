package budget

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{{"4GiB", 4 << 30}, {"500MB", 500e6}, {"1.5 KiB", 1536}, {"1024", 1024}, {"2B", 2}} {
		if got, err := Parse(tc.in); err != nil || got != Bytes(tc.want) {
			t.Errorf("Parse(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "lots", "-1GB", "0", "1e30TB"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{{1000, "1000 B"}, {12, "12 B"}, {1536, "1.5 KiB"}, {50 << 10, "50 KiB"}, {300 << 20, "300 MiB"}} {
		if got := Format(tc.in); got != tc.want {
			t.Errorf("Format(%g) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := Bytes(1<<20).ReadFile(small, 100); err != nil || len(data) != 1000 {
		t.Errorf("1000 B at 100× within 1 MiB: %d bytes, %v", len(data), err)
	}
	if _, err := Bytes(50_000).ReadFile(small, 100); !IsExceeded(err) || !strings.Contains(err.Error(), "a file of 1000 B") {
		t.Errorf("1000 B at 100× within 50 kB: %v, want an ExceededError naming the size", err)
	}
	if _, err := Bytes(1<<30).ReadFile("/dev/zero", 1); err == nil || !strings.Contains(err.Error(), "device") {
		t.Errorf("/dev/zero: %v, want refused as a device", err)
	}
}

package sysmem

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"testing/fstest"
)

func TestTotal(t *testing.T) {
	if n := Total(); n < 64<<20 {
		t.Errorf("Total() = %d bytes, less than any machine this runs on", n)
	}
}

// TestCgroupLimit reads the limits of made-up cgroup trees: v2 with a
// limit on an ancestor, v1 with the kernel's "unlimited", a hybrid
// machine, and a path from another cgroup namespace.
func TestCgroupLimit(t *testing.T) {
	tree := fstest.MapFS{
		"a/memory.max":                        {Data: []byte("max\n")},
		"a/b/memory.max":                      {Data: []byte("max\n")},
		"memory.max":                          {Data: []byte("8000000000\n")},
		"a/memory.current":                    {Data: []byte("100\n")},
		"x/memory.max":                        {Data: []byte("3000000000\n")},
		"x/memory.current":                    {Data: []byte("1200000000\n")},
		"x/y/memory.max":                      {Data: []byte("2500000000\n")},
		"x/y/memory.current":                  {Data: []byte("500000000\n")},
		"memory/memory.limit_in_bytes":        {Data: []byte("9223372036854771712\n")},
		"memory/job/memory.limit_in_bytes":    {Data: []byte("4294967296\n")},
		"memory/job/memory.usage_in_bytes":    {Data: []byte("294967296\n")},
		"memory/job/st/memory.limit_in_bytes": {Data: []byte("9223372036854771712\n")},
	}
	for _, tc := range []struct {
		self      string
		ok        bool
		lim, free int64
	}{
		{"0::/a/b\n", true, 8000000000, 8000000000},                   // the root's own limit
		{"0::/x/y\n", true, 3000000000, 1800000000},                   // x leaves less than y
		{"4:memory:/job/st\n0::/\n", true, 4294967296, 4000000000},    // v1, the job's limit
		{"4:cpu,memory:/elsewhere/z\n", false, 0, 0},                  // another namespace: the unlimited root
		{"1:cpu:/a\n", false, 0, 0},                                   // no memory controller
		{"4:memory:/\n0::/gone/away\n", true, 8000000000, 8000000000}, // a missing v2 path reads the root
	} {
		l, ok := cgroupLimit(tree, tc.self)
		if ok != tc.ok || l.Bytes != tc.lim || l.Free != tc.free {
			t.Errorf("%q: %+v, %v; want limit %d, free %d, %v", tc.self, l, ok, tc.lim, tc.free, tc.ok)
		}
	}
}

// TestLimitsUlimit runs the test binary itself under ulimit -v and -d:
// Limits reports both, each leaving less than the limit.
func TestLimitsUlimit(t *testing.T) {
	if os.Getenv("SYSMEM_CHILD") == "1" {
		for _, l := range Limits() {
			t.Logf("limit %s %d %d", l.Name, l.Bytes, l.Free)
		}
		return
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to set the limits with")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", `ulimit -v 3000000 && ulimit -d 2500000 && exec "$0" -test.run '^TestLimitsUlimit$' -test.v`, exe)
	cmd.Env = append(os.Environ(), "SYSMEM_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Skipf("cannot run under ulimit: %v\n%s", err, out)
	}
	for _, want := range []string{"limit the address-space limit (ulimit -v) 3072000000 ", "limit the data-segment limit (ulimit -d) 2560000000 "} {
		if !strings.Contains(string(out), want) {
			t.Errorf("under ulimit, Limits does not report %q:\n%s", want, out)
		}
	}
}

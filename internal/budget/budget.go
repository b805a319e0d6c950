// Package budget bounds the memory an input may make netsched take, and
// refuses an input before it is read or built when the estimate of what it
// implies is above the bound: a clear error instead of an out-of-memory
// crash minutes later.
package budget

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/netsched/netsched/internal/sysmem"
)

// Bytes is a memory budget in bytes; zero or less means no bound.
type Bytes int64

// Flag names the command-line flag that sets the budget, for messages.
const Flag = "--max-memory"

// Least is the least budget netsched can work in: what it takes
// resident to run a small bundled scenario (15 MiB measured for
// netsched run crossbar-hetero), rounded up.
const Least Bytes = 16 << 20

// A Bound is one of the bounds the default budget is the least of.
type Bound struct {
	Name  string // such as "half the machine's memory"
	Bytes Bytes
}

// Bounds returns what bounds the default budget: half the machine's
// memory, and three quarters of what each of the process's limits
// (sysmem.Limits: ulimit -v, ulimit -d, the cgroup's memory limit) leaves
// it now. The quarter kept back is for what the estimates do not count:
// the Go runtime's own structures, fragmentation, and the address space
// the heap's growth reserves.
func Bounds() []Bound {
	out := []Bound{{"half the machine's memory", Bytes(sysmem.Total() / 2)}}
	for _, l := range sysmem.Limits() {
		out = append(out, Bound{"3/4 of what " + l.Name + " leaves", Bytes(max(l.Free, 0) / 4 * 3)})
	}
	return out
}

// Default is the least of Bounds.
func Default() Bytes {
	b := Bytes(math.MaxInt64)
	for _, x := range Bounds() {
		b = min(b, x.Bytes)
	}
	return b
}

// Ceiling bounds an explicit budget b by the process's limits (Bounds
// but the machine's memory, which the user may know better than half
// of): a budget above what ulimit or the cgroup allows would let an input
// through that the process cannot hold. It returns b, or the bound that
// is lower, named.
func Ceiling(b Bytes) (Bytes, string) {
	why := ""
	for _, x := range Bounds()[1:] {
		if x.Bytes < b {
			b, why = x.Bytes, x.Name
		}
	}
	return b, why
}

// Explain says what the budget is by default, naming each bound and its
// value, for messages that refuse an input.
func Explain() string {
	var parts []string
	for _, x := range Bounds() {
		parts = append(parts, fmt.Sprintf("%s, %s", x.Name, Format(float64(x.Bytes))))
	}
	return fmt.Sprintf("the budget is %s, or by default the least of: %s", Flag, strings.Join(parts, "; "))
}

// ExceededError says an input needs more memory than the budget.
type ExceededError struct {
	What   string  // what needs it, with its verb: "3.2e10 tasks need"
	Need   float64 // bytes
	Budget Bytes
}

func (e *ExceededError) Error() string {
	return fmt.Sprintf("%s about %s of memory, above the budget of %s (%s)",
		e.What, Format(e.Need), Format(float64(e.Budget)), Flag)
}

// Check returns an *ExceededError when need bytes are above the budget;
// what says what needs them, with its verb ("3.2e10 tasks need").
func (b Bytes) Check(what string, need float64) error {
	if b <= 0 || need <= float64(b) {
		return nil
	}
	return &ExceededError{What: what, Need: need, Budget: b}
}

// Format writes a number of bytes with a binary unit: "1.5 GiB", "1000 B".
func Format(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	u := 0
	for b >= 1024 && u < len(units)-1 {
		b /= 1024
		u++
	}
	if b >= 100 {
		return strconv.FormatFloat(b, 'f', 0, 64) + " " + units[u]
	}
	return strconv.FormatFloat(b, 'g', 3, 64) + " " + units[u]
}

// Parse reads a size: a whole number of bytes, or a number with a unit B,
// KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024).
func Parse(s string) (Bytes, error) {
	units := []struct {
		suffix string
		scale  float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}}
	t := strings.TrimSpace(s)
	scale := 1.0
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, scale = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.scale
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v > 0) || v*scale > math.MaxInt64 {
		return 0, fmt.Errorf("%q: want a size such as 4GiB or 500MB", s)
	}
	return Bytes(v * scale), nil
}

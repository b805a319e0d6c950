package external

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/budget"
)

// TestOutputWithinBudget: a process that prints without end stops being
// read at its run's share of the budget (1 MiB of output for a budget of
// 16 MiB, at 16 bytes a byte), with a *budget.ExceededError, whether it
// runs once or persistently; the memory read stays near that share.
// Without a budget in the context, the limit is maxStdoutLen and the
// error is the policy's own.
func TestOutputWithinBudget(t *testing.T) {
	ctx := budget.NewContext(context.Background(), 16<<20)
	for _, persistent := range []bool{false, true} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		p := sh("head -c 100000000 /dev/zero", persistent, 0)
		_, err := p.Plan(ctx, instance())
		p.Close()
		runtime.ReadMemStats(&after)
		if !budget.IsExceeded(err) || !strings.Contains(err.Error(), "printed more than 1 MiB on its standard output") {
			t.Errorf("persistent %v: %v; want the budget exceeded at 1 MiB", persistent, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
			t.Errorf("persistent %v: allocated %d MiB reading the output", persistent, alloc>>20)
		}
	}
	if _, err := outputLimit(context.Background()); budget.IsExceeded(err) || !strings.Contains(err.Error(), "256 MiB") {
		t.Errorf("no budget: %v; want the 256 MiB limit of a schedule", err)
	}
}

// TestOutputChunks: output keeps what is written, in order, across its
// chunks, and refuses a write past its limit.
func TestOutputChunks(t *testing.T) {
	o := &output{limit: 7 * (outputChunk/2 + 1), over: context.Canceled}
	var want []byte
	for i := range 7 {
		p := []byte(strings.Repeat(string(rune('a'+i)), outputChunk/2+1))
		if n, err := o.Write(p); err != nil || n != len(p) {
			t.Fatalf("write %d: %d, %v", i, n, err)
		}
		want = append(want, p...)
	}
	if _, err := o.Write(make([]byte, 10)); err != context.Canceled || !o.passed {
		t.Errorf("a write past the limit: %v, passed %v", err, o.passed)
	}
	if got := o.Bytes(); string(got) != string(want) {
		t.Errorf("read back %d bytes, not the %d written", len(got), len(want))
	}
}

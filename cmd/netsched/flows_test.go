package main

import (
	"context"
	"strings"
	"testing"
)

func TestFlowsCSV(t *testing.T) {
	code, out, errs := netsched(t, "flows", "testdata/flows-latency.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := "flow,start,activation,end\n0,0,0.5,2.25\n1,0.25,0.75,2.5\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	// CM02: the TCP window bound 4194304/(2×0.5) B/s limits both flows
	code, out, errs = netsched(t, "flows", "testdata/flows-latency.json", "--model", "cm02")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rate := 4194304.0
	if !strings.Contains(out, "0,0,0.5,"+fmtFloat(0.5+1e8/rate)+"\n") {
		t.Errorf("cm02: got\n%s", out)
	}
}

func TestFlowsBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"flows", "testdata/flows-bad.json"}, "flows file testdata/flows-bad.json:3:23: flows[0][4][1]: link 9 does not exist"},
		{[]string{"flows", "testdata/flows-latency.json", "--model", "lv08"}, `unknown sharing model "lv08"`},
		{[]string{"flows", "testdata/missing.json"}, "missing.json"},
		{[]string{"flows"}, "want one FILE.json"},
	} {
		code, out, errs := netsched(t, tc.args...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, out %q, err %q; want exit 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}
}

// TestFlowsStopped: a cancelled replay writes nothing and exits 130.
func TestFlowsStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errs strings.Builder
	code := run(ctx, []string{"flows", "testdata/flows-latency.json"}, &out, &errs)
	if code != 130 || out.Len() != 0 {
		t.Errorf("exit %d, out %q, err %q; want 130 and nothing written", code, out.String(), errs.String())
	}
}

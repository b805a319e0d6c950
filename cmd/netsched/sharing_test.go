package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/netsched/netsched/network"
)

// netsched platform prints a flow file that the flow reader takes, with
// the lowered links, their names and a route for every pair of
// participants.
func TestPlatformPrintsAFlowFile(t *testing.T) {
	for _, tc := range []struct {
		scenario     string
		hosts, links int
		routes       int
	}{
		{"tree-small", 8, 14, 6 * 5},                  // 7 edges both ways; 6 participants
		{"crossbar-hetero", 8, 8, 8 * 7},              // half duplex: one link per port
		{"multicluster-two", 7, 2*7 + 2*2 + 1, 7 * 6}, // ports, uplinks, backbone
	} {
		code, out, errs := netsched(t, "platform", tc.scenario, "--sharing", "maxmin")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.scenario, code, errs)
		}
		in, err := network.Read(strings.NewReader(out))
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.scenario, err, out)
		}
		var extra struct {
			Sharing   string   `json:"sharing"`
			LinkNames []string `json:"link_names"`
			Routes    [][]any  `json:"routes"`
		}
		if err := json.Unmarshal([]byte(out), &extra); err != nil {
			t.Fatal(err)
		}
		if in.Hosts != tc.hosts || len(in.Links) != tc.links || len(extra.LinkNames) != tc.links ||
			len(extra.Routes) != tc.routes || extra.Sharing != "maxmin" || len(in.Flows) != 0 {
			t.Errorf("%s: %d hosts, %d links, %d names, %d routes, sharing %q; want %d, %d, %d, %d, maxmin",
				tc.scenario, in.Hosts, len(in.Links), len(extra.LinkNames), len(extra.Routes), extra.Sharing, tc.hosts, tc.links, tc.links, tc.routes)
		}
	}
}

// Sharing is refused, exit 2, where there are no links, or under an
// unknown model.
func TestSharingBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"platform", "delay-small"},
		{"platform", "tree-small", "--sharing", "lv08"},
		{"run", "loadbalance-paper", "--sharing", "maxmin"},
		{"run", "tree-small", "--sharing", "fair"},
	} {
		code, out, errs := netsched(t, args...)
		if code != 2 || out != "" || !strings.Contains(errs, "sharing") && !strings.Contains(errs, "network") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and a message", args, code, out, errs)
		}
	}
}

// run --sharing adds the makespan under sharing and its ratio to the
// ideal model's to every row and output, and the runs still verify.
func TestRunUnderSharing(t *testing.T) {
	code, out, errs := netsched(t, "run", "crossbar-hetero", "--sharing", "maxmin", "--mode", "ordered", "--format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	head, _, _ := strings.Cut(out, "\n")
	if !strings.Contains(head, "sharing,shared_makespan,shared_ratio") {
		t.Errorf("header %q: want the sharing columns", head)
	}
	if !strings.Contains(out, ",maxmin,") {
		t.Errorf("rows do not name the sharing model:\n%s", out)
	}
	code, out, _ = netsched(t, "run", "crossbar-hetero", "--format", "csv")
	if code != 0 || strings.Contains(out, "shared") {
		t.Errorf("without --sharing: exit %d, output mentions sharing:\n%s", code, out)
	}
}

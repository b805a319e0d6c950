package sweep

import (
	"bytes"
	"strings"
	"testing"
)

// A table with rows replayed under sharing has the sharing columns, and
// reads back with them; a failed row leaves them empty.
func TestCSVSharing(t *testing.T) {
	tab := &Table{Rows: []*Row{
		{Scenario: "s", Policy: "p", Mode: "ordered", Claimed: 2, Simulated: 2, Verified: true, Sharing: "maxmin", Shared: 3, SharedRatio: 1.5},
		{Scenario: "s", Policy: "q", Mode: "ordered", Error: "policy q: failed"},
	}}
	var b bytes.Buffer
	if err := tab.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	head, rest, _ := strings.Cut(b.String(), "\n")
	if !strings.Contains(head, ",verified,sharing,shared_makespan,shared_ratio,error") || !strings.Contains(rest, ",q,0,ordered,0,0,0,0,false,,,,policy q") {
		t.Errorf("CSV:\n%s", b.String())
	}
	read, err := ReadCSV("t.csv", &b)
	if err != nil {
		t.Fatal(err)
	}
	if r := read.Rows[0]; r.Sharing != "maxmin" || r.Shared != 3 || r.SharedRatio != 1.5 {
		t.Errorf("read back %q %v %v", r.Sharing, r.Shared, r.SharedRatio)
	}
}

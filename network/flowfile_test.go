package network_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/netsched/netsched/network"
)

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"hosts":2,"links":[[1e8,0]],"flows":[[0,1,5,0,[0,9]]]}`, "1:51: flows[0][4][1]: link 9 does not exist"},
		{`{"hosts":2,"links":[[1e8,0]],"flows":[[0,2,5,0,[0]]]}`, "flows[0][1]: host 2 does not exist"},
		{`{"hosts":2,"links":[[1e8,0]],"flows":[[0,1,-5,0,[0]]]}`, "flows[0][2]: size must be"},
		{`{"hosts":2,"links":[[1e8,0]],"flows":[[0,1,5,0,[]]]}`, "flows[0][4]: the route is empty"},
		{`{"hosts":2,"links":[[1e8,0]],"flows":[[0,1,5,0,[0,0]]]}`, "flows[0][4][1]: link 0 appears twice"},
		{`{"hosts":2,"links":[[0,0]],"flows":[]}`, "links[0][0]: bandwidth must be > 0"},
		{`{"hosts":2,"links":[[1,-1]],"flows":[]}`, "links[0][1]: latency must be >= 0"},
		{`{"hosts":2,"links":[[1,0,3]],"flows":[]}`, "links[0]: want [bandwidth, latency], got more than 2"},
		{`{"hosts":2,"links":[[1]],"flows":[]}`, "links[0]: want [bandwidth, latency], got 1 elements"},
		{`{"hosts":2,"links":[[1,0]],"flows":[[0,1,"5",0,[0]]]}`, `flows[0][2]: want a number, got the string "5"`},
		{`{"hosts":2.5,"links":[],"flows":[]}`, "hosts: want an integer"},
		{`{"hosts":1e12,"links":[],"flows":[]}`, "hosts: 1e+12 is too large: at most 2147483648"},
		{`{"hosts":2,"links":[]}`, "flows: missing"},
		{`{"hosts":2,"links":[],"flows":[]} x`, "after the object"},
		{"{\"hosts\":2,\n\"links\":[[1,0]],\n\"flows\":[[0,1,1,0,\n[3]]]}", "4:2: flows[0][4][0]: link 3 does not exist"},
	} {
		_, err := network.Read(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestReadIgnoresOtherKeys(t *testing.T) {
	in, err := network.Read(strings.NewReader(`{"name":"x","expected":[1],"hosts":2,"links":[[1e8,0.5]],"flows":[[0,1,1e8,0,[0]]],"note":{"a":[1]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if in.Hosts != 2 || len(in.Links) != 1 || in.Links[0].Latency != 0.5 || len(in.Flows) != 1 || in.Flows[0].Size != 1e8 {
		t.Fatalf("read %+v", in)
	}
}

// FuzzRead: whatever the bytes, Read returns an instance or an error,
// never panics, and an instance it returns replays.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"hosts":2,"links":[[1e8,0.5]],"flows":[[0,1,1e8,0,[0]]]}`))
	f.Add([]byte(`{"hosts":3,"links":[[1e8,0],[2e8,0.1]],"flows":[[0,1,0,1,[0,1]],[2,1,5,0,[1]]],"x":[{}]}`))
	f.Add([]byte(`{"hosts":2,"links":[[1e8,0]],"flows":[[0,1,5,0,[0,9]]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := network.Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		if _, err := network.Replay(context.Background(), &in.Network, in.Flows, network.MaxMin); err != nil {
			t.Fatalf("a file read without error does not replay: %v", err)
		}
	})
}

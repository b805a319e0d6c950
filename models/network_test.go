package models_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/models"
)

// star is three hosts behind one switch, and a fourth host behind a
// second switch, by a link each.
func star() *models.Network {
	return &models.Network{
		Hosts:    models.Processors{{Name: "h0", Gamma: 1}, {Name: "h1", Gamma: 1}, {Name: "h2", Gamma: 1}, {Name: "h3", Gamma: 1}},
		Switches: []string{"s", "t"},
		Links: []models.NetLink{
			{Name: "l0", A: "h0", B: "s", Bandwidth: 1}, {Name: "l1", A: "s", B: "h1", Bandwidth: 2},
			{Name: "l2", A: "h2", B: "s", Bandwidth: 3}, {Name: "st", A: "s", B: "t", Bandwidth: 4},
			{Name: "l3", A: "t", B: "h3", Bandwidth: 5},
		},
	}
}

// Routes follow the tree of links when none are given, and the given
// ones otherwise, reversed for the other direction unless given too.
func TestNetworkRoutes(t *testing.T) {
	n := star()
	p := &models.Platform{Network: n}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	r := n.NewRoutes()
	for _, tc := range []struct {
		from, to int
		want     []int
	}{{0, 1, []int{0, 1}}, {1, 0, []int{1, 0}}, {0, 3, []int{0, 3, 4}}, {3, 2, []int{4, 3, 2}}} {
		if got, ok := r.Route(tc.from, tc.to); !ok || !slices.Equal(got, tc.want) {
			t.Errorf("tree route %d→%d: %v, want %v", tc.from, tc.to, got, tc.want)
		}
	}
	n.Routes = []models.NetRoute{{From: "h0", To: "h1", Links: []string{"l0", "st"}}, {From: "h1", To: "h2", Links: []string{"l1"}}, {From: "h2", To: "h1", Links: []string{"l2", "l3"}}}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	r = n.NewRoutes()
	for _, tc := range []struct {
		from, to int
		want     []int
	}{{0, 1, []int{0, 3}}, {1, 0, []int{3, 0}}, {1, 2, []int{1}}, {2, 1, []int{2, 4}}} {
		if got, ok := r.Route(tc.from, tc.to); !ok || !slices.Equal(got, tc.want) {
			t.Errorf("given route %d→%d: %v, want %v", tc.from, tc.to, got, tc.want)
		}
	}
	if got, ok := r.Route(0, 3); ok {
		t.Errorf("route 0→3 %v, want none", got)
	}
}

// A bad network is an error naming the field.
func TestNetworkValidate(t *testing.T) {
	for _, tc := range []struct {
		change func(*models.Network)
		want   string
	}{
		{func(n *models.Network) { n.Links[1].Bandwidth = 0 }, "platform.network.links[1].bandwidth"},
		{func(n *models.Network) { n.Links[2].Name = "l0" }, "platform.network.links[2].name"},
		{func(n *models.Network) { n.Links[0].B = "nowhere" }, "platform.network.links[0].b"},
		{func(n *models.Network) {
			n.Links = append(n.Links, models.NetLink{Name: "x", A: "h1", B: "h2", Bandwidth: 1})
		}, "closes a cycle"},
		{func(n *models.Network) { n.Links[3].A = "" }, "needs its ends"},
		{func(n *models.Network) { n.Hosts[2].Name = "h0" }, "platform.network.hosts[2].name"},
		{func(n *models.Network) { n.Switches[1] = "h1" }, "platform.network.switches[1]"},
		{func(n *models.Network) {
			n.Routes = []models.NetRoute{{From: "h0", To: "s", Links: []string{"l0"}}}
		}, "platform.network.routes[0].to"},
		{func(n *models.Network) {
			n.Routes = []models.NetRoute{{From: "h0", To: "h1", Links: []string{"l0", "l0"}}}
		}, "platform.network.routes[0].links[1]"},
	} {
		n := star()
		tc.change(n)
		err := (&models.Platform{Network: n}).Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one naming %s", err, tc.want)
		}
	}
}

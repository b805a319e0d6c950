package trees

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/netsched/netsched/models"
)

// pathParams returns the bandwidths and the total latency of the path
// between two named nodes.
func pathParams(t *testing.T, tr *models.Tree, from, to string) (bws []float64, lat float64) {
	t.Helper()
	a, ok1 := tr.NodeIndex(from)
	b, ok2 := tr.NodeIndex(to)
	if !ok1 || !ok2 {
		t.Fatalf("no node %q or %q", from, to)
	}
	for _, l := range tr.Path(a, b) {
		p := tr.Params(l)
		bws = append(bws, p.Bandwidth)
		lat += p.Latency
	}
	return bws, lat
}

func countNodes(tr *models.Tree) (participants, relays int) {
	for _, n := range tr.Nodes {
		if n.Relay {
			relays++
		} else {
			participants++
		}
	}
	return participants, relays
}

func TestTreeFamilies(t *testing.T) {
	p := DefaultNetParams()
	gig, fe, shm := p.Gigabit.Bandwidth, p.FastEthernet.Bandwidth, p.SharedMemory.Bandwidth
	star, _ := StarTree(5, p.Gigabit)
	dual, _ := DualCPUTree(4, p)
	coc, _ := ClusterOfClustersTree(3, p)
	uneq, _ := UnequalClustersTree(3, p)
	tests := []struct {
		name                    string
		tree                    *models.Tree
		participants, relays    int
		from, to                string
		wantBW                  []float64
		wantLatencyMicroseconds float64
	}{
		{"star 5", star, 5, 1, "0", "4", []float64{gig, gig}, 100},
		{"dual-CPU 2x4 same SMP", dual, 8, 5, "6", "7", []float64{shm, shm}, 2},
		{"dual-CPU 2x4 across", dual, 8, 5, "0", "7", []float64{shm, gig, gig, shm}, 102},
		{"cluster of clusters 2x3x2 across", coc, 12, 8, "0", "6", []float64{shm, gig, gig, gig, shm}, 152},
		{"unequal clusters 2x3x(1+1) fast side", uneq, 12, 8, "6", "10", []float64{shm, gig, gig, shm}, 102},
		{"unequal clusters 2x3x(1+1) slow side", uneq, 12, 8, "0", "2", []float64{shm, fe, fe, shm}, 202},
		{"unequal clusters 2x3x(1+1) across", uneq, 12, 8, "0", "6", []float64{shm, fe, fe, gig, shm}, 252},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.tree.Validate("tree"); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			np, nr := countNodes(tt.tree)
			if np != tt.participants || nr != tt.relays {
				t.Errorf("%d participants and %d relays, want %d and %d", np, nr, tt.participants, tt.relays)
			}
			for i := range np {
				if _, ok := tt.tree.NodeIndex(strconv.Itoa(i)); !ok {
					t.Errorf("participant %d is missing", i)
				}
			}
			bws, lat := pathParams(t, tt.tree, tt.from, tt.to)
			if !reflect.DeepEqual(bws, tt.wantBW) {
				t.Errorf("path %s→%s bandwidths %v, want %v", tt.from, tt.to, bws, tt.wantBW)
			}
			if got := lat * 1e6; got < tt.wantLatencyMicroseconds-1e-6 || got > tt.wantLatencyMicroseconds+1e-6 {
				t.Errorf("path %s→%s latency %g µs, want %g", tt.from, tt.to, got, tt.wantLatencyMicroseconds)
			}
		})
	}
}

func TestTreeFamiliesRejectEmpty(t *testing.T) {
	p := DefaultNetParams()
	for name, build := range map[string]func() (*models.Tree, error){
		"star":     func() (*models.Tree, error) { return StarTree(0, p.Gigabit) },
		"dual":     func() (*models.Tree, error) { return DualCPUTree(0, p) },
		"clusters": func() (*models.Tree, error) { return ClusterOfClustersTree(0, p) },
		"unequal":  func() (*models.Tree, error) { return UnequalClustersTree(-1, p) },
		"random":   func() (*models.Tree, error) { return RandomTree(1, DefaultRandomTreeConfig(0, 2)) },
		"random no bandwidths": func() (*models.Tree, error) {
			return RandomTree(1, RandomTreeConfig{Participants: 3, Latencies: []float64{0}})
		},
	} {
		if tr, err := build(); err == nil {
			t.Errorf("%s: want an error, got a tree of %d nodes", name, len(tr.Nodes))
		}
	}
}

func TestRandomTreeValidAndSeeded(t *testing.T) {
	for seed := range uint64(200) {
		cfg := DefaultRandomTreeConfig(1+int(seed%8), int(seed%4))
		tr, err := RandomTree(seed, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Validate("tree"); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		np, nr := countNodes(tr)
		if np != cfg.Participants || nr != cfg.Relays {
			t.Fatalf("seed %d: %d participants, %d relays, want %d, %d", seed, np, nr, cfg.Participants, cfg.Relays)
		}
		again, _ := RandomTree(seed, cfg)
		if !reflect.DeepEqual(tr, again) {
			t.Fatalf("seed %d: two draws differ", seed)
		}
	}
	a, _ := RandomTree(1, DefaultRandomTreeConfig(8, 3))
	b, _ := RandomTree(2, DefaultRandomTreeConfig(8, 3))
	if reflect.DeepEqual(a, b) {
		t.Error("seeds 1 and 2 drew the same tree")
	}
}

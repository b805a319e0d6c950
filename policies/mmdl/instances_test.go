package mmdl

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/netsched/netsched/models"
)

// variant is one of the model variants of paper 000 that the tests draw
// random instances of.
type variant struct {
	name    string
	overlap bool // random γ′ for send and receive (§4.2)
	results bool // result collection (§4.1)
	full    bool // full-duplex ports (§4.3), with consistent degradation
}

var variants = []variant{
	{name: "no-overlap"},             // §2.2
	{name: "overlap", overlap: true}, // §4.2
	{name: "results", results: true}, // §4.1, no overlap
	{name: "results-overlap", overlap: true, results: true},
	{name: "full-duplex", overlap: true, results: true, full: true}, // §4.3
	{name: "full-duplex-distribute", overlap: true, full: true},
}

// logUniform draws from [lo, hi] uniformly in log scale.
func logUniform(r *rand.Rand, lo, hi float64) float64 {
	return lo * math.Pow(hi/lo, r.Float64())
}

// randomInstance draws a heterogeneous crossbar of up to maxP processors
// and a divisible load on it. β spans both regimes (β below and above the
// γ_i); some loads are zero; overlap rates range from none to full.
func randomInstance(r *rand.Rand, v variant, maxP int, alpha float64) (*models.Platform, *models.Problem) {
	p := 1 + r.IntN(maxP)
	cb := &models.Crossbar{Beta: logUniform(r, 0.03, 10), Alpha: alpha, Duplex: models.HalfDuplex}
	if v.full {
		cb.Duplex = models.FullDuplex
	}
	for range p {
		pr := models.Processor{Gamma: logUniform(r, 0.1, 10)}
		if r.Float64() < 0.6 {
			pr.Load = 100 * r.Float64()
		}
		if v.overlap {
			pr.Overlap = randomOverlap(r, pr.Gamma, v.full)
		}
		cb.Processors = append(cb.Processors, pr)
	}
	d := &models.Divisible{}
	if v.results {
		d.CollectResults, d.ResultSize = true, logUniform(r, 0.05, 3)
	}
	return &models.Platform{Crossbar: cb}, &models.Problem{Divisible: d}
}

// randomOverlap draws γ′ for send and receive as fractions f of the base
// rate lost (f = 1: no overlap, the kind is left out; f = 0: full overlap,
// γ′ = γ). In full duplex the losses add up to at most the base rate, so
// that consistent degradation never needs the floor at 0.
func randomOverlap(r *rand.Rand, gamma float64, full bool) map[string]float64 {
	frac := func() float64 {
		switch u := r.Float64(); {
		case u < 0.2:
			return 1
		case u < 0.35:
			return 0
		default:
			return r.Float64()
		}
	}
	fs, fr := frac(), frac()
	if full && fs+fr > 1 {
		fs, fr = fs/(fs+fr), fr/(fs+fr)
	}
	ov := map[string]float64{}
	for kind, f := range map[string]float64{models.KindSend: fs, models.KindRecv: fr} {
		if f < 1 {
			ov[kind] = gamma / (1 - f)
		}
	}
	return ov
}

// testCase is a platform and a problem read from testdata.
type testCase struct {
	Platform models.Platform `yaml:"platform"`
	Problem  models.Problem  `yaml:"problem"`
}

func loadCase(t testing.TB, path string) testCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c testCase
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return c
}

func mustModel(t testing.TB, pl *models.Platform, pr *models.Problem) *Model {
	t.Helper()
	m, err := NewModel(pl, pr)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

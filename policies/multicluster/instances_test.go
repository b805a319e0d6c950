package multicluster

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/netsched/netsched/models"
)

// genOptions shape a random instance.
type genOptions struct {
	maxClusters, maxProcs int     // per instance, per cluster
	alpha                 float64 // start-up latency
	breakAssumptions      bool    // draw rates and β_j without regard to paper 001's assumptions
	noOverlap             float64 // probability that a processor has no overlap at all
	equalBeta             bool    // every β_j = β
}

// randomInstance draws a multi-cluster and a divisible load. Unless
// breakAssumptions, it satisfies paper 001's assumptions: β ≥ β_j, and per
// processor rate losses (fractions f of 1/γ) with f_IS + f_IR ≤ 1,
// f_XS ∈ [β_j f_IS/β, 1 − f_IR], f_XR ∈ [β_j f_IR/β, 1 − f_IS], so that
// μ^(X) ≤ μ^(I), ω^(I) ≤ ω^(X) and the rule's rate of a relay (intra-recv with
// inter-send, inter-recv with intra-send) is not below 0.
func randomInstance(rng *rand.Rand, o genOptions) (*models.Platform, *models.Problem) {
	logUniform := func(lo, hi float64) float64 { return lo * math.Pow(hi/lo, rng.Float64()) }
	J := 1 + rng.IntN(o.maxClusters)
	mc := &models.MultiCluster{Beta: logUniform(0.02, 2), Alpha: o.alpha}
	for range J {
		bj := mc.Beta * logUniform(0.05, 1)
		switch {
		case o.equalBeta:
			bj = mc.Beta
		case o.breakAssumptions && rng.IntN(3) == 0:
			bj = mc.Beta * logUniform(1, 5)
		}
		c := models.Cluster{Beta: bj}
		for range 1 + rng.IntN(o.maxProcs) {
			p := models.Processor{Gamma: logUniform(0.05, 5)}
			if rng.IntN(3) > 0 {
				p.Load = logUniform(1, 1000)
			}
			if rng.Float64() >= o.noOverlap {
				p.Overlap = randomOverlap(rng, p.Gamma, bj/mc.Beta, o.breakAssumptions)
			}
			c.Processors = append(c.Processors, p)
		}
		mc.Clusters = append(mc.Clusters, c)
	}
	return &models.Platform{MultiCluster: mc}, &models.Problem{Divisible: &models.Divisible{}}
}

// randomOverlap draws the four overlap rates of a processor as fractions
// of its rate lost (see randomInstance); q = β_j/β.
func randomOverlap(rng *rand.Rand, gamma, q float64, free bool) map[string]float64 {
	pick := func(lo, hi float64) float64 {
		switch rng.IntN(6) { // now and then an end of the range exactly
		case 0:
			return lo
		case 1:
			return hi
		}
		return lo + (hi-lo)*rng.Float64()
	}
	var fIS, fIR, fXS, fXR float64
	if free {
		fIS, fIR, fXS, fXR = rng.Float64(), rng.Float64(), rng.Float64(), rng.Float64()
	} else {
		fIS = pick(0, 1)
		fIR = pick(0, 1-fIS)
		fXS = pick(q*fIS, 1-fIR)
		fXR = pick(q*fIR, 1-fIS)
	}
	g := func(f float64) float64 {
		if f >= 1 {
			return math.Inf(1)
		}
		return gamma / (1 - f)
	}
	return map[string]float64{
		models.KindIntraSend: g(fIS), models.KindIntraRecv: g(fIR),
		models.KindInterSend: g(fXS), models.KindInterRecv: g(fXR),
	}
}

// testCase is a platform and a problem read from testdata.
type testCase struct {
	Platform models.Platform `yaml:"platform"`
	Problem  models.Problem  `yaml:"problem"`
}

// loadCase reads a testdata file strictly (unknown keys are errors).
func loadCase(t testing.TB, path string) *testCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var c testCase
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &c
}

func mustModel(t testing.TB, pl *models.Platform, pr *models.Problem) *Model {
	t.Helper()
	m, err := NewModel(pl, pr)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

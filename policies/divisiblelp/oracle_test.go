package divisiblelp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/netsched/netsched/models"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// drawOutside draws a multi-cluster outside paper 001's assumptions: 2 to
// 7 clusters of 1 to 8 processors, β_j up to 1.5 β, and the loss
// fractions of the four communication kinds drawn independently (so
// γ^(X) and γ^(I) are unrelated).
func drawOutside(r *rand.Rand) (*models.Platform, *models.Problem) {
	mc := &models.MultiCluster{Beta: logUniform(r, 0.01, 1)}
	if r.IntN(2) == 0 {
		mc.Alpha = 0.02 * r.Float64() * mc.Beta
	}
	for range 2 + r.IntN(6) {
		c := models.Cluster{Beta: mc.Beta * logUniform(r, 0.05, 1.5)}
		for range 1 + r.IntN(8) {
			p, f := drawMCProcessor(r)
			p.Overlap = overlap(p.Gamma, f)
			c.Processors = append(c.Processors, p)
		}
		mc.Clusters = append(mc.Clusters, c)
	}
	mc.Clusters[0].Processors[0].Load = 1 + 99*r.Float64()
	return &models.Platform{MultiCluster: mc}, &models.Problem{Divisible: &models.Divisible{}}
}

// oracleLP builds an equality-form program min c·x, A x = b, x ≥ 0.
type oracleLP struct {
	rows [][]float64 // each row over the variables, grown as they are added
	rhs  []float64
	nv   int
}

func (o *oracleLP) newVar() int { o.nv++; return o.nv - 1 }

// row adds Σ coef·x (= or ≤) h; a ≤ row gets a slack variable.
func (o *oracleLP) row(h float64, leq bool, coef map[int]float64) {
	if leq {
		coef[o.newVar()] = 1
	}
	o.rows = append(o.rows, nil)
	o.rhs = append(o.rhs, h)
	r := &o.rows[len(o.rows)-1]
	for v, a := range coef {
		for len(*r) <= v {
			*r = append(*r, 0)
		}
		(*r)[v] += a
	}
}

// oracleT is the optimal round time of a multi-cluster by a linear
// program written apart from package optround, with explicit flows
// f_jk between every ordered pair of clusters in place of optround's
// "no cluster sends to itself" rows, solved by gonum's simplex (its own
// phase 1, no starting basis).
func oracleT(pl *models.Platform) (float64, error) {
	o := oracleProgram(pl)
	A := mat.NewDense(len(o.rows), o.nv, nil)
	for k, r := range o.rows {
		for v, a := range r {
			A.Set(k, v, a)
		}
	}
	c := make([]float64, o.nv)
	c[0] = 1
	z, _, err := lp.Simplex(c, A, o.rhs, 1e-10, nil)
	return z, err
}

// oracleProgram writes the oracle's program (see oracleT); variable 0 is T.
func oracleProgram(pl *models.Platform) *oracleLP {
	mc := pl.MultiCluster
	o := &oracleLP{}
	T := o.newVar()
	C := len(mc.Clusters)
	out, in := make([]map[int]float64, C), make([]map[int]float64, C)
	for j := range C {
		out[j], in[j] = map[int]float64{}, map[int]float64{}
	}
	for j := range C {
		for k := range C {
			if j != k {
				f := o.newVar()
				out[j][f], in[k][f] = -1, -1
			}
		}
	}
	for j, c := range mc.Clusters {
		up, down, intra := map[int]float64{T: -1}, map[int]float64{T: -1}, map[int]float64{}
		for _, p := range c.Processors {
			p.Combined = nil
			base := p.Rate(nil)
			loss := func(k string) float64 { return base - p.Rate([]string{k}) }
			sI, rI, sX, rX := o.newVar(), o.newVar(), o.newVar(), o.newVar()
			o.row(0, true, map[int]float64{sI: c.Beta, sX: mc.Beta, T: -1})
			o.row(0, true, map[int]float64{rI: c.Beta, rX: mc.Beta, T: -1})
			// x − sI − sX + rI + rX ≤ base T − Σ loss·time, and ≥ 0.
			o.row(-p.Load, true, map[int]float64{
				sI: -1 + loss(models.KindIntraSend)*c.Beta, rI: 1 + loss(models.KindIntraRecv)*c.Beta,
				sX: -1 + loss(models.KindInterSend)*mc.Beta, rX: 1 + loss(models.KindInterRecv)*mc.Beta, T: -base})
			o.row(p.Load, true, map[int]float64{sI: 1, sX: 1, rI: -1, rX: -1})
			up[sX], down[rX] = mc.Beta, mc.Beta
			intra[sI], intra[rI] = 1, -1
			out[j][sX], in[j][rX] = 1, 1
		}
		o.row(0, true, up)
		o.row(0, true, down)
		o.row(0, false, intra)
		o.row(0, false, out[j])
		o.row(0, false, in[j])
	}
	return o
}

// glpkT solves the oracle's program with GLPK's exact (rational) simplex,
// glpsol --exact, from a CPLEX LP file in dir.
func glpkT(pl *models.Platform, dir string) (float64, error) {
	o := oracleProgram(pl)
	var b strings.Builder
	b.WriteString("Minimize\n obj: x0\nSubject To\n")
	for k, r := range o.rows {
		fmt.Fprintf(&b, " c%d:", k)
		for v, a := range r {
			if a != 0 {
				fmt.Fprintf(&b, " %s %s x%d", map[bool]string{true: "-", false: "+"}[a < 0], strconv.FormatFloat(math.Abs(a), 'g', -1, 64), v)
			}
		}
		fmt.Fprintf(&b, " = %s\n", strconv.FormatFloat(o.rhs[k], 'g', -1, 64))
	}
	b.WriteString("End\n")
	lpPath, solPath := filepath.Join(dir, "oracle.lp"), filepath.Join(dir, "oracle.sol")
	if err := os.WriteFile(lpPath, []byte(b.String()), 0o644); err != nil {
		return 0, err
	}
	if out, err := exec.Command("glpsol", "--lp", lpPath, "--exact", "-w", solPath).CombinedOutput(); err != nil {
		return 0, fmt.Errorf("glpsol: %v\n%s", err, out)
	}
	sol, err := os.ReadFile(solPath)
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(sol), "\n") {
		if f := strings.Fields(line); len(f) == 7 && f[0] == "s" && f[1] == "bas" {
			if f[4] != "f" {
				return 0, fmt.Errorf("glpsol: primal status %s, not feasible", f[4])
			}
			return strconv.ParseFloat(f[6], 64)
		}
	}
	return 0, fmt.Errorf("glpsol: no solution line in %s", sol)
}

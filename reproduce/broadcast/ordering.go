package broadcast

import (
	"fmt"

	"github.com/netsched/netsched/reproduce"
)

// tieBand is the relative difference within which two broadcast times
// count as equal when orderings are compared: 2 %, above the scatter of
// the paper's repeated measurements and far above the model's rounding.
const tieBand = 0.02

// Order compares a baseline's broadcast time with the optimum's: "faster",
// "equal" (within tieBand of the optimum) or "slower".
func Order(baseline, optimum float64) string {
	switch d := (baseline - optimum) / optimum; {
	case d > tieBand:
		return "slower"
	case d < -tieBand:
		return "faster"
	}
	return "equal"
}

// OrderingTable sets, network by network, how LAM's and MPICH's broadcasts
// from root 0 compare with the optimum in the model and in the paper's
// measurements (Tables 5–6: the optimised schedule as measured beside each
// library), and whether the model reproduces the paper's ordering. The
// rows are TimeExperiment's, for the MPICH selection rule of the paper.
func OrderingTable(rows []TimeRow) *reproduce.Table {
	ratio := func(name string) reproduce.Column { return reproduce.Column{Name: name} }
	t := &reproduce.Table{Name: "ordering", Title: "The model's ordering against the paper's measurements, network by network (root 0)",
		Note: fmt.Sprintf("Ratio: the library's broadcast time over the optimum's (the paper's: over its optimised schedule run beside "+
			"that library). Ordering: the library is slower than, equal to (within %.0f %%) or faster than the optimum; "+
			"reproduced: the model's ordering is the paper's.", 100*tieBand),
		Columns: []reproduce.Column{{Name: "Fig."}, {Name: "network"}, {Name: "CPUs"},
			ratio("LAM / optimal, model"), ratio("LAM / optimal, paper"), {Name: "LAM ordering, model"}, {Name: "LAM ordering, paper"}, {Name: "LAM reproduced"},
			ratio("MPICH / optimal, model"), ratio("MPICH / optimal, paper"), {Name: "MPICH ordering, model"}, {Name: "MPICH ordering, paper"}, {Name: "MPICH reproduced"}}}
	for _, r := range rows {
		lamModel, lamPaper := Order(r.LAMRoot0, r.Optimal), Order(r.PaperLAM0, r.PaperLAMO)
		mpModel, mpPaper := Order(r.MPICHRoot0, r.Optimal), Order(r.PaperMPICH0, r.PaperO)
		t.Rows = append(t.Rows, []reproduce.Cell{reproduce.Int(r.Network.Figure), reproduce.Text(r.Network.Label), reproduce.Int(r.Network.Participants()),
			reproduce.Fixed(r.LAMRoot0/r.Optimal, 3), reproduce.Fixed(r.PaperLAM0/r.PaperLAMO, 3), reproduce.Text(lamModel), reproduce.Text(lamPaper), reproduce.Bool(lamModel == lamPaper),
			reproduce.Fixed(r.MPICHRoot0/r.Optimal, 3), reproduce.Fixed(r.PaperMPICH0/r.PaperO, 3), reproduce.Text(mpModel), reproduce.Text(mpPaper), reproduce.Bool(mpModel == mpPaper)})
	}
	return t
}

// Reproduced counts the networks of rows on which the model's ordering of
// LAM, and of MPICH, against the optimum is the paper's (OrderingTable).
func Reproduced(rows []TimeRow) (lam, mpich int) {
	for _, r := range rows {
		if Order(r.LAMRoot0, r.Optimal) == Order(r.PaperLAM0, r.PaperLAMO) {
			lam++
		}
		if Order(r.MPICHRoot0, r.Optimal) == Order(r.PaperMPICH0, r.PaperO) {
			mpich++
		}
	}
	return lam, mpich
}

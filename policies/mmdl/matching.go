package mmdl

// Message is one transfer of a round: Amount units of load from Master to
// Worker (and, when results are collected, their results back).
type Message struct {
	Master, Worker int
	Amount         float64
}

// matchTol is the relative size below which an interval overlap counts as
// empty: the masters' and the workers' intervals end at the same total only
// up to rounding, and boundaries that coincide in exact arithmetic (Fig. 3:
// P2/P3 and P7/P8) may differ by a few ulps.
const matchTol = 1e-12

// IntervalMatching is the interval-intersection matching of §3.3. Master i
// owns [M_i, M_{i+1}) and worker j owns [W_j, W_{j+1}), where M_i (W_j) is
// the total |y| of the masters (workers) numbered below i (j); master i
// sends worker j the length of the intersection of their intervals,
// y_ij = max{0, min{M_{i+1}, W_{j+1}} − max{M_i, W_j}}. The messages come
// out in the order of their intervals on the line, which is number order
// for every master and every worker; there are at most
// (#masters + #workers − 1) ≤ p − 1 of them.
//
// It walks both lists at once instead of intersecting every pair, and
// drops overlaps shorter than matchTol times the total; the dropped amount
// stays with its master (the schedule derives every processor's work from
// the messages, so nothing is lost).
func IntervalMatching(y []float64) []Message {
	var masters, workers []int
	total := 0.0
	for i, v := range y {
		switch {
		case v < 0:
			masters = append(masters, i)
			total -= v
		case v > 0:
			workers = append(workers, i)
		}
	}
	eps := matchTol * total
	var out []Message
	mi, wi := 0, 0
	var leftM, leftW float64
	if len(masters) > 0 && len(workers) > 0 {
		leftM, leftW = -y[masters[0]], y[workers[0]]
	}
	for mi < len(masters) && wi < len(workers) {
		switch {
		case leftM <= eps:
			if mi++; mi < len(masters) {
				leftM = -y[masters[mi]]
			}
		case leftW <= eps:
			if wi++; wi < len(workers) {
				leftW = y[workers[wi]]
			}
		default:
			a := min(leftM, leftW)
			out = append(out, Message{Master: masters[mi], Worker: workers[wi], Amount: a})
			leftM -= a
			leftW -= a
		}
	}
	return out
}

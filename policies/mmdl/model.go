package mmdl

import (
	"errors"
	"fmt"
	"math"

	"github.com/netsched/netsched/models"
)

// Model is the multi-master divisible load on a crossbar in the terms of
// paper 000 (§2, §4): the uniform time per unit transferred β, the start-up
// latency α of every message, whether results are collected (§4.1) and how
// large they are, whether the ports are full duplex (§4.3), and the
// processors.
type Model struct {
	Beta    float64 // β, time per unit transferred
	Alpha   float64 // α, start-up latency of every message on the crossbar
	Collect bool    // results go back to where their load came from (§4.1)
	Rho     float64 // result units per unit of load; 0 unless Collect
	Full    bool    // full-duplex ports (§4.3): a send and a receive at once
	Procs   []Proc
}

// Proc is one processor of a Model.
//
// Rate holds the compute rate (units per time) by the set of active
// communications, indexed by a mask: 0 none, maskSend, maskRecv, both. The
// rates are those of the consistent-degradation rule of §4.3
// (models.Processor.Rate with explicit combined rates left out), which is
// what the algorithm assumes: Rate[0] = 1/γ_i, Rate[maskSend] = 1/γ′_i for
// sending, Rate[maskRecv] = 1/γ″_i for receiving, and Rate[both] the sum of
// their losses taken from 1/γ_i, floored at 0.
type Proc struct {
	X     float64    // x_i, the load the processor starts with
	Gamma float64    // γ_i, time per unit of work when not communicating
	Rate  [4]float64 // compute rate by mask of active communications
}

// Masks of active communications, indexing Proc.Rate.
const (
	maskSend = 1
	maskRecv = 2
)

// NewModel reads the model from a validated-or-not platform and problem: it
// validates both (errors are *models.FieldError) and requires a crossbar
// and a divisible load.
func NewModel(pl *models.Platform, pr *models.Problem) (*Model, error) {
	if pl == nil || pr == nil {
		return nil, errors.New("need a platform and a problem")
	}
	if err := pl.Validate(); err != nil {
		return nil, err
	}
	if pl.Crossbar == nil {
		return nil, &models.FieldError{Path: "platform", Msg: fmt.Sprintf("mmdl runs on a crossbar, not %q", pl.Kind())}
	}
	if err := pr.Validate(pl); err != nil {
		return nil, err
	}
	if pr.Divisible == nil {
		return nil, &models.FieldError{Path: "problem", Msg: fmt.Sprintf("mmdl schedules a divisible load, not %q", pr.Family())}
	}
	return newModel(pl, pr), nil
}

// newModel is NewModel on a valid crossbar platform and divisible problem.
func newModel(pl *models.Platform, pr *models.Problem) *Model {
	cb, d := pl.Crossbar, pr.Divisible
	m := &Model{
		Beta:    cb.Beta,
		Alpha:   cb.Alpha,
		Collect: d.CollectResults && d.ResultSize > 0,
		Full:    cb.Duplex == models.FullDuplex,
		Procs:   make([]Proc, len(cb.Processors)),
	}
	if m.Collect {
		m.Rho = d.ResultSize
	}
	for i := range cb.Processors {
		m.Procs[i] = newProc(cb.Processors[i])
	}
	return m
}

// newProc takes the rates of p under the consistent-degradation rule.
func newProc(p models.Processor) Proc {
	p.Combined = nil // the rule, not the explicit rates: see Proc
	return Proc{X: p.Load, Gamma: p.Gamma, Rate: [4]float64{
		p.Rate(nil),
		p.Rate([]string{models.KindSend}),
		p.Rate([]string{models.KindRecv}),
		p.Rate([]string{models.KindSend, models.KindRecv}),
	}}
}

// lossSend is d_s = 1/γ − 1/γ′: the compute rate lost while sending.
func (p *Proc) lossSend() float64 { return p.Rate[0] - p.Rate[maskSend] }

// lossRecv is d_r, the compute rate lost while receiving.
func (p *Proc) lossRecv() float64 { return p.Rate[0] - p.Rate[maskRecv] }

// portFactor π is the port time per unit of load sent or received, in units
// of β: a master that sends s units also receives ρs units of results, so
// its port is busy (1+ρ)sβ in half duplex and max(1, ρ)sβ in full duplex.
func (m *Model) portFactor() float64 {
	if m.Full {
		return max(1, m.Rho)
	}
	return 1 + m.Rho
}

// masterGain k_m is the work a master saves per unit it sends, net of the
// compute it loses while sending that unit and receiving its results
// (§4.2, generalised by §4.1 and §4.3): k_m = 1 − β(d_s + ρ d_r). With no
// overlap and no results it is 1 − β/γ_i, positive exactly when β < γ_i.
func (m *Model) masterGain(p *Proc) float64 {
	return 1 - m.Beta*(p.lossSend()+m.Rho*p.lossRecv())
}

// workerCost k_w is the work capacity a worker gives up per unit it
// receives: the unit itself plus the compute lost while receiving it and
// sending its results back, k_w = 1 + β(d_r + ρ d_s).
func (m *Model) workerCost(p *Proc) float64 {
	return 1 + m.Beta*(p.lossRecv()+m.Rho*p.lossSend())
}

// minTime is T_i (§3.2, §4.2): the shortest round in which processor i
// alone can get rid of its load, by computing it or by sending as much as
// pays off. A master sending s units needs, per round, work time
// γ_i(x_i − k_m s), port time πβs, and s ≤ x_i; the best s balances the
// first two (or the third binds). The paper's min{x_iγ_i, x_iβγ′_i/(β+γ′_i)}
// is the case ρ = 0.
func (m *Model) minTime(p *Proc) float64 {
	own := p.X * p.Gamma
	km := m.masterGain(p)
	if p.X == 0 || km <= 0 {
		return own
	}
	balanced := p.X / (p.Rate[0] + km/(m.portFactor()*m.Beta))
	sendAll := own * (1 - km)
	return min(own, max(balanced, sendAll))
}

// yBarFn is ȳ_i(T) (§3.2, §4.2) as a function of the round time T,
// its coefficients computed once.
//
// ȳ_i(T) is the largest additional load y_i (received if positive, sent if
// negative) with which processor i still finishes in T:
//   - a master (x_iγ_i > T) must send at least (x_i − T/γ_i)/k_m;
//   - a worker takes at most (T/γ_i − x_i)/k_w by its work, and at most
//     T/(πβ) by its port. The paper's formula for γ′ (§4.2) leaves out the
//     port limit; it binds when β > γ′_i (a worker that computes at nearly
//     full speed while receiving cannot receive faster than its port), and
//     without it T can fall below what any schedule achieves (see the tests).
//
// The three lines meet in that order (the master line is the steepest and
// crosses the worker line at T = x_iγ_i, where both are 0; the port line
// is the flattest), so ȳ_i is concave and is the smallest of them.
type yBarFn struct {
	am, bm float64 // master line (am = 0, bm = +Inf if sending never pays: k_m ≤ 0)
	aw, bw float64 // worker line
}

func (m *Model) yBarOf(p *Proc) yBarFn {
	f := yBarFn{bm: math.Inf(1)}
	if km := m.masterGain(p); km > 0 {
		f.am, f.bm = p.Rate[0]/km, -p.X/km
	}
	kw := m.workerCost(p)
	f.aw, f.bw = p.Rate[0]/kw, -p.X/kw
	return f
}

// portSlope is the slope of every processor's port line, 1/(πβ).
func (m *Model) portSlope() float64 { return 1 / (m.portFactor() * m.Beta) }

// value is ȳ_i(T); ac is portSlope.
func (f *yBarFn) value(T, ac float64) float64 {
	return min(f.am*T+f.bm, f.aw*T+f.bw, ac*T)
}

// piece returns the line a·T + b that is ȳ_i at T.
func (f *yBarFn) piece(T, ac float64) (a, b float64) {
	switch v := f.value(T, ac); v {
	case f.am*T + f.bm:
		return f.am, f.bm
	case f.aw*T + f.bw:
		return f.aw, f.bw
	}
	return ac, 0
}

// breakpoints appends where ȳ_i changes line: x_iγ_i if it can be a
// master, and where the port line takes over if it ever does.
func (f *yBarFn) breakpoints(dst []float64, ac float64) []float64 {
	if !math.IsInf(f.bm, 1) {
		dst = append(dst, (f.bw-f.bm)/(f.am-f.aw))
	}
	if f.aw > ac {
		dst = append(dst, -f.bw/(f.aw-ac))
	}
	return dst
}

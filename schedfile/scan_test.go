package schedfile

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// randomSchedule is a schedule of n actions drawn from seed: computes and
// transfers on the three nodes of namedCrossbar, with planned times, After
// lists, labels, rounds, metrics and warnings, some of them left out.
func randomSchedule(seed uint64, n int) *sim.Schedule {
	rng := rand.New(rand.NewPCG(seed, 18))
	s := &sim.Schedule{Policy: "random", Claimed: rng.Float64() * 100}
	labels := []string{"", "t1", "a \"quoted\" label", "tâche\tλ", `back\slash`, "<&>"}
	for i := range n {
		a := sim.Action{Kind: sim.Compute, Node: rng.IntN(3), Amount: rng.Float64() * 10}
		if rng.IntN(2) == 0 {
			a = sim.Action{Kind: sim.Transfer, From: rng.IntN(3), To: rng.IntN(3), Amount: rng.ExpFloat64(), Offset: float64(rng.IntN(4))}
		}
		if rng.IntN(4) != 0 {
			a.Start = s.Time(rng.Float64() * 50)
			a.End = s.Time(*a.Start + rng.Float64())
		}
		if i > 0 && rng.IntN(2) == 0 {
			a.After = []int{rng.IntN(i), rng.IntN(i)}
		}
		a.Label = labels[rng.IntN(len(labels))]
		a.Round = rng.IntN(3)
		s.Add(a)
	}
	if rng.IntN(2) == 0 {
		s.Metrics = map[string]float64{"T": rng.Float64(), "speed-up": 2}
	}
	if rng.IntN(2) == 0 {
		s.Warnings = []string{"w", "ä \"x\""}
	}
	return s
}

// written is s as WriteJSON writes it.
func written(t testing.TB, s *sim.Schedule) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := s.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// byNames writes the node indices of a written schedule as the names
// namedCrossbar gives them, in some places.
func byNames(data []byte, rng *rand.Rand) []byte {
	names := []string{`"root"`, `"P1"`, `"leaf"`}
	var out []byte
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		for _, key := range []string{`"node": `, `"from": `, `"to": `} {
			if k := bytes.Index(line, []byte(key)); k >= 0 && rng.IntN(2) == 0 {
				v := k + len(key)
				if d := line[v] - '0'; d < 3 {
					line = append(append(append([]byte{}, line[:v]...), names[d]...), line[v+1:]...)
				}
			}
		}
		out = append(out, line...)
	}
	return out
}

// mutate changes data at a few random places: bytes deleted, replaced or
// inserted (from JSON's own characters and some others), or a piece of it
// repeated.
func mutate(data []byte, rng *rand.Rand) []byte {
	const alphabet = "{}[],:\"\\ \n0123456789-+.eEnulltrufa\x00\xff\xc3"
	out := append([]byte{}, data...)
	for range 1 + rng.IntN(3) {
		if len(out) == 0 {
			break
		}
		k := rng.IntN(len(out))
		c := alphabet[rng.IntN(len(alphabet))]
		switch rng.IntN(5) {
		case 0:
			out = append(out[:k], out[k+1:]...)
		case 1:
			out[k] = c
		case 2:
			out = append(out[:k], append([]byte{c}, out[k:]...)...)
		case 3:
			j := min(len(out), k+1+rng.IntN(40))
			out = append(out[:j], append(append([]byte{}, out[k:j]...), out[j:]...)...)
		case 4:
			for _, word := range []string{"null", "1e400", "-0", "1.5", `"x"`, "99999999999999999999", `{}`, `[]`} {
				if rng.IntN(8) == 0 {
					out = append(out[:k], append([]byte(word), out[k:]...)...)
					break
				}
			}
		}
	}
	return out
}

// sameSchedule reports whether a and b hold the same schedule, telling
// null from empty lists and -0 from 0.
func sameSchedule(a, b *sim.Schedule) bool {
	return a.Policy == b.Policy && math.Float64bits(a.Claimed) == math.Float64bits(b.Claimed) &&
		(a.Actions == nil) == (b.Actions == nil) && equalActions(a.Actions, b.Actions) &&
		(a.Metrics == nil) == (b.Metrics == nil) && reflect.DeepEqual(a.Metrics, b.Metrics) &&
		(a.Warnings == nil) == (b.Warnings == nil) && reflect.DeepEqual(a.Warnings, b.Warnings)
}

// checkSameRead checks that Read and the token walk, which Read falls
// back to, give the same schedule or the same error for data, and reports
// whether the scanner read it alone.
func checkSameRead(t *testing.T, data []byte, p *models.Platform) (scanned bool) {
	t.Helper()
	got, gotErr := parseSchedule(data, p)
	want, wantErr := parseScheduleTokens(data, p)
	switch {
	case (gotErr == nil) != (wantErr == nil):
		t.Fatalf("read %q:\ngot %v\nwant %v", data, gotErr, wantErr)
	case gotErr != nil && gotErr.Error() != wantErr.Error():
		t.Fatalf("read %q:\ngot error %v\nwant %v", data, gotErr, wantErr)
	case gotErr == nil && !sameSchedule(got, want):
		t.Fatalf("read %q:\ngot %+v\nwant %+v", data, got, want)
	}
	_, scanned = scanSchedule(data, p)
	if scanned && wantErr != nil {
		t.Fatalf("the scanner read %q, which is an error: %v", data, wantErr)
	}
	return scanned
}

// TestScanMatchesTokens is a differential test: on random valid schedule
// files, written with indices or names, compact or indented, and on
// random mutations of them, Read gives what the token walk gives, error
// messages and places included; the scanner reads every valid file
// written by WriteJSON on its own.
func TestScanMatchesTokens(t *testing.T) {
	files, mutations := slowtest.Pick(100, 300), 40
	var valid, scanned, total int
	for seed := range uint64(files) {
		rng := rand.New(rand.NewPCG(seed, 1))
		p := namedCrossbar()
		if seed%5 == 0 {
			p = nil // names are errors
		}
		data := written(t, randomSchedule(seed, rng.IntN(8)))
		if !checkSameRead(t, data, p) {
			t.Fatalf("the scanner gave up on a valid file:\n%s", data)
		}
		variants := [][]byte{data, byNames(data, rng), bytes.Join(bytes.Fields(data), nil)}
		for _, v := range variants {
			for range mutations {
				m := mutate(v, rng)
				total++
				if checkSameRead(t, m, p) {
					scanned++
				}
				if _, err := parseScheduleTokens(m, p); err == nil {
					valid++
				}
			}
		}
	}
	t.Logf("%d mutated files: %d valid, %d read by the scanner alone", total, valid, scanned)
}

// TestScanRejectsAsTokens checks, on the cases of TestReadScheduleRejects
// and of unusual valid forms, that Read gives exactly the token walk's
// schedule or error.
func TestScanRejectsAsTokens(t *testing.T) {
	cases := []string{
		"", " ", "null", "{}", "{} ", "{}x", "{}{}", `{"policy": null}`, `{"policy": "a\u00e9\n"}`,
		`{"policy": "\ud800"}`, "{\"policy\": \"\xff\"}", "{\"policy\": \"a\x01\"}", `{"claimed_makespan": -0}`,
		`{"claimed_makespan": 1e308}`, `{"claimed_makespan": 1e309}`, `{"claimed_makespan": 123456789012345678901234}`,
		`{"claimed_makespan": 01}`, `{"claimed_makespan": 1.}`, `{"claimed_makespan": .5}`, `{"claimed_makespan": -}`,
		`{"claimed_makespan": 1e}`, `{"claimed_makespan": 1E+2}`, `{"claimed_makespan": null}`, `{"claimed_makespan": true}`,
		`{"actions": [{"kind": "compute", "node": 9223372036854775807}]}`,
		`{"actions": [{"kind": "compute", "node": 9223372036854775808}]}`,
		`{"actions": [{"kind": "compute", "node": -0}]}`, `{"actions": [{"kind": "compute", "node": 1e0}]}`,
		`{"actions": [{"kind": "comp\u0075te", "node": "ro\u006ft"}]}`, `{"actions": [{"kind": "compute", "node": "twin"}]}`,
		`{"actions": [{"kind": "compute", "after": [-1, 9223372036854775807]}]}`, `{"actions": [{"kind": "compute", "round": -3}]}`,
		`{"actions": [{"kind": "other", "node": 1, "from": 2}]}`, `{"actions": [,]}`, `{"actions": [{},]}`, `{"actions": [{}]}`,
		`{"metrics": {"a\"b": 1, "é": 2}}`, `{"metrics": {"a": 1, "a": 1}}`, `{"metrics": {}}`, `{"warnings": []}`, `{"warnings": [null]}`,
		`{"\u0070olicy": "x"}`, `{"policy": "x",}`, `{,}`, `{"policy" "x"}`, "\ufeff{}", `{"actions": nul}`, `{"actions": nullx}`,
	}
	for _, c := range cases {
		for _, p := range []*models.Platform{namedCrossbar(), nil} {
			checkSameRead(t, []byte(c), p)
			checkSameRead(t, []byte(oneAction(strings.TrimPrefix(c, `{"actions": [`))), p)
		}
	}
}

// benchSchedule is a schedule file of n actions as WriteJSON writes it,
// labelled as policies label them, by task.
func benchSchedule(b *testing.B, n int) []byte {
	s := randomSchedule(1, n)
	for i := range s.Actions {
		s.Actions[i].Label = fmt.Sprintf("t%d", i/2)
	}
	return written(b, s)
}

// BenchmarkRead reads schedule files of 1,000 and 10,000 actions, as Read
// does after reading the file's bytes: by the token walk Read used before
// (and falls back to), and by the scanner, one after the other in the same
// run.
func BenchmarkRead(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		data := benchSchedule(b, n)
		p := namedCrossbar()
		readers := []struct {
			name string
			read func([]byte, *models.Platform) (*sim.Schedule, error)
		}{
			{"tokens", parseScheduleTokens},
			{"scan", parseSchedule},
		}
		for _, r := range readers {
			b.Run(fmt.Sprintf("actions=%d/%s", n, r.name), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := r.read(data, p); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n)/1e3, "µs/action")
			})
		}
	}
}

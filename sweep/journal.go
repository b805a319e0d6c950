package sweep

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// A journal holds the rows of a sweep as they finish, one CSV record a
// line. Records are written in batches of whole lines, at least every
// flushEvery and at close, so that a killed process loses at most the
// rows of its last moments (a resume runs them again) and leaves at most
// one partial last line, which a resume drops. Its first line names the
// sweep's fingerprint.
type journal struct {
	path    string
	f       *os.File
	pending []byte    // whole records not yet written
	flushed time.Time // when pending was last written
}

// How long and how much a journal may hold back: one write a row would
// cost a tiny run more than the run itself.
const (
	flushEvery = 100 * time.Millisecond
	flushBytes = 64 << 10
)

const journalMagic = "# netsched sweep journal v1 fingerprint="

// JournalPath is where the sweep writing out keeps its journal.
func JournalPath(out string) string { return out + ".partial" }

// openJournal opens (or creates) the journal for a sweep and returns the
// rows it already holds, by job index. A journal of another sweep is an
// error and is left untouched.
func openJournal(path, fingerprint string) (*journal, map[int]*Row, error) {
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o666)
		if err != nil {
			return nil, nil, err
		}
		if _, err := f.WriteString(journalMagic + fingerprint + "\n"); err != nil {
			f.Close()
			return nil, nil, err
		}
		return &journal{path: path, f: f}, map[int]*Row{}, nil
	case err != nil:
		return nil, nil, err
	}
	done, complete, err := parseJournal(path, data, fingerprint)
	if err != nil {
		return nil, nil, err
	}
	if complete < len(data) { // drop a partial last line left by a kill
		if err := os.Truncate(path, int64(complete)); err != nil {
			return nil, nil, err
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o666)
	if err != nil {
		return nil, nil, err
	}
	return &journal{path: path, f: f}, done, nil
}

// parseJournal reads the complete lines of a journal; complete is the byte
// length of those lines.
func parseJournal(path string, data []byte, fingerprint string) (map[int]*Row, int, error) {
	first, rest, ok := bytes.Cut(data, []byte("\n"))
	got, isJournal := strings.CutPrefix(string(first), journalMagic)
	if !ok || !isJournal {
		return nil, 0, &OutputError{fmt.Errorf("%s is not a netsched sweep journal; remove it or choose another --out", path)}
	}
	if got != fingerprint {
		return nil, 0, &OutputError{fmt.Errorf("%s belongs to another sweep (another scenario, axes, seeds or mode); remove it or choose another --out", path)}
	}
	complete := len(first) + 1
	done := map[int]*Row{}
	sc := bufio.NewScanner(bytes.NewReader(rest))
	sc.Buffer(nil, 1<<26)
	for line := 2; sc.Scan(); line++ {
		if complete+len(sc.Bytes()) >= len(data) { // no newline: partial
			break
		}
		job, row, err := decodeJournalLine(sc.Text())
		if err != nil {
			return nil, 0, fmt.Errorf("%s: line %d: %w", path, line, err)
		}
		done[job] = row
		complete += len(sc.Bytes()) + 1
	}
	return done, complete, sc.Err()
}

// add appends an encoded record, writing the records held back once
// there are enough of them or they are old enough.
func (j *journal) add(line []byte) error {
	j.pending = append(j.pending, line...)
	if len(j.pending) < flushBytes && time.Since(j.flushed) < flushEvery {
		return nil
	}
	return j.flush()
}

// flush writes the records held back, in one write.
func (j *journal) flush() error {
	_, err := j.f.Write(j.pending)
	j.pending, j.flushed = j.pending[:0], time.Now()
	return err
}

// close writes what is held back and closes the file.
func (j *journal) close() error {
	return errors.Join(j.flush(), j.f.Close())
}

// journalFields are the cells of a row's journal record: job, claimed,
// simulated, gap, violations, verified, plan_seconds, metrics
// (name=value;...), warnings (joined by \x1f), error; then, under
// bandwidth sharing only, sharing, shared makespan and ratio.
func journalFields(k int, r *Row) []string {
	fields := []string{strconv.Itoa(k), FormatFloat(r.Claimed), FormatFloat(r.Simulated), FormatFloat(r.Gap),
		strconv.Itoa(r.ViolationCount()), strconv.FormatBool(r.Verified), FormatFloat(r.PlanSeconds),
		encodeMetrics(r.Metrics), oneLine(strings.Join(r.Warnings, "\x1f")), oneLine(r.Error)}
	if r.Sharing != "" {
		fields = append(fields, r.Sharing, FormatFloat(r.Shared), FormatFloat(r.SharedRatio))
	}
	return fields
}

// journalEncoder writes journal records as CSV lines in one reused
// buffer: a sweep keeps one per worker.
type journalEncoder struct {
	buf bytes.Buffer
	w   *csv.Writer
}

func newJournalEncoder() *journalEncoder {
	e := &journalEncoder{}
	e.w = csv.NewWriter(&e.buf)
	return e
}

// encode returns the record's line, valid until the next encode.
func (e *journalEncoder) encode(fields []string) []byte {
	e.buf.Reset()
	e.w.Write(fields)
	e.w.Flush()
	return e.buf.Bytes()
}

// oneLine keeps a journal record on one line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}

func decodeJournalLine(line string) (int, *Row, error) {
	rec, err := csv.NewReader(strings.NewReader(line)).Read()
	if err != nil {
		return 0, nil, fmt.Errorf("malformed journal record")
	}
	return rowFromFields(rec)
}

// rowFromFields reads a journal record's cells (journalFields) back.
func rowFromFields(rec []string) (int, *Row, error) {
	if len(rec) != 10 && len(rec) != 13 {
		return 0, nil, fmt.Errorf("malformed journal record")
	}
	k, err := strconv.Atoi(rec[0])
	if err != nil {
		return 0, nil, fmt.Errorf("malformed job index %q", rec[0])
	}
	r := &Row{Error: rec[9]}
	fl := []*float64{&r.Claimed, &r.Simulated, &r.Gap}
	for i, dst := range fl {
		if *dst, err = parseCell(rec[1+i]); err != nil {
			return 0, nil, err
		}
	}
	if r.NViolations, err = strconv.Atoi(rec[4]); err != nil {
		return 0, nil, fmt.Errorf("malformed violation count %q", rec[4])
	}
	if r.Verified, err = strconv.ParseBool(rec[5]); err != nil {
		return 0, nil, fmt.Errorf("malformed verified flag %q", rec[5])
	}
	if r.PlanSeconds, err = parseCell(rec[6]); err != nil {
		return 0, nil, err
	}
	if r.Metrics, err = decodeMetrics(rec[7]); err != nil {
		return 0, nil, err
	}
	if rec[8] != "" {
		r.Warnings = strings.Split(rec[8], "\x1f")
	}
	if len(rec) == 13 {
		r.Sharing = rec[10]
		if r.Shared, err = parseCell(rec[11]); err != nil {
			return 0, nil, err
		}
		if r.SharedRatio, err = parseCell(rec[12]); err != nil {
			return 0, nil, err
		}
	}
	return k, r, nil
}

func parseCell(s string) (float64, error) {
	if s == "" {
		return math.NaN(), nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("malformed number %q", s)
	}
	return v, nil
}

func encodeMetrics(m map[string]float64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + strconv.FormatFloat(m[k], 'g', -1, 64)
	}
	return strings.Join(parts, ";")
}

func decodeMetrics(s string) (map[string]float64, error) {
	if s == "" {
		return nil, nil
	}
	m := map[string]float64{}
	for _, part := range strings.Split(s, ";") {
		k, v, ok := strings.Cut(part, "=")
		x, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("malformed metric %q", part)
		}
		m[k] = x
	}
	return m, nil
}

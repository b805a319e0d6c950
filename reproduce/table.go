package reproduce

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Table is one table of a reproduction, one value per cell, rendered as
// Markdown (for tables.md and the paper's section), CSV and LaTeX
// (booktabs) from the same cells.
type Table struct {
	// Name is the file stem of its CSV and LaTeX files: tables/<Name>.csv
	// and tables/<Name>.tex. It must be unique within the paper.
	Name string
	// Title is its heading ("Table 1: …").
	Title string
	// Note, if set, is a paragraph said under the table in Markdown and as
	// a comment in LaTeX (what a mark means, where values come from).
	Note    string
	Columns []Column
	Rows    [][]Cell
}

// Column is a column of a Table: what it holds and in which unit.
type Column struct {
	Name string // what it holds: "makespan", "ρ", "nodes explored"
	Unit string // its unit ("s", "ms", "task times"); "" for a count or a name
	// Clock marks a measurement of wall-clock time on this machine: it
	// differs from run to run, and its header says so ("(s, wall clock)").
	Clock bool
}

// ClockUnit is the part of a header that marks a wall-clock column.
const ClockUnit = "wall clock"

// Header is the column's heading: its name and unit, "time (ms, wall
// clock)".
func (c Column) Header() string {
	unit := c.Unit
	if c.Clock {
		unit = strings.TrimPrefix(unit+", "+ClockUnit, ", ")
	}
	if unit == "" {
		return c.Name
	}
	return c.Name + " (" + unit + ")"
}

// Cell is one value of a Table: its text in Markdown and LaTeX (rounded
// for reading), its text in CSV (exact), and an optional mark shown after
// it in Markdown and LaTeX only (CSV cells hold the value alone).
type Cell struct {
	Text  string // as shown in Markdown and LaTeX
	Value string // as written in CSV
	Mark  string
}

// Text is a cell of text, the same in every format.
func Text(s string) Cell { return Cell{Text: s, Value: s} }

// Empty is a cell with no value.
func Empty() Cell { return Cell{} }

// Int is a cell holding an integer.
func Int[T ~int | ~int64](n T) Cell {
	s := strconv.FormatInt(int64(n), 10)
	return Cell{Text: s, Value: s}
}

// Fixed is a number shown with prec decimals; CSV gets its exact value
// (the shortest decimal that reads back to it). NaN or an infinity is an
// empty cell.
func Fixed(v float64, prec int) Cell {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return Empty()
	}
	return Cell{Text: strconv.FormatFloat(v, 'f', prec, 64), Value: strconv.FormatFloat(v, 'g', -1, 64)}
}

// Sig is a number shown with at most digits significant digits; CSV gets
// its exact value. NaN or an infinity is an empty cell.
func Sig(v float64, digits int) Cell {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return Empty()
	}
	return Cell{Text: strconv.FormatFloat(v, 'g', digits, 64), Value: strconv.FormatFloat(v, 'g', -1, 64)}
}

// Bool is a yes/no cell.
func Bool(b bool) Cell {
	if b {
		return Text("yes")
	}
	return Text("no")
}

// Marked returns c with mark shown after it in Markdown and LaTeX.
func (c Cell) Marked(mark string) Cell { c.Mark = mark; return c }

// validate reports a table that cannot be written.
func (t *Table) validate() error {
	if t.Name == "" || strings.ContainsAny(t.Name, `/\ `) {
		return fmt.Errorf("table %q: want a file stem without spaces or slashes", t.Name)
	}
	for i, row := range t.Rows {
		if len(row) != len(t.Columns) {
			return fmt.Errorf("table %s: row %d has %d cells for %d columns", t.Name, i, len(row), len(t.Columns))
		}
	}
	return nil
}

// WriteMarkdown writes the table as a Markdown heading, table and note.
func (t *Table) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s\n\n|", t.Title)
	for _, c := range t.Columns {
		fmt.Fprintf(&b, " %s |", mdEscape(c.Header()))
	}
	b.WriteString("\n|" + strings.Repeat("---|", len(t.Columns)) + "\n")
	for _, row := range t.Rows {
		b.WriteString("|")
		for _, c := range row {
			s := mdEscape(c.Text)
			if c.Mark != "" {
				s += " " + mdEscape(c.Mark)
			}
			if s == "" {
				b.WriteString(" |")
			} else {
				fmt.Fprintf(&b, " %s |", s)
			}
		}
		b.WriteString("\n")
	}
	if t.Note != "" {
		fmt.Fprintf(&b, "\n%s\n", t.Note)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// WriteCSV writes the table as CSV: one header line of column headings
// with their units, then one line per row, one value per cell.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		head[i] = c.Header()
	}
	cw.Write(head)
	rec := make([]string, len(t.Columns))
	for _, row := range t.Rows {
		for i, c := range row {
			rec[i] = c.Value
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// WriteLaTeX writes the table as a booktabs tabular (\usepackage{booktabs}),
// numbers right-aligned, for \input inside the reader's own table float;
// its title and note are comments above it.
func (t *Table) WriteLaTeX(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%% %s\n", oneLine(t.Title))
	if t.Note != "" {
		fmt.Fprintf(&b, "%% %s\n", oneLine(t.Note))
	}
	b.WriteString("% Needs \\usepackage{booktabs}.\n\\begin{tabular}{")
	for i := range t.Columns {
		if t.numeric(i) {
			b.WriteString("r")
		} else {
			b.WriteString("l")
		}
	}
	b.WriteString("}\n\\toprule\n")
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteString(" & ")
		}
		b.WriteString(TeX(c.Header()))
	}
	b.WriteString(" \\\\\n\\midrule\n")
	for _, row := range t.Rows {
		for i, c := range row {
			if i > 0 {
				b.WriteString(" & ")
			}
			b.WriteString(TeX(c.Text))
			if c.Mark != "" {
				b.WriteString("\\,")
				b.WriteString(TeX(c.Mark))
			}
		}
		b.WriteString(" \\\\\n")
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// numeric says whether every non-empty cell of column i is a number.
func (t *Table) numeric(i int) bool {
	seen := false
	for _, row := range t.Rows {
		if row[i].Value == "" {
			continue
		}
		if _, err := strconv.ParseFloat(row[i].Value, 64); err != nil {
			return false
		}
		seen = true
	}
	return seen
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// texSymbols are the characters of the tables that LaTeX's default fonts
// lack or that LaTeX reserves, with what to write instead.
var texSymbols = map[rune]string{
	'\\': `\textbackslash{}`, '&': `\&`, '%': `\%`, '$': `\$`, '#': `\#`, '_': `\_`,
	'{': `\{`, '}': `\}`, '~': `\textasciitilde{}`, '^': `\textasciicircum{}`,
	'<': `\textless{}`, '>': `\textgreater{}`, '|': `\textbar{}`,
	'α': `$\alpha$`, 'β': `$\beta$`, 'γ': `$\gamma$`, 'ρ': `$\rho$`, 'μ': `$\mu$`, 'Σ': `$\Sigma$`,
	'×': `$\times$`, '±': `$\pm$`, '≤': `$\le$`, '≥': `$\ge$`, '→': `$\to$`, '′': `$'$`, '−': `$-$`,
	'–': `--`, '—': `---`, '…': `\dots{}`, '\u00a0': `~`,
}

// TeX escapes s for LaTeX text: reserved characters escaped, and Greek
// letters and mathematical signs in math mode, so it compiles with the
// default fonts.
func TeX(s string) string {
	var b strings.Builder
	for _, r := range s {
		if t, ok := texSymbols[r]; ok {
			b.WriteString(t)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

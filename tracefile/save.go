package tracefile

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/netsched/netsched/internal/atomicfile"
	"github.com/netsched/netsched/sim"
)

// Format is a trace file format, named as its file extension is.
type Format string

// The formats.
const (
	JSON Format = "json" // Trace Event Format, for Chrome tracing and Perfetto
	Paje Format = "paje" // Paje, for ViTE and pajeng
)

// ParseFormat reads a format's name, "json" or "paje".
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case JSON, Paje:
		return f, nil
	}
	return "", fmt.Errorf("trace format: want json or paje, got %q", s)
}

// FormatOf is the format that path's extension names: .json or .paje.
func FormatOf(path string) (Format, error) {
	f, err := ParseFormat(strings.TrimPrefix(filepath.Ext(path), "."))
	if err != nil {
		return "", fmt.Errorf("%s: want a .json or .paje file name", path)
	}
	return f, nil
}

// Write writes tr to w in format f, with the given title (see WriteJSON
// and WritePaje).
func Write(w io.Writer, tr *sim.Trace, f Format, title string) error {
	switch f {
	case JSON:
		return WriteJSON(w, tr, title)
	case Paje:
		return WritePaje(w, tr, title)
	}
	return fmt.Errorf("tracefile: unknown format %q", f)
}

// Save writes tr to path, whole or not at all, in the format its
// extension names.
func Save(tr *sim.Trace, title, path string) error {
	f, err := FormatOf(path)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error { return Write(w, tr, f, title) })
}

package models

import "fmt"

// DAGSource says where a task graph comes from when its tasks are not
// listed in the scenario: a file of the Standard Task Graph Set, in DOT or
// a WfCommons workflow instance (a path relative to the scenario file), or
// one of the generated families of paper 002's experiments. Exactly one of
// STG, DOT, WfCommons, FFT and Gauss is set. Package formats reads it.
type DAGSource struct {
	STG string `yaml:"stg,omitempty" json:"stg,omitempty"`
	DOT string `yaml:"dot,omitempty" json:"dot,omitempty"`
	// WfCommons is a WfFormat instance (see package formats/wfcommons):
	// tasks weighted by their recorded runtimes in seconds, edges by the
	// bytes of the files between them.
	WfCommons string `yaml:"wfcommons,omitempty" json:"wfcommons,omitempty"`
	FFT       int    `yaml:"fft,omitempty" json:"fft,omitempty"`     // number of points N, a power of two
	Gauss     int    `yaml:"gauss,omitempty" json:"gauss,omitempty"` // matrix size m
	// KeepDummies keeps an STG file's dummy entry and exit nodes as tasks
	// (paper 002 counts them: 302 tasks for the 300-task set).
	KeepDummies bool `yaml:"keep_dummies,omitempty" json:"keep_dummies,omitempty"`
	// UnitWeights sets every task's weight to 1, as paper 002 does.
	UnitWeights bool `yaml:"unit_weights,omitempty" json:"unit_weights,omitempty"`
}

// Validate checks that exactly one source is set; errors are *FieldError
// at path.
func (s *DAGSource) Validate(path string) error {
	set := 0
	for _, on := range []bool{s.STG != "", s.DOT != "", s.WfCommons != "", s.FFT != 0, s.Gauss != 0} {
		if on {
			set++
		}
	}
	if set != 1 {
		return fieldErr(rootPath(path), "must set exactly one of stg, dot, wfcommons, fft, gauss")
	}
	return nil
}

// String names the source, for messages.
func (s *DAGSource) String() string {
	switch {
	case s.STG != "":
		return "stg " + s.STG
	case s.DOT != "":
		return "dot " + s.DOT
	case s.WfCommons != "":
		return "wfcommons " + s.WfCommons
	case s.FFT != 0:
		return fmt.Sprintf("fft(%d)", s.FFT)
	}
	return fmt.Sprintf("gauss(%d)", s.Gauss)
}

// PlatformSource says where a platform comes from when it is not written
// out in the scenario: the recorded machines of a WfCommons workflow
// instance (a path relative to the scenario file), made a multi-cluster of
// one cluster per machine (package formats/wfcommons).
type PlatformSource struct {
	WfCommons string `yaml:"wfcommons" json:"wfcommons"`
	// Bandwidth is the network's bandwidth between two machines in bytes
	// per second (β = 1/Bandwidth seconds per byte, the unit of the
	// edges' data).
	Bandwidth float64 `yaml:"bandwidth" json:"bandwidth"`
	// Memory is the bandwidth of data between two cores of one machine in
	// bytes per second; nil means DefaultMemoryBandwidth.
	Memory *float64 `yaml:"memory,omitempty" json:"memory,omitempty"`
	// Alpha is the start-up latency of every transfer, in seconds.
	Alpha float64 `yaml:"alpha,omitempty" json:"alpha,omitempty"`
}

// DefaultMemoryBandwidth is the bandwidth between two cores of one machine
// when none is given: 10^10 bytes/s, what one core copies in memory on a
// server of the instances' time (the Chameleon machines' Xeons), a hundred
// times a 1 Gbit/s network.
const DefaultMemoryBandwidth = 1e10

// ValidateSource checks p.From, which must be set and stand alone, and
// returns the memory bandwidth it gives; errors are *FieldError below
// "platform.from".
func (p *Platform) ValidateSource() (memory float64, err error) {
	root := rootPath("platform")
	from := root.field("from")
	if p.Kind() != "" {
		return 0, fieldErr(from, "give either a platform kind or from, not both")
	}
	s := p.From
	if s.WfCommons == "" {
		return 0, fieldErr(from.field("wfcommons"), "must name a WfCommons instance")
	}
	if err := positive(from.field("bandwidth"), s.Bandwidth); err != nil {
		return 0, err
	}
	memory = DefaultMemoryBandwidth
	if s.Memory != nil {
		memory = *s.Memory
	}
	if err := positive(from.field("memory"), memory); err != nil {
		return 0, err
	}
	if err := nonNegative(from.field("alpha"), s.Alpha); err != nil {
		return 0, err
	}
	return memory, nil
}

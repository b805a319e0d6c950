package models

// Balance is the load-balancing problem of paper 003 §3.1, a pool of
// tasks: every processor starts with its own tasks of equal work (Tasks
// each, or Counts[i] on processor i) and works until none is left; the
// processors measure their Power, the tasks finished per Interval, to
// balance the load.
//
// Work is in the platform's work units: a task takes Work/Speed on an
// unloaded processor. With Jitter j > 0 each task's work is drawn, with
// the run's seed, uniformly from [Work·(1 − j), Work·(1 + j)].
type Balance struct {
	Tasks    int     `yaml:"tasks" json:"tasks"`
	Counts   []int   `yaml:"counts,omitempty" json:"counts,omitempty"`
	Work     float64 `yaml:"work" json:"work"`
	Interval float64 `yaml:"interval" json:"interval"`
	Jitter   float64 `yaml:"jitter,omitempty" json:"jitter,omitempty"`
}

// Count is the number of tasks processor i starts with.
func (b *Balance) Count(i int) int {
	if b.Counts != nil {
		return b.Counts[i]
	}
	return b.Tasks
}

// Validate checks the task pool on a workstations platform.
func (b *Balance) Validate(path string, pl *Platform) error { return b.validate(rootPath(path), pl) }

// validate is Validate below a path kept in pieces.
func (b *Balance) validate(path fieldPath, pl *Platform) error {
	if pl.Workstations == nil {
		return fieldErr(path, "a balance problem runs on a workstations platform, not %q", pl.Kind())
	}
	n := len(pl.Workstations.Processors)
	if b.Tasks < 0 {
		return fieldErr(path.field("tasks"), "must be a whole number >= 0, got %d", b.Tasks)
	}
	if b.Counts != nil {
		if len(b.Counts) != n {
			return fieldErr(path.field("counts"), "must give one count per processor (%d), got %d", n, len(b.Counts))
		}
		for i, c := range b.Counts {
			if c < 0 {
				return fieldErr(path.elem("counts", i), "must be a whole number >= 0, got %d", c)
			}
		}
	}
	total := 0
	for i := range n {
		total += b.Count(i)
	}
	if total == 0 {
		return fieldErr(path.field("tasks"), "the processors must start with at least one task between them")
	}
	if err := positive(path.field("work"), b.Work); err != nil {
		return err
	}
	if err := positive(path.field("interval"), b.Interval); err != nil {
		return err
	}
	if !(b.Jitter >= 0 && b.Jitter < 1) {
		return fieldErr(path.field("jitter"), "must be in [0, 1), got %v", b.Jitter)
	}
	return nil
}

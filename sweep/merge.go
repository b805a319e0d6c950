package sweep

import (
	"fmt"
	"slices"
)

// Merge joins the results files of the shards of one sweep into out, in
// the order the whole sweep would have written them. It checks that every
// file belongs to the same sweep and that every shard is there exactly
// once and complete.
func Merge(shards []string, out string) error {
	if len(shards) == 0 {
		return fmt.Errorf("merge: no shard files given")
	}
	mans := make([]Manifest, len(shards))
	tables := make([]*Table, 0, len(shards))
	for i, path := range shards {
		m, err := ReadManifest(path)
		if err != nil {
			return fmt.Errorf("merge: %s has no readable manifest (%v): was it written by netsched sweep --out?", path, err)
		}
		mans[i] = m
	}
	byShard, err := checkShards(shards, mans)
	if err != nil {
		return err
	}
	for _, path := range byShard {
		t, err := ReadCSVFile(path)
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		tables = append(tables, t)
	}
	merged, err := interleave(tables, byShard, mans[0].JobsTotal)
	if err != nil {
		return err
	}
	man := mans[0]
	man.Shard, man.Rows = Shard{0, 1}.String(), len(merged.Rows)
	return writeResults(out, merged, man, nil)
}

// checkShards returns the files ordered by shard index, after checking
// they are the n shards of one sweep.
func checkShards(paths []string, mans []Manifest) ([]string, error) {
	first, err := ParseShard(mans[0].Shard)
	if err != nil {
		return nil, fmt.Errorf("merge: %s: %w", paths[0], err)
	}
	byShard := make([]string, first.N)
	for i, m := range mans {
		sh, err := ParseShard(m.Shard)
		switch {
		case err != nil:
			return nil, fmt.Errorf("merge: %s: %w", paths[i], err)
		case m.Fingerprint != mans[0].Fingerprint:
			return nil, fmt.Errorf("merge: %s is from another sweep than %s (scenario %s vs %s, or other axes, seeds or mode)",
				paths[i], paths[0], m.Scenario, mans[0].Scenario)
		case sh.N != first.N:
			return nil, fmt.Errorf("merge: %s is shard %s but %s is shard %s: the sweeps were cut differently",
				paths[i], m.Shard, paths[0], mans[0].Shard)
		case byShard[sh.I] != "":
			return nil, fmt.Errorf("merge: %s and %s are both shard %s", byShard[sh.I], paths[i], m.Shard)
		}
		byShard[sh.I] = paths[i]
	}
	if missing := slices.Index(byShard, ""); missing >= 0 {
		return nil, fmt.Errorf("merge: shard %d/%d is missing", missing, first.N)
	}
	return byShard, nil
}

// interleave puts job k of the whole sweep, row k/n of shard k%n, in place.
func interleave(tables []*Table, paths []string, total int) (*Table, error) {
	n := len(tables)
	for i, t := range tables {
		if want := len(Shard{i, n}.Indices(total)); len(t.Rows) != want {
			return nil, fmt.Errorf("merge: %s has %d rows, shard %d/%d of %d jobs needs %d", paths[i], len(t.Rows), i, n, total, want)
		}
	}
	merged := &Table{Axes: tables[0].Axes, Timing: tables[0].Timing}
	for k := range total {
		merged.Rows = append(merged.Rows, tables[k%n].Rows[k/n])
	}
	return merged, nil
}

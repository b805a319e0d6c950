// Command flowbench measures the CPU time of netsched's flow engine and of
// SimGrid on the same instances, interleaved: n flows that all start at 0
// on the two-level cluster of flowgen.BenchmarkCluster, for each n of
// -flows. It prints a Markdown table, and fails if the end times of the two
// differ by more than 1e-9 relative (results/benchmarks.md).
//
//	go run ./scripts/simgrid/flowbench -flows 1000,2000,4000,10000 -rounds 3
//
// SimGrid runs through scripts/simgrid/run-flows.sh (which builds
// flows.cpp); its CPU time is what the s4u program measures of itself
// (std::clock, after loading the platform and until the end), netsched's
// the process's CPU time over the replay alone. -simgrid=false measures
// netsched alone (for 100,000 flows, where SimGrid needs hours); -model
// cm02 compares SimGrid's CM02 as it is, with -cfg --cfg=network/optim:Full
// (SimGrid's default lazy update drifts by up to 1e-4 relative under CM02's
// weights here; its full update agrees with netsched to 1e-14).
package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/netsched/netsched/internal/cputime"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/network/flowgen"
)

func main() {
	sizes := flag.String("flows", "1000,2000,4000,10000", "comma-separated numbers of flows")
	rounds := flag.Int("rounds", 3, "measurements of each size, netsched and SimGrid in turn")
	withSimGrid := flag.Bool("simgrid", true, "also run SimGrid")
	script := flag.String("script", "scripts/simgrid/run-flows.sh", "SimGrid's run script")
	model := flag.String("model", "maxmin", "sharing model: maxmin or cm02")
	cfg := flag.String("cfg", "", "more SimGrid options, space-separated, such as --cfg=network/optim:Full")
	flag.Parse()
	sharing, err := network.ParseSharing(*model)
	if err != nil {
		fmt.Fprintln(os.Stderr, "flowbench: -model:", err)
		os.Exit(2)
	}
	if err := run(*sizes, *rounds, *withSimGrid, append([]string{*script}, strings.Fields(*cfg)...), sharing); err != nil {
		fmt.Fprintln(os.Stderr, "flowbench:", err)
		os.Exit(1)
	}
}

// run measures each size; script is the run script and the options it
// passes on to SimGrid.
func run(sizes string, rounds int, withSimGrid bool, script []string, sharing network.Sharing) error {
	dir, err := os.MkdirTemp("", "flowbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	fmt.Println("| flows | netsched CPU (s) | SimGrid CPU (s) | ratio | netsched peak heap (MB) |")
	fmt.Println("|---:|---:|---:|---:|---:|")
	for _, field := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil {
			return fmt.Errorf("-flows: %w", err)
		}
		in := flowgen.Generate(rand.New(rand.NewPCG(1, uint64(n))), flowgen.BenchmarkCluster().Topology(), flowgen.Concurrent(n))
		file := filepath.Join(dir, fmt.Sprintf("cluster-%d.json", n))
		var buf bytes.Buffer
		if err := network.Write(&buf, in); err != nil {
			return err
		}
		if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
			return err
		}
		var ours, theirs []float64
		var heap uint64
		for range rounds {
			runtime.GC()
			cpu := cputime.Process()
			times, err := network.Replay(context.Background(), &in.Network, in.Flows, sharing)
			if err != nil {
				return err
			}
			ours = append(ours, cputime.Process()-cpu)
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			heap = max(heap, ms.HeapSys)
			if !withSimGrid {
				continue
			}
			ends, sgCPU, err := simgrid(script, file, sharing.Name())
			if err != nil {
				return err
			}
			theirs = append(theirs, sgCPU)
			for i, t := range times {
				if math.Abs(t.End-ends[i]) > 1e-9*math.Max(t.End, ends[i]) {
					return fmt.Errorf("%d flows: flow %d ends at %v, SimGrid says %v", n, i, t.End, ends[i])
				}
			}
		}
		o := median(ours)
		if withSimGrid {
			t := median(theirs)
			fmt.Printf("| %d | %.4f | %.3f | 1/%.0f | %.0f |\n", n, o, t, t/o, float64(heap)/1e6)
		} else {
			fmt.Printf("| %d | %.4f | – | – | %.0f |\n", n, o, float64(heap)/1e6)
		}
	}
	return nil
}

// simgrid runs the script on file and returns SimGrid's end times and the
// CPU time its program reported.
func simgrid(script []string, file, model string) ([]float64, float64, error) {
	args := append([]string{script[0], file, model}, script[1:]...)
	cmd := exec.Command("bash", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %v\n%s", script, err, stderr.Bytes())
	}
	rows, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil {
		return nil, 0, err
	}
	var ends []float64
	for _, row := range rows[1:] {
		x, err := strconv.ParseFloat(row[1], 64)
		if err != nil {
			return nil, 0, err
		}
		ends = append(ends, x)
	}
	var cpu float64
	if _, err := fmt.Sscanf(lastLine(stderr.String()), "cpu %g", &cpu); err != nil {
		return nil, 0, fmt.Errorf("no CPU time from SimGrid's program in %q", stderr.String())
	}
	return ends, cpu, nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return s[len(s)/2]
}

package examples_test

import (
	"bytes"
	"errors"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/internal/srcstat"
	"github.com/netsched/netsched/internal/tooltest"
)

// goCommand finds the go command, which builds the example module.
func goCommand(t *testing.T) string {
	t.Helper()
	return tooltest.Command(t, "go", "")
}

// run runs a command in dir and returns its standard output and error
// and exit status.
func run(t *testing.T, dir, name string, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		status = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return out.String(), errOut.String(), status
}

// TestGoPolicy builds the out-of-tree policy example, a module of its own
// that imports netsched through a replace directive, runs it on its
// scenario and checks what it prints and draws: hlfet's makespan is the
// one traced by hand in its own tests (17), on one processor the sum of
// the weights (15), and every schedule verifies. A bad scenario exits 2
// naming the file, line and field. Without -short, the example module's
// own tests run too.
func TestGoPolicy(t *testing.T) {
	goTool := goCommand(t)
	const dir = "gopolicy"
	if err := srcstat.Stat("..", ".go", ".mod", ".sum", ".yaml"); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "gopolicy")
	if _, stderr, status := run(t, dir, goTool, "build", "-o", bin, "."); status != 0 {
		t.Fatalf("go build in examples/gopolicy: exit %d\n%s", status, stderr)
	}

	charts := t.TempDir()
	stdout, stderr, status := run(t, dir, bin, "-gantt", charts)
	const want = `scenario forkjoin: a dag problem on the delay platform
policy                claimed  simulated violations verified
hlfet                      17         17          0 yes
hlfet-1                    15         15          0 yes
sequential                 15         15          0 yes
unclustered                25         25          0 yes
`
	if status != 0 || stdout != want {
		t.Errorf("gopolicy: exit %d, output\n%s\nwant exit 0 and\n%s\nstderr: %s", status, stdout, want, stderr)
	}
	for _, id := range []string{"hlfet", "hlfet-1", "sequential", "unclustered"} {
		f, err := os.Open(filepath.Join(charts, id+".png"))
		if err != nil {
			t.Error(err)
			continue
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Errorf("%s.png: %v", id, err)
			continue
		}
		if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 50 {
			t.Errorf("%s.png is %v, too small for a Gantt chart", id, b)
		}
	}

	bad := filepath.Join(t.TempDir(), "bad.yaml")
	data, err := os.ReadFile(filepath.Join(dir, "forkjoin.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte("{name: hlfet, label: hlfet-1, processors: 1}"), []byte("{name: hlfet, label: hlfet-1, processors: 0}"), 1)
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, status = run(t, dir, bin, bad)
	if status != 2 || stdout != "" || !strings.Contains(stderr, "bad.yaml: line ") || !strings.Contains(stderr, "policies[1].processors") {
		t.Errorf("gopolicy on a bad option: exit %d, stdout %q, stderr %q; want exit 2 and an error naming the file, line and field", status, stdout, stderr)
	}

	if testing.Short() || !slowtest.Enabled() { // .ci/run runs it in its examples/gopolicy step too
		return
	}
	if stdout, stderr, status := run(t, dir, goTool, "test", "./..."); status != 0 {
		t.Errorf("go test in examples/gopolicy: exit %d\n%s%s", status, stdout, stderr)
	}
}

package dot_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/netsched/netsched/formats/dot"
	"github.com/netsched/netsched/models"
)

// A task graph written by Write and read back in one pass by ReadWithin
// (0: no memory budget).
func Example() {
	g := &models.DAG{
		Tasks: []models.Task{{Name: "load", Weight: 2}, {Name: "fft", Weight: 5}, {Name: "store", Weight: 1}},
		Edges: []models.DAGEdge{{From: 0, To: 1, Data: 3}, {From: 1, To: 2}},
	}
	var b strings.Builder
	if err := dot.Write(&b, g, "pipeline"); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(b.String())
	back, warning, err := dot.ReadWithin(strings.NewReader(b.String()), "pipeline.dot", 0)
	fmt.Println(len(back.Tasks), "tasks,", len(back.Edges), "edges;", warning == "", err)
	// Output:
	// strict digraph pipeline {
	//   // Node definitions.
	//   load [weight=2];
	//   fft [weight=5];
	//   store [weight=1];
	//
	//   // Edge definitions.
	//   load -> fft [data=3];
	//   fft -> store;
	// }
	// 3 tasks, 2 edges; true <nil>
}

// A misspelt attribute is an error naming the file and line; Graphviz's
// own attributes are listed in one warning.
func ExampleReadWithin() {
	in := "digraph {\n  a [weight=2, color=red];\n  a -> b [dta=1]\n}\n"
	_, _, err := dot.ReadWithin(strings.NewReader(in), "g.dot", 0)
	fmt.Fprintln(os.Stdout, err)
	_, warning, _ := dot.ReadWithin(strings.NewReader("digraph { a [weight=2, color=red] }"), "g.dot", 0)
	fmt.Println(warning)
	// Output:
	// g.dot:3: edge a -> b attribute "dta": did you mean "data"? (a task graph reads data)
	// g.dot: ignoring 1 DOT attribute(s) a task graph does not read (node color); it reads weight on each node and data on each edge
}

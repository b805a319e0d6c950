package reproduce

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteIndexOthers checks the "Other results" list of the index: a
// folder that is no paper's is listed by its README's first heading when
// it has a README, a paper's Others when the file is there, nothing
// otherwise; and every link of the index resolves from the root.
func TestWriteIndexOthers(t *testing.T) {
	Register(Paper{ID: "997", Dir: "demo-others", Title: "a paper with other results",
		Run:    func(context.Context, *Output, Options) error { return nil },
		Others: []Other{{File: "ablation.md", Title: "an ablation"}, {File: "absent.md", Title: "never written"}}})
	files := map[string]string{
		"sweeps/README.md":          "```sh\n# a comment, not a title\n```\n\n# Sweeps of K\n\ntext\n",
		"untitled/README.md":        "no heading here\n",
		"scratch/data.csv":          "x\n",
		"demo-others/ablation.md":   "### a table\n",
		"demo-others/SUMMARY.md":    "## Paper 997\n\nSee [its table](tables/t1.csv).\n",
		"benchmarks.md":             "# b\n",
		"demo-others/tables/t1.csv": "x\n",
	}
	for _, tc := range []struct {
		name      string
		files     []string // of files, those written under the root
		want      []string // lines the index must hold
		wantNot   []string // and must not
		wantOther bool     // whether it has an "Other results" section
	}{
		{"none", nil, nil, []string{"never written"}, false},
		{"a paper's folder only", []string{"demo-others/SUMMARY.md", "demo-others/tables/t1.csv"}, nil, []string{"demo-others/README.md"}, false},
		{"a folder without README", []string{"scratch/data.csv"}, nil, []string{"scratch"}, false},
		{"everything", []string{"sweeps/README.md", "untitled/README.md", "scratch/data.csv", "demo-others/ablation.md", "demo-others/SUMMARY.md", "demo-others/tables/t1.csv", "benchmarks.md"},
			[]string{
				"- [sweeps/](sweeps/README.md): Sweeps of K\n",
				"- [untitled/](untitled/README.md): untitled\n",
				"- [demo-others/ablation.md](demo-others/ablation.md): an ablation\n",
			},
			[]string{"scratch", "absent.md", "a comment"}, true},
	} {
		root := t.TempDir()
		for _, f := range tc.files {
			p := filepath.Join(root, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(files[f]), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := WriteIndex(root); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		b, err := os.ReadFile(filepath.Join(root, "README.md"))
		if err != nil {
			t.Fatal(err)
		}
		readme := string(b)
		if got := strings.Contains(readme, "## Other results\n"); got != tc.wantOther {
			t.Errorf("%s: Other results section %v, want %v\n%s", tc.name, got, tc.wantOther, readme)
		}
		for _, w := range tc.want {
			if !strings.Contains(readme, w) {
				t.Errorf("%s: index lacks %q\n%s", tc.name, w, readme)
			}
		}
		for _, w := range tc.wantNot {
			if strings.Contains(readme, w) {
				t.Errorf("%s: index holds %q\n%s", tc.name, w, readme)
			}
		}
		if tc.wantOther && strings.Index(readme, "## Other results") > strings.Index(readme, "## Paper") {
			t.Errorf("%s: Other results come after the papers", tc.name)
		}
		for _, l := range mdLink.FindAllStringSubmatch(readme, -1) {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(l[1]))); err != nil {
				t.Errorf("%s: README.md links %s, which is not there", tc.name, l[1])
			}
		}
	}
}

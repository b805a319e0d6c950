package doclinks

import (
	"bufio"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// root is the repository's root, seen from this package's folder.
const root = "../.."

// inlineLink matches an inline link or image, [text](target) or
// ![alt](target), with an optional title after the target.
var inlineLink = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)

// refLink matches a reference definition, [label]: target.
var refLink = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)`)

// htmlAttr matches an src or href attribute in inline HTML.
var htmlAttr = regexp.MustCompile(`(?:src|href)="([^"]+)"`)

// htmlID matches an explicit anchor, <a id="x"> or <a name="x">.
var htmlID = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)

// codeSpan matches an inline code span, whose text is not a link.
var codeSpan = regexp.MustCompile("`+[^`]*`+")

// link is one link of a Markdown file.
type link struct {
	line   int
	target string
}

// parse returns the links of a Markdown document, outside fenced code
// blocks and code spans, and the anchors its headings and <a id> tags
// define.
func parse(text string) (links []link, anchors map[string]bool) {
	anchors = map[string]bool{}
	seen := map[string]int{}
	fence := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		for _, m := range htmlID.FindAllStringSubmatch(line, -1) {
			anchors[m[1]] = true
		}
		if strings.HasPrefix(trimmed, "#") {
			slug := slugify(strings.TrimLeft(trimmed, "#"))
			if k := seen[slug]; k > 0 {
				anchors[fmt.Sprintf("%s-%d", slug, k)] = true
			} else {
				anchors[slug] = true
			}
			seen[slug]++
		}
		plain := codeSpan.ReplaceAllString(line, "")
		for _, re := range []*regexp.Regexp{inlineLink, refLink, htmlAttr} {
			for _, m := range re.FindAllStringSubmatch(plain, -1) {
				links = append(links, link{n, m[1]})
			}
		}
	}
	return links, anchors
}

// slugify returns the anchor GitHub gives a heading: its text in lower
// case, without code marks and punctuation other than '-' and '_', spaces
// turned into '-'.
func slugify(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// markdownFiles returns the Markdown files the test checks, relative to
// the root: README.md, and every .md file under docs/ and results/.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md"}
	for _, dir := range []string{"docs", "results"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".md") {
				rel, err := filepath.Rel(root, p)
				if err != nil {
					return err
				}
				files = append(files, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// TestRelativeLinks checks that every relative link in README.md, docs/
// and results/ names a file or folder inside the repository, and that a
// link to an anchor (#name, or file.md#name) names a heading or an
// <a id> of its target.
func TestRelativeLinks(t *testing.T) {
	files := markdownFiles(t)
	if len(files) < 3 {
		t.Fatalf("found only %v: is the test running from internal/doclinks?", files)
	}
	anchorsOf := map[string]map[string]bool{}
	anchors := func(file string) map[string]bool {
		if a, ok := anchorsOf[file]; ok {
			return a
		}
		data, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			return nil
		}
		_, a := parse(string(data))
		anchorsOf[file] = a
		return a
	}
	checked := 0
	for _, file := range files {
		data, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		links, _ := parse(string(data))
		for _, l := range links {
			u, err := url.Parse(l.target)
			if err != nil {
				t.Errorf("%s:%d: link %q: %v", file, l.line, l.target, err)
				continue
			}
			if u.Scheme != "" || u.Host != "" {
				continue // an absolute URL: not checked offline
			}
			checked++
			target := file
			if u.Path != "" {
				target = path.Clean(path.Join(path.Dir(file), u.Path))
				if target == ".." || strings.HasPrefix(target, "../") || path.IsAbs(u.Path) {
					t.Errorf("%s:%d: link %q leaves the repository", file, l.line, l.target)
					continue
				}
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
					t.Errorf("%s:%d: link %q: no file %s in the repository", file, l.line, l.target, target)
					continue
				}
			}
			if u.Fragment != "" && strings.HasSuffix(target, ".md") && !anchors(target)[u.Fragment] {
				t.Errorf("%s:%d: link %q: %s has no heading or anchor %q", file, l.line, l.target, target, u.Fragment)
			}
		}
	}
	if checked == 0 {
		t.Error("no relative link found: the parser is broken")
	}
	t.Logf("%d relative links in %d files", checked, len(files))
}

// TestParse checks the parser on the forms of link the documents use, and
// on what is not a link.
func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		links   []string
		anchors []string
	}{
		{"inline", "see [a](docs/a.md) and ![b](b.png \"t\")", []string{"docs/a.md", "b.png"}, nil},
		{"reference", "[x]: ../x.md\n", []string{"../x.md"}, nil},
		{"html", `<img src="p.png"> <a href="q.md#r">q</a>`, []string{"p.png", "q.md#r"}, nil},
		{"code span", "`[a](not-a-link)` [b](yes)", []string{"yes"}, nil},
		{"fence", "```\n[a](no)\n```\n[b](yes)", []string{"yes"}, nil},
		{"headings", "# Scenario reference\n## Platforms and problems\n## Fields\n## Fields", nil,
			[]string{"scenario-reference", "platforms-and-problems", "fields", "fields-1"}},
		{"anchor tag", `<a id="sweeps"></a>Each key`, nil, []string{"sweeps"}},
		{"punctuation", "## Ablation: Cross-A's K (issue 14)", nil, []string{"ablation-cross-as-k-issue-14"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			links, anchors := parse(tt.text)
			var got []string
			for _, l := range links {
				got = append(got, l.target)
			}
			if strings.Join(got, " ") != strings.Join(tt.links, " ") {
				t.Errorf("links %q, want %q", got, tt.links)
			}
			for _, a := range tt.anchors {
				if !anchors[a] {
					t.Errorf("no anchor %q in %v", a, anchors)
				}
			}
			if len(anchors) != len(tt.anchors) {
				t.Errorf("anchors %v, want %q", anchors, tt.anchors)
			}
		})
	}
}

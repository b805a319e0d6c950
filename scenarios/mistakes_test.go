package scenarios

import (
	"errors"
	"strings"
	"testing"
)

// TestLikelyMistakes gives the loader the mistakes a new user most
// likely makes in a scenario and requires each error to name the line and
// the field and to say what to write instead.
func TestLikelyMistakes(t *testing.T) {
	const crossbar = "platform:\n  crossbar: {beta: 0.1, duplex: full, processors: [{gamma: 1, load: 100}]}\n"
	const delay = "platform: {delay: {rho: 1}}\nproblem: {dag: {from: {fft: 8}}}\n"
	for _, tc := range []struct{ name, src, want string }{
		{"misspelt key", "platform:\n  crossbar:\n    beat: 0.1\n    duplex: full\n    processors: [{gamma: 1}]\nproblem: {divisible: {}}\npolicies: [direct]\n",
			"line 3: platform.crossbar.beat: unknown field; did you mean beta? (known here: beta, alpha, duplex, processors)"},
		{"misspelt policy", delay + "policies: [crosss]\n",
			`line 3: policies[0]: no policy is named "crosss"; did you mean cross? (known: `},
		{"misspelt option", delay + "policies: [{name: cross, K: 5}]\n",
			`line 3: policies[0].K: unknown option "K"; did you mean k? (cross takes k, runs,`},
		{"policy for another problem", delay + "policies: [mmdl]\n",
			"line 3: policies[0]: policy mmdl schedules divisible problems, not dag (for a dag problem on a delay platform: cass2, convex, cross, dsc, sequential, unclustered)"},
		{"problem for another platform", "platform: {delay: {rho: 1}}\nproblem: {divisible: {}}\npolicies: [direct]\n",
			`line 2: problem.divisible: a divisible load runs on a crossbar or multicluster platform, not "delay"`},
		{"options under the name", delay + "policies: [cross: {k: 5}]\n",
			"line 3: policies[0]: a policy's options go beside its name: write {name: cross, k: 5}"},
		{"options in an options mapping", delay + "policies: [{name: dsc, options: {k: 5}}]\n",
			"line 3: policies[0].options: a built-in policy's options go directly in the entry, beside its name: write {name: dsc, k: 5} (options: is for exec policies)"},
		{"required key left out", "platform:\n  crossbar: {duplex: full, processors: [{gamma: 1}]}\nproblem: {divisible: {}}\npolicies: [direct]\n",
			"line 2: platform.crossbar.beta: missing; it must be a finite number > 0"},
		{"number in quotes", "platform:\n  crossbar: {beta: \"0.1\", duplex: full, processors: [{gamma: 1}]}\nproblem: {divisible: {}}\npolicies: [direct]\n",
			`line 2: platform.crossbar.beta: want a number, got "0.1" (a number in quotes is text: remove the quotes)`},
		{"number with a unit", "platform:\n  crossbar: {beta: 0.1, duplex: full, processors: [{gamma: 2ms}]}\nproblem: {divisible: {}}\npolicies: [direct]\n",
			`line 2: platform.crossbar.processors[0].gamma: want a number, got "2ms" (numbers take no unit`},
		{"a value equal to the processor's name", "platform:\n  crossbar: {beta: 0.1, duplex: full, processors: [{name: fast, gamma: 1, overlap: {send: fast}}]}\nproblem: {divisible: {}}\npolicies: [direct]\n",
			`line 2: platform.crossbar.processors[0].overlap.send: want a number, got "fast"`},
		{"fraction for a count", delay + "policies: [dsc]\nseeds: 2.5\n",
			"line 4: seeds: want a whole number, got 2.5"},
		{"tab indentation", "platform:\n\tdelay: {rho: 1}\nproblem: {dag: {from: {fft: 8}}}\npolicies: [dsc]\n",
			"line 2: found character that cannot start any token (a tab in the indentation: YAML indents with spaces)"},
		{"list items out of line", delay + "policies:\n  - name: cross\n  k: 5\n",
			"line 4: did not find expected '-' indicator (check the indentation of this line and the next"},
		{"a word for a list", "platform:\n  tree: {nodes: a, edges: []}\nproblem: {broadcast: {roots: [a], size: 1}}\npolicies: [fnf]\n",
			`line 2: platform.tree.nodes: want a list, got "a"`},
		{"a list for a word", crossbar + "problem: {divisible: {}}\npolicies: [[direct]]\n",
			"line 4: policies[0]: want a policy name, {name: ..., option: value} or {exec: [...], label: ...}, got a list"},
		{"duplex misspelt", "platform:\n  crossbar: {beta: 0.1, duplex: fulll, processors: [{gamma: 1}]}\nproblem: {divisible: {}}\npolicies: [direct]\n",
			`line 2: platform.crossbar.duplex: must be "half" or "full", got "fulll"`},
	} {
		_, err := Parse("my.yaml", []byte(tc.src))
		var se *Error
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "scenario my.yaml: "+tc.want) {
			t.Errorf("%s: got\n  %v\nwant\n  scenario my.yaml: %s", tc.name, err, tc.want)
		}
	}
	for _, tc := range []struct{ path, want string }{
		{"crosbar-hetero", "scenario crosbar-hetero: no such file, and no bundled scenario of that name; did you mean crossbar-hetero? (bundled: "},
		{"testdata/nothere.yaml", "scenario testdata/nothere.yaml: no such file or directory"},
	} {
		if _, err := Load(tc.path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%s): got %v, want %q", tc.path, err, tc.want)
		}
	}
}

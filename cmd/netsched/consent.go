package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/netsched/netsched/scenarios"
)

// allowExecEnv is the environment variable that, set to 1, gives the
// consent --allow-exec gives, for scripts and CI.
const allowExecEnv = "NETSCHED_ALLOW_EXEC"

// allowExecUsage documents --allow-exec.
const allowExecUsage = "run the scenario's exec policies: programs it names, run with your rights (files, network, processes); without it (or " +
	allowExecEnv + "=1) a scenario naming one is refused"

// addExecFlag adds --allow-exec to a command that runs policies.
func addExecFlag(fs *pflag.FlagSet) *bool {
	return fs.Bool("allow-exec", false, allowExecUsage)
}

// execAllowed says whether the user consents to running a scenario's
// programs: --allow-exec, or NETSCHED_ALLOW_EXEC=1.
func execAllowed(flag bool) bool {
	return flag || os.Getenv(allowExecEnv) == "1"
}

// checkExec refuses, as bad input, a scenario whose policies at indices
// (all of them when nil) include exec policies the user has not allowed
// to run, naming each program with its file and line, and the flag.
func checkExec(sc *scenarios.Scenario, indices []int, allowed bool) error {
	if allowed {
		return nil
	}
	if indices == nil {
		for i := range sc.Policies {
			indices = append(indices, i)
		}
	}
	var lines []string
	for _, i := range indices {
		p := sc.Policies[i]
		if p.Exec == nil {
			continue
		}
		lines = append(lines, fmt.Sprintf("  %s:%d: %s: %s", sc.Source, p.Line, p.ID(), shellWords(p.Exec.Command)))
	}
	if len(lines) == 0 {
		return nil
	}
	return badInputf("scenario %s runs programs as policies (exec):\n%s\n"+
		"they would run with your rights, as you would run them yourself; netsched runs them only with --allow-exec (or %s=1)",
		sc.Source, strings.Join(lines, "\n"), allowExecEnv)
}

// shellWords writes argv as a shell would read it back: plain words as
// they are, others in single quotes.
func shellWords(argv []string) string {
	words := make([]string, len(argv))
	for i, w := range argv {
		if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
			words[i] = w
			continue
		}
		words[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(words, " ")
}

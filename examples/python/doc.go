// Package python holds no Go code of its own: it is the home of the Python
// external policies netsched runs through exec (list_sched.py, a list
// scheduler for task graphs; broadcast.py, a broadcast heuristic for trees;
// and sleepy.py, fails.py and garbage.py, which misbehave on purpose),
// the scenario files that use them, and the test that runs them all
// through netsched run and netsched sweep.
package python

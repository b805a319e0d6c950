// Package all imports every paper's reproduction for its side effect of
// registering it in package reproduce, so a program that imports all (the
// CLI) can run any of them. Add one import line per new paper.
package all

import (
	_ "github.com/netsched/netsched/reproduce/broadcast"    // 004
	_ "github.com/netsched/netsched/reproduce/clustering"   // 002
	_ "github.com/netsched/netsched/reproduce/loadbalance"  // 003
	_ "github.com/netsched/netsched/reproduce/mmdl"         // 000
	_ "github.com/netsched/netsched/reproduce/multicluster" // 001
)

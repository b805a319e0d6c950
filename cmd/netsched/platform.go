package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/network/lower"
)

// cmdPlatform prints a scenario's platform lowered to links (package
// network/lower) in the flow file format of `netsched flows`, with no
// flows, and the names and routes beside: any flow set on it can then be
// checked with another tool.
func cmdPlatform(ctx context.Context, args []string, st streams) error {
	fs := newFlags("platform", "platform SCENARIO [--sharing maxmin|cm02]", st.out)
	sharing := fs.String("sharing", "maxmin", "the sharing model the network is for, recorded in the output: maxmin or cm02 (the links do not depend on it)")
	maxMemory := addMemoryFlag(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if _, err := network.ParseSharing(*sharing); err != nil {
		return badInputf("--sharing: %v", err)
	}
	sc, err := loadScenarioArg(ctx, fs.Args(), *maxMemory, st.err)
	if err != nil {
		return err
	}
	n, err := lower.Lower(&sc.Platform)
	if err != nil {
		return badInputf("platform %s: %v", sc.Name, err)
	}
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	writeLowered(w, n, &sc.Platform, *sharing)
	w.Flush()
	_, err = st.out.Write(buf.Bytes())
	return err
}

// writeLowered writes n as a flow file: hosts, links and an empty flows
// list, then keys a flow file's readers skip: the sharing model, the
// names of the hosts and links, and the route of every pair of hosts that
// may exchange a transfer ([src, dst, [link ids]]), one per line.
func writeLowered(w *bufio.Writer, n *lower.Network, p *models.Platform, sharing string) {
	js := func(v any) string {
		b, _ := json.Marshal(v) // strings and numbers: never fails
		return string(b)
	}
	fmt.Fprintf(w, "{\"hosts\": %d,\n \"links\": [", n.Hosts)
	for i, l := range n.Links {
		if i > 0 {
			w.WriteString(",\n           ")
		}
		fmt.Fprintf(w, "[%s, %s]", fmtFloat(l.Bandwidth), fmtFloat(l.Latency))
	}
	fmt.Fprintf(w, "],\n \"flows\": [],\n \"sharing\": %s,\n \"host_names\": %s,\n \"link_names\": %s,\n \"routes\": [",
		js(sharing), js(n.HostNames), js(n.LinkNames))
	first := true
	var route []int
	for a := range n.Hosts {
		for b := range n.Hosts {
			if a == b || !exchanges(p, a) || !exchanges(p, b) {
				continue
			}
			if !first {
				w.WriteString(",\n            ")
			}
			first = false
			route = n.Route(a, b, route)
			fmt.Fprintf(w, "[%d, %d, %s]", a, b, js(route))
		}
	}
	w.WriteString("]}\n")
}

// exchanges reports whether node i of p sends and receives transfers: on
// a tree, participants do and relays do not.
func exchanges(p *models.Platform, i int) bool {
	return p.Tree == nil || !p.Tree.Nodes[i].Relay
}

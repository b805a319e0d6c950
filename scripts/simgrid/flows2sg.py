#!/usr/bin/env python3
"""Converts a netsched flow file (docs/networks.md) into a SimGrid platform
and the flow list of flows.cpp, for the comparison of scripts/simgrid/run-flows.sh.

Usage: flows2sg.py FILE.json MODEL OUTDIR, MODEL maxmin or cm02. Writes
OUTDIR/platform.xml (one link per link id, a route per (src, dst) pair) and
OUTDIR/flows.txt ("src dst size start" per flow).

cm02 keeps the links' latencies: SimGrid's CM02 then weights shares by
1/latency and bounds rates by the TCP window, as netsched's cm02 does.
maxmin gives every link latency 0 and starts each flow at its start plus its
route's latency instead: SimGrid then shares without weights or bounds,
which is netsched's maxmin (a flow takes no bandwidth during its latency in
both)."""
import json
import sys


def main(path, model, outdir):
    with open(path) as f:
        inst = json.load(f)
    links, flows = inst["links"], inst["flows"]
    routes = {}
    out = []
    for i, (src, dst, size, start, route) in enumerate(flows):
        if size != int(size):
            sys.exit(f"{path}: flows[{i}]: size {size} is not a whole number of bytes")
        if src == dst:
            sys.exit(f"{path}: flows[{i}]: a flow from a host to itself has no SimGrid route")
        if routes.setdefault((src, dst), route) != route:
            sys.exit(f"{path}: flows[{i}]: SimGrid takes one route per pair of hosts, "
                     f"and {src}->{dst} has two")
        if model == "maxmin":
            start = start + sum(links[l][1] for l in route)
        out.append(f"{src} {dst} {int(size)} {start!r}\n")
    with open(f"{outdir}/flows.txt", "w") as f:
        f.writelines(out)
    with open(f"{outdir}/platform.xml", "w") as f:
        f.write('<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n')
        f.write('<platform version="4.1">\n<zone id="net" routing="Full">\n')
        for h in range(inst["hosts"]):
            f.write(f'  <host id="h{h}" speed="1Gf"/>\n')
        for l, (bw, lat) in enumerate(links):
            lat = lat if model == "cm02" else 0.0
            f.write(f'  <link id="l{l}" bandwidth="{bw!r}Bps" latency="{lat!r}s"/>\n')
        for (src, dst), route in sorted(routes.items()):
            f.write(f'  <route src="h{src}" dst="h{dst}" symmetrical="NO">')
            f.write("".join(f'<link_ctn id="l{l}"/>' for l in route))
            f.write("</route>\n")
        f.write("</zone>\n</platform>\n")


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[2] not in ("maxmin", "cm02"):
        sys.exit(__doc__)
    main(*sys.argv[1:])

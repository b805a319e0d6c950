#!/usr/bin/env python3
"""A broadcast heuristic for tree networks, as a netsched external policy.

It broadcasts the message of a netsched instance on the tree network of
paper 004: a transfer from u to v follows the tree path, runs at the
narrowest bandwidth b on it and arrives sum(latencies) + size / b after
it starts. Greedily, it adds the transfer (from a node holding the whole
message to one that does not) that arrives first, starting when its
sender holds the message and every link of its path has the bandwidth b
to spare. A transfer reserves b on each link of its path from its start
to its arrival, which covers the platform's reservation of b on each link
(from the latencies before the link to the data's end there); the two
directions of a half-duplex edge share one capacity. Ties go to the lower
receiver, then sender, index. Standard library only.

One instance per line in, one schedule per line out (see list_sched.py):

    policies:
      - {exec: [python3, broadcast.py], label: greedy}
"""

import json
import sys
from collections import deque


def plan(inst):
    """Returns the schedule (a dict in netsched's schedule format)."""
    if "tree" not in inst["platform"] or "broadcast" not in inst["problem"]:
        raise ValueError("broadcast.py schedules broadcasts on tree platforms only")
    tree, bcast = inst["platform"]["tree"], inst["problem"]["broadcast"]
    names = [node["name"] for node in tree["nodes"]]
    index = {name: i for i, name in enumerate(names)}
    size = bcast["size"]

    # links[u] lists (v, channel, bandwidth, latency) for each link u -> v;
    # capacity[channel] is the bandwidth a channel has to share.
    links = [[] for _ in names]
    capacity = {}
    for k, e in enumerate(tree["edges"]):
        a, b = index[e["a"]], index[e["b"]]
        back = e.get("reverse") or e
        if e.get("duplex") == "half":
            fwd = rev = ("edge", k)
            capacity[fwd] = e["bandwidth"]
        else:
            fwd, rev = ("fwd", k), ("rev", k)
            capacity[fwd], capacity[rev] = e["bandwidth"], back["bandwidth"]
        links[a].append((b, fwd, e["bandwidth"], e["latency"]))
        links[b].append((a, rev, back["bandwidth"], back["latency"]))

    def path(u, v):
        """The links from u to v: (channel, bandwidth, latency) each."""
        came = {u: None}
        queue = deque([u])
        while queue:
            x = queue.popleft()
            for y, ch, bw, lat in links[x]:
                if y not in came:
                    came[y] = (x, ch, bw, lat)
                    queue.append(y)
        hops = []
        while v != u:
            x, ch, bw, lat = came[v]
            hops.append((ch, bw, lat))
            v = x
        return hops[::-1]

    booked = {}  # channel -> list of (start, end, rate) reserved on it

    def fits(ch, start, end, rate):
        """Whether ch has rate to spare throughout [start, end)."""
        bookings = booked.get(ch, [])
        for t in [start] + [b for b, _, _ in bookings if start < b < end]:
            used = sum(r for b, e, r in bookings if b <= t < e)
            if used + rate > capacity[ch] * (1 + 1e-9):
                return False
        return True

    def earliest(channels, at, duration, rate):
        """The earliest start >= at at which every channel has rate to spare
        for duration."""
        ends = {e for ch in channels for _, e, _ in booked.get(ch, []) if e > at}
        for s in sorted({at} | ends):
            if all(fits(ch, s, s + duration, rate) for ch in channels):
                return s
        raise AssertionError("every channel is free after its last booking")

    holds = {index[r]: 0.0 for r in bcast["roots"]}  # node -> when it holds the message
    delivered = {}  # node -> index of the transfer that brought the message
    pending = [v for v, node in enumerate(tree["nodes"]) if not node.get("relay") and v not in holds]
    routes = {}
    actions = []
    while pending:
        best = None
        for v in pending:
            for u in sorted(holds):
                if (u, v) not in routes:
                    hops = path(u, v)
                    rate = min(bw for _, bw, _ in hops)
                    routes[u, v] = ([ch for ch, _, _ in hops], rate,
                                    sum(lat for _, _, lat in hops) + size / rate)
                channels, rate, duration = routes[u, v]
                start = earliest(channels, holds[u], duration, rate)
                key = (start + duration, v, u)
                if best is None or key < best[0]:
                    best = (key, start, channels, rate)
        (arrival, v, u), start, channels, rate = best
        for ch in channels:
            booked.setdefault(ch, []).append((start, arrival, rate))
        action = {"kind": "transfer", "from": names[u], "to": names[v], "amount": size,
                  "start": start, "label": names[v]}
        if u in delivered:
            action["after"] = [delivered[u]]
        delivered[v] = len(actions)
        actions.append(action)
        holds[v] = arrival
        pending.remove(v)
    return {
        "policy": inst["policy"],
        "claimed_makespan": max(holds.values()),
        "actions": actions,
    }


def main():
    for line in sys.stdin:
        if line.strip():
            json.dump(plan(json.loads(line)), sys.stdout)
            sys.stdout.write("\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A list scheduler for task graphs, as a netsched external policy.

It schedules the task graph of a netsched instance on the delay platform
of paper 002 (identical processors, a delay rho between a task and its
successor when they run on different processors). Tasks are taken by
decreasing bottom level (the longest path to an exit, with rho on every
edge), each ready task placed where it starts earliest: on a processor
already in use, or on a new one while the platform (or the option
`processors`) has one left. Standard library only.

netsched writes one instance per line on standard input and reads one
schedule per line on standard output, so the same loop serves a policy run
once per instance and a persistent one (`persistent: true`):

    policies:
      - {exec: [python3, list_sched.py], label: list, options: {processors: 4}}
"""

import heapq
import json
import sys


def plan(inst):
    """Returns the schedule (a dict in netsched's schedule format)."""
    platform, problem = inst["platform"], inst["problem"]
    if "delay" not in platform or "dag" not in problem:
        raise ValueError("list_sched schedules task graphs on the delay platform only")
    rho = platform["delay"]["rho"]
    limit = platform["delay"].get("processors", 0)  # 0: as many as needed
    wanted = inst["options"].get("processors", 0)
    if wanted:
        limit = min(limit, wanted) if limit else wanted
    tasks, edges = problem["dag"]["tasks"], problem["dag"]["edges"]
    n = len(tasks)
    weight = [t["weight"] for t in tasks]
    preds = [[] for _ in range(n)]
    succs = [[] for _ in range(n)]
    for e in edges:
        preds[e["to"]].append(e["from"])
        succs[e["from"]].append(e["to"])

    order = topological(n, preds, succs)
    position = {v: k for k, v in enumerate(order)}
    blevel = [0.0] * n
    for v in reversed(order):
        blevel[v] = weight[v] + max((rho + blevel[s] for s in succs[v]), default=0.0)

    waiting = [len(preds[v]) for v in range(n)]
    ready = [(-blevel[v], position[v], v) for v in range(n) if waiting[v] == 0]
    heapq.heapify(ready)
    free = []  # when each processor in use is next free
    proc, end, action = [0] * n, [0.0] * n, [0] * n
    actions = []
    while ready:
        _, _, v = heapq.heappop(ready)
        best_start, best_proc = None, None
        for p, at in enumerate(free):
            start = max([at] + [end[u] + (0 if proc[u] == p else rho) for u in preds[v]])
            if best_start is None or start < best_start:
                best_start, best_proc = start, p
        if not limit or len(free) < limit:
            start = max([0.0] + [end[u] + rho for u in preds[v]])
            if best_start is None or start < best_start:
                best_start, best_proc = start, len(free)
                free.append(0.0)
        proc[v], end[v] = best_proc, best_start + weight[v]
        free[best_proc] = end[v]
        action[v] = len(actions)
        actions.append({
            "kind": "compute", "node": best_proc, "amount": weight[v],
            "start": best_start, "label": tasks[v]["name"],
            "after": [action[u] for u in preds[v]],
        })
        for s in succs[v]:
            waiting[s] -= 1
            if waiting[s] == 0:
                heapq.heappush(ready, (-blevel[s], position[s], s))
    return {
        "policy": inst["policy"],
        "claimed_makespan": max(end, default=0.0),
        "actions": actions,
        "metrics": {"processors": len(free)},
    }


def topological(n, preds, succs):
    """Kahn's order of the tasks; raises on a cycle."""
    waiting = [len(p) for p in preds]
    order = [v for v in range(n) if waiting[v] == 0]
    for v in order:
        for s in succs[v]:
            waiting[s] -= 1
            if waiting[s] == 0:
                order.append(s)
    if len(order) != n:
        raise ValueError("the task graph has a cycle")
    return order


def main():
    for line in sys.stdin:
        if line.strip():
            json.dump(plan(json.loads(line)), sys.stdout)
            sys.stdout.write("\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()

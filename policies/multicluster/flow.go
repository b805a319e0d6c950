package multicluster

import "math"

// flowNet is a max-flow network with real capacities (Dinic's algorithm),
// for placeTightBalanced.
type flowNet struct {
	head  []int
	to    []int
	next  []int
	cap   []float64
	level []int
	iter  []int
	eps   float64
}

func newFlowNet(nodes int, eps float64) *flowNet {
	f := &flowNet{head: make([]int, nodes), eps: eps}
	for k := range f.head {
		f.head[k] = -1
	}
	return f
}

// edge adds an arc u→v of capacity c and returns its index (its reverse is
// the index + 1).
func (f *flowNet) edge(u, v int, c float64) int {
	k := len(f.to)
	f.to = append(f.to, v, u)
	f.cap = append(f.cap, c, 0)
	f.next = append(f.next, f.head[u], f.head[v])
	f.head[u], f.head[v] = k, k+1
	return k
}

// flowOn is the flow on arc k.
func (f *flowNet) flowOn(k int) float64 { return f.cap[k+1] }

// maxFlow pushes as much as it can from s to t.
func (f *flowNet) maxFlow(s, t int) float64 {
	total := 0.0
	for f.bfs(s, t) {
		f.iter = append(f.iter[:0], f.head...)
		for {
			pushed := f.dfs(s, t, math.Inf(1))
			if pushed <= f.eps {
				break
			}
			total += pushed
		}
	}
	return total
}

func (f *flowNet) bfs(s, t int) bool {
	f.level = f.level[:0]
	for range f.head {
		f.level = append(f.level, -1)
	}
	f.level[s] = 0
	queue := []int{s}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for k := f.head[u]; k >= 0; k = f.next[k] {
			if v := f.to[k]; f.cap[k] > f.eps && f.level[v] < 0 {
				f.level[v] = f.level[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return f.level[t] >= 0
}

func (f *flowNet) dfs(u, t int, limit float64) float64 {
	if u == t {
		return limit
	}
	for ; f.iter[u] >= 0; f.iter[u] = f.next[f.iter[u]] {
		k := f.iter[u]
		v := f.to[k]
		if f.cap[k] <= f.eps || f.level[v] != f.level[u]+1 {
			continue
		}
		if d := f.dfs(v, t, min(limit, f.cap[k])); d > f.eps {
			f.cap[k] -= d
			f.cap[k^1] += d
			return d
		}
	}
	return 0
}

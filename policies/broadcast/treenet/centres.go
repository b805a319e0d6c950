package treenet

import "slices"

// Centres returns the one or two centres of the tree: the nodes left
// when leaves are stripped layer by layer.
func Centres(nw *Network) []int {
	deg := make([]int, nw.N)
	var layer []int
	for v := range nw.N {
		deg[v] = len(nw.Adj[v])
		if deg[v] <= 1 {
			layer = append(layer, v)
		}
	}
	left := nw.N
	for left > 2 {
		left -= len(layer)
		var next []int
		for _, v := range layer {
			for _, h := range nw.Adj[v] {
				if deg[h.To]--; deg[h.To] == 1 {
					next = append(next, h.To)
				}
			}
		}
		layer = next
	}
	slices.Sort(layer)
	return layer
}

package models

import "strconv"

// Unnamed nodes are "P<i>" and unnamed tasks "t<i>". Replays name every
// node they use and DAG policies label every task, at every sweep point,
// so the names of the first nodes and tasks are made once, here, and
// never change.
var (
	nodeNames = indexNames("P", 1024)
	taskNames = indexNames("t", 4096)
)

// indexNames returns prefix+"0" … prefix+strconv.Itoa(n-1), cut from one
// string.
func indexNames(prefix string, n int) []string {
	var all []byte
	ends := make([]int, n)
	for i := range n {
		all = strconv.AppendInt(append(all, prefix...), int64(i), 10)
		ends[i] = len(all)
	}
	s, names := string(all), make([]string, n)
	for i, start := 0, 0; i < n; i++ {
		names[i], start = s[start:ends[i]], ends[i]
	}
	return names
}

// indexName is names[i], or prefix+i past the table.
func indexName(names []string, prefix string, i int) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return prefix + strconv.Itoa(i)
}

// defaultNodeName is the name of an unnamed node i, "P<i>".
func defaultNodeName(i int) string { return indexName(nodeNames, "P", i) }

// Package doclinks holds only a test: every relative link in the
// repository's Markdown (README.md, docs/ and results/) must name a file or
// folder of the repository, and a link to a heading must name one that the
// target has, so that `go test ./...` catches a link broken by a rename or a
// move.
package doclinks

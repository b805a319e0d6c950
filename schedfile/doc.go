// Package schedfile reads schedule files: one JSON object holding a
// sim.Schedule, read strictly, whose nodes are written as indices or as
// the names a models.Platform gives them. Errors name the file, line,
// column and field.
package schedfile

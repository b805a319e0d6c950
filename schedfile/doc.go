// Package schedfile reads schedule files: one JSON object holding a
// sim.Schedule, read strictly, whose nodes are written as indices or as
// the names a models.Platform gives them. Errors name the file, line,
// column and field. A valid file is read in one pass by a scanner of the
// schedule grammar; a file the scanner does not accept is read again by
// walking encoding/json's tokens, which gives the exact error.
package schedfile

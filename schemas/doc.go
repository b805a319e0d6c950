// Package schemas holds the JSON Schemas (draft 2020-12) of the files
// netsched reads and writes, for tools written in any language;
// instance.schema.json is what an external policy reads on its standard
// input (package policies/external).
package schemas

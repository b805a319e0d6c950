// Package schemas holds the JSON Schemas (draft 2020-12) of the files
// netsched reads and writes, for tools written in any language:
//
//   - scenario.schema.json: a scenario file (YAML, read as the JSON value
//     it denotes), as package scenarios loads it;
//   - schedule.schema.json: a schedule file, as netsched run --out writes
//     it and netsched verify (package schedfile) reads it, and as an
//     external policy prints it;
//   - instance.schema.json: what an external policy reads on its standard
//     input (package policies/external), its platform and problem those
//     of the scenario schema.
//
// A schema checks each field's name, type and own range. What depends on
// other fields, on files or on the policy registry (names that must exist,
// acyclic graphs, registered policies and their options) is checked only
// by netsched itself. The tests keep the schemas equal to the Go types:
// every bundled scenario and every file netsched writes validates, every
// field of the Go types is in the schema and every property of the schema
// in the Go types, and files the loaders reject are rejected by the
// schemas too.
//
// The files are embedded (Files); Compile compiles one of them with
// github.com/santhosh-tekuri/jsonschema/v6 and YAMLValue turns a YAML
// document into the value a schema validates.
package schemas

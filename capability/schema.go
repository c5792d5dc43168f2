package capability

import (
	"bytes"
	_ "embed"
)

//go:embed schema.json
var schemaJSON []byte

// SchemaID is the $id of the JSON Schema returned by [JSONSchema].
const SchemaID = "urn:vera:schema:browser-capability/v1"

// JSONSchema returns the JSON Schema (draft 2020-12) of a
// browser-capability/v1 document, generated from the Go types and their
// validate tags (see schema.json; regenerate with
// `go test ./capability -run TestSchemaUpToDate -update`).
//
// The schema describes the document's shape: members, types, enums,
// patterns, lengths, bounds, required members and closed objects. It is a
// subset of the contract: cross-member rules (state-dependent provenance,
// origins of navigation targets, templates, locator order, the milestone
// graph, extraction shapes, credential-shaped literals) are enforced only by
// [Capability.Validate], which is authoritative. A document Validate
// accepts always satisfies the schema when written by [Capability.Marshal];
// the schema is slightly stricter than Parse in two ways: it rejects null
// for optional members and an explicit 0 for "use the default" numbers.
// The returned slice is a copy.
func JSONSchema() []byte { return bytes.Clone(schemaJSON) }

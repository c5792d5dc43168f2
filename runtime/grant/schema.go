package grant

import (
	"bytes"
	_ "embed"
)

//go:embed schema/grant.schema.json
var grantSchema []byte

// JSONSchema returns the JSON Schema (draft 2020-12) of the grant
// document, browser-grant/v1: its shape. [Parse] and [Grant.Validate]
// are authoritative for the rest (normalized, sorted origins; the
// network class of the origins; a clean executable path). The returned
// slice is a copy.
func JSONSchema() []byte { return bytes.Clone(grantSchema) }

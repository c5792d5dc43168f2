package receipt

import _ "embed"

//go:embed schema/capture.schema.json
var captureSchema []byte

// CaptureSchema returns the JSON Schema (draft 2020-12) of capture.json
// ([SchemaCapture]): its structure, member types and closed sets. The
// rules that relate members (digests against content, totals,
// eligibility, the links to the lock and the receipt) are
// [LoadCapture]'s and [VerifyRun]'s; a schema cannot state them.
func CaptureSchema() []byte { return append([]byte(nil), captureSchema...) }

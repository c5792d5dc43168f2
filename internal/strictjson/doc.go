// Package strictjson decodes Vera's JSON documents strictly, the one way
// every package reads them: what encoding/json accepts by default (member
// names matched case-insensitively, unknown members ignored, the last of
// duplicate members winning) is refused here.
//
// [Parse] checks the text ([canonjson.Transform]: one valid UTF-8 JSON
// value, no duplicate member at any depth, no trailing data) and decodes
// it generically; [Document.Member] reads a top-level member by its exact
// name (for a schema probe); [Document.Decode] walks the value along the
// Go type ([Check]) and only then decodes it into the type. [Decode] is
// the three in one. [Missing] reports absent required members for the
// formats that require every member.
//
// Invariants:
//
//   - A member name matches a struct field only when it equals the field's
//     JSON name byte for byte: "SCHEMA" and "Evidence_Hash" are unknown
//     members, never aliases of "schema" and "evidence_hash".
//   - Field names follow encoding/json: the name of the json tag, else the
//     Go name; "-" fields are not members; fields of embedded structs
//     without a tag name are promoted (the shallowest wins, a tagged one
//     wins a tie, an unresolved tie is no member at all).
//   - Every value has the JSON type its field declares: a string for a
//     string, an integer literal within range for an integer type, a
//     number for a float, a boolean, an array for a slice or array, an
//     object for a struct or map. null is accepted anywhere and leaves the
//     zero value, as in encoding/json.
//   - Types that decode themselves (json.Unmarshaler,
//     encoding.TextUnmarshaler, json.RawMessage) and interface values are
//     not walked: they own their form. Interface values decode with
//     UseNumber, so numbers keep their exact literal.
//   - Problems are *[Error] values with a [Kind], the JSON path and, when
//     known, the byte offset. A member name that is credential- or
//     identifier-shaped (internal/redact) is never echoed: the path stops
//     at its object and the message says the name is withheld.
//   - [Check] and [Missing] report in document order of the type walk
//     (object members by sorted name, array elements by index) and never
//     panic on any value produced by decoding JSON.
//
// Decisions:
//
//   - Size limits stay with the callers: each format has its own bound and
//     its own error for exceeding it.
//   - The typed decode reads the original bytes, not the canonical form,
//     so a number literal the type cannot hold (1e2 for an integer) stays
//     an error even though its canonical form (100) would fit.
package strictjson

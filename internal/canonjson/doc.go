// Package canonjson implements RFC 8785, the JSON Canonicalization Scheme
// (JCS), and the "sha256:<hex>" digests Vera puts on every document.
//
// Transform canonicalizes JSON text; Marshal encodes a Go value with
// encoding/json semantics and canonicalizes the result; Digest and
// DigestBytes hash canonical JSON; SumBytes hashes raw bytes (files);
// ParseDigest and ValidDigest check digest strings.
//
// Invariants:
//
//   - Output is exactly the RFC 8785 serialization: no whitespace; object
//     members sorted by the UTF-16 code units of their decoded names (so
//     U+10000 sorts before U+E000); strings re-serialized escaping only '"',
//     '\' and the controls below U+0020 (as \b \t \n \f \r, else \u00xx in
//     lowercase hex), everything else, U+2028, U+2029, '<', '>', '&' and DEL
//     included, as raw UTF-8; numbers printed by the ECMAScript
//     Number.prototype.toString algorithm (-0 prints as 0).
//   - Transform is idempotent: Transform(Transform(x)) == Transform(x), and
//     canonical input is returned byte for byte.
//   - Every accepted input is valid RFC 8259 JSON and parses with
//     encoding/json to a value equal to that of the output.
//   - Rejected, never repaired: grammar errors (leading zeros, NaN,
//     comments, trailing commas, single quotes, a byte-order mark, ...),
//     duplicate names at any depth compared after escape decoding
//     (ErrDuplicateKey), invalid UTF-8 including encoded surrogates
//     (ErrInvalidUTF8), unpaired surrogate escapes (ErrLoneSurrogate),
//     numbers that overflow float64 (ErrNonFinite), integer literals that
//     float64 cannot hold exactly (ErrUnsafeInteger), anything after the
//     top-level value other than JSON whitespace (ErrTrailingData), nesting
//     deeper than MaxDepth (ErrDepth).
//   - Input errors are *SyntaxError values with the byte offset of the
//     problem, wrapping the sentinel above when there is one.
//   - Cost is O(n + m log m) for n input bytes and m object members: one
//     parse, and at most one extra copy of the output when some object was
//     out of order, however deeply such objects nest. Already sorted objects
//     are checked in linear time and not sorted at all.
//   - No input can make the package panic, and input is never retained.
//
// Decisions where RFC 8785 is silent or leaves a choice:
//
//   - Numbers with a fraction or an exponent are rounded to the nearest
//     float64 as the RFC says (1.00000000000000001 becomes 1). Integer
//     literals (no fraction, no exponent) are held to a stricter rule: one
//     that float64 would change, such as 9007199254740993, is rejected with
//     ErrUnsafeInteger, so an ID or counter never silently changes value
//     under a hash. Accepted are integers float64 holds exactly
//     (9007199254740992, 18014398509481984, 1e21 written out) and integers
//     already spelled as the canonical form of their float64
//     (123456789012345680000, which is how ECMAScript prints that double),
//     since canonical output must itself be accepted. Underflow to zero
//     (1e-400) is rounding, not an error.
//   - Any JSON value may be the top-level value, as RFC 8259 allows.
//   - Marshal uses encoding/json, so it inherits that package's choices:
//     invalid UTF-8 in a Go string is replaced by U+FFFD rather than
//     rejected, nil slices and maps encode as null, and []byte as base64. It
//     applies the same number rules to the encoded text, so int64 and uint64
//     values beyond ±2^53 that float64 cannot hold give ErrUnsafeInteger,
//     those it can hold are printed in ECMAScript form (1<<60 becomes
//     1152921504606847000, as RFC 8785 requires), and NaN or infinite floats
//     give ErrNonFinite.
//   - Digests are "sha256:" and 64 lowercase hex digits; ParseDigest
//     accepts nothing else, not even uppercase hex, so each digest has one
//     spelling and digests compare as strings.
package canonjson

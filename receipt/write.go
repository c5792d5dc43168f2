package receipt

import (
	"errors"
	"fmt"

	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/internal/canonjson"
)

// ErrInvalidArgument is returned for a nil argument a function needs (a
// nil *OutputValue for [OutputHash]); it is never a panic.
var ErrInvalidArgument = errors.New("receipt: invalid argument")

// HashInput returns the documented hash of one input value: the sha256 of
// the RFC 8785 canonical JSON of
// {"capability":executionHash,"name":name,"value":value}. Binding the
// execution hash keeps hashes of the same value from matching across
// capabilities; two runs of one capability with one value always match. A
// low-entropy value can still be guessed from its hash by someone holding
// the receipt, which is why secret inputs are never hashed.
func HashInput(executionHash, name string, value any) (string, error) {
	return canonjson.Digest(map[string]any{"capability": executionHash, "name": name, "value": value})
}

// OutputHash returns the receipt hash of one output: for a download_set,
// [download.SetHash] of its files, the sha256 of the canonical JSON array
// of {"bytes","sha256"} in order (never the paths), which fails for a byte
// length outside [0, download.MaxSafeBytes] or a malformed digest; for
// every other kind, the sha256 of the canonical JSON of the value (null
// when not produced).
//
// A nil o is refused with [ErrInvalidArgument].
func OutputHash(o *OutputValue) (string, error) {
	if o == nil {
		return "", fmt.Errorf("%w: nil output value", ErrInvalidArgument)
	}
	if o.Kind == "download_set" {
		files := make([]download.File, len(o.Files))
		for i, f := range o.Files {
			files[i] = download.File{Size: f.Bytes, SHA256: f.SHA256}
		}
		return download.SetHash(files)
	}
	return canonjson.Digest(o.Value)
}

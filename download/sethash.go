package download

import (
	"fmt"

	"github.com/vera-run/vera/internal/canonjson"
)

// setEntry is one element of the download-set hash input. Field order is
// fixed (bytes, sha256), which is the RFC 8785 order for these two keys.
type setEntry struct {
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// SetHash returns the download-set output hash: "sha256:" + lowercase hex
// SHA-256 of the RFC 8785 canonical JSON array
//
//	[{"bytes":N,"sha256":"sha256:<hex>"}, ...]
//
// in the order of files. Only byte lengths and file hashes are covered;
// Path, Mechanism and Evidence are ignored, so runs that saved the same
// bytes to different local paths have equal set hashes. An empty or nil
// slice hashes "[]".
//
// Each Size must be in [0, MaxSafeBytes] (exact in canonical JSON) and each
// SHA256 must be "sha256:" followed by 64 lowercase hex digits; otherwise
// SetHash fails with [ReasonInvalidRequest]. The encoding is
// internal/canonjson (RFC 8785).
func SetHash(files []File) (string, error) {
	const op = "sethash"
	entries := make([]setEntry, 0, len(files))
	for i, f := range files {
		if f.Size < 0 || f.Size > MaxSafeBytes {
			return "", newError(ReasonInvalidRequest, op, fmt.Errorf("file %d: size %d out of range", i, f.Size))
		}
		if !canonjson.ValidDigest(f.SHA256) {
			return "", newError(ReasonInvalidRequest, op, fmt.Errorf("file %d: malformed sha256", i))
		}
		entries = append(entries, setEntry{Bytes: f.Size, SHA256: f.SHA256})
	}
	d, err := canonjson.Digest(entries)
	if err != nil {
		return "", newError(ReasonInvalidRequest, op, err)
	}
	return d, nil
}

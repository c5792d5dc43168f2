package bundle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/strictjson"
)

// The bundle layout.
const (
	// SchemaLock is the schema of bundle.lock.json.
	SchemaLock = "browser-capability-lock/v1"
	// AlgorithmSHA256 is the only lock algorithm: every file's SHA-256 over
	// its exact bytes, written "sha256:" and 64 lowercase hex digits.
	AlgorithmSHA256 = "sha256"
	// FileLock is the lock's name. The lock never lists itself.
	FileLock = "bundle.lock.json"
	// FileCapability is the capability document: the indented output of
	// [capability.Capability.Marshal].
	FileCapability = "capability.json"
	// FileReadme is the short generated README.
	FileReadme = "README.md"
	// DirReceipts holds the sanitized receipts of a validated_local claim,
	// each named "<64 lowercase hex of its SHA-256>.json" and holding
	// exactly the bytes of the run's run.receipt.json.
	DirReceipts = "receipts"
)

// Lock is a browser-capability-lock/v1 document. It is written as RFC 8785
// canonical JSON (so one lock has one byte form and one hash) and read
// back only in that form.
type Lock struct {
	// Schema is [SchemaLock].
	Schema string `json:"schema"`
	// Algorithm is [AlgorithmSHA256].
	Algorithm string `json:"algorithm"`
	// Capability names the sealed capability.
	Capability LockCapability `json:"capability"`
	// Files lists every file of the bundle except the lock itself, sorted
	// by path (byte order), each path once.
	Files []LockFile `json:"files"`
}

// LockCapability names the capability a lock seals. It must agree with
// capability.json.
type LockCapability struct {
	// ID is the capability's id.
	ID string `json:"id"`
	// Version is the capability's semantic version.
	Version string `json:"version"`
	// ExecutionHash is the capability's execution hash ("sha256:<hex>",
	// see capability.Capability.ExecutionHash).
	ExecutionHash string `json:"execution_hash"`
}

// LockFile is one file of a bundle.
type LockFile struct {
	// Path is slash-separated and relative to the bundle; it passes
	// [CheckPath].
	Path string `json:"path"`
	// Size is the file's length in bytes.
	Size int64 `json:"size"`
	// SHA256 is "sha256:" and the 64 lowercase hex digits of the SHA-256 of
	// the file's exact bytes.
	SHA256 string `json:"sha256"`
}

// Marshal returns the lock's canonical JSON bytes, as Seal writes them.
func (l *Lock) Marshal() ([]byte, error) { return canonjson.Marshal(l) }

// File returns the entry for path (none for a nil lock).
func (l *Lock) File(path string) (LockFile, bool) {
	if l == nil {
		return LockFile{}, false
	}
	for _, f := range l.Files {
		if f.Path == path {
			return f, true
		}
	}
	return LockFile{}, false
}

// ParseLock reads a lock strictly: at most [MaxLockBytes], one JSON value
// with no duplicate member and no trailing data, byte-exact RFC 8785
// canonical form, exactly the members of the format (names match exactly,
// case included) with the documented types, schema [SchemaLock], algorithm
// [AlgorithmSHA256], digests of the documented form, non-negative sizes,
// entries sorted by path without repetition, never the lock itself, every
// path passing [CheckPaths], and the limits [MaxFiles], [MaxFileBytes]
// and [MaxTotalBytes]. It returns the decoded lock (nil when the document
// cannot be decoded at all) and an error joining every problem, each a
// [FileProblem] wrapping [ErrLock], [ErrUnsafePath] or [ErrLimit].
func ParseLock(raw []byte) (*Lock, error) {
	l, ps := parseLock(raw)
	errs := make([]error, len(ps))
	for i, p := range ps {
		errs[i] = p
	}
	if len(errs) == 0 {
		return l, nil
	}
	return l, &VerifyError{Problems: errs}
}

// parseLock is ParseLock returning the problems.
func parseLock(raw []byte) (*Lock, []FileProblem) {
	var ps []FileProblem
	bad := func(sentinel error, format string, args ...any) {
		ps = append(ps, problem(FileLock, sentinel, format, args...))
	}
	if int64(len(raw)) > MaxLockBytes {
		bad(ErrLimit, "larger than MaxLockBytes (%d)", MaxLockBytes)
		return nil, ps
	}
	// internal/strictjson, the reader every Vera format shares: one valid
	// UTF-8 JSON value, no duplicate member, no trailing data; member names
	// below are matched exactly, case included.
	doc, err := strictjson.Parse(raw)
	if err != nil {
		bad(ErrLock, "not one valid JSON document: %s", strings.TrimPrefix(err.Error(), "canonjson: "))
		return nil, ps
	}
	top, ok := doc.Value().(map[string]any)
	if !ok {
		bad(ErrLock, "not a JSON object")
		return nil, ps
	}
	schema, _ := top["schema"].(string)
	if schema != SchemaLock {
		if _, present := top["schema"]; !present {
			bad(ErrLock, "no schema member")
		} else {
			bad(ErrLock, "unknown schema %s (want %s)", quoteShort(fmt.Sprint(top["schema"])), SchemaLock)
		}
		return nil, ps
	}
	if !bytes.Equal(doc.Canonical(), raw) {
		bad(ErrLock, "not byte-exact RFC 8785 canonical JSON")
	}
	// Every unknown member, value of the wrong JSON type and absent member,
	// at every depth, from the Go types: the format has no optional member.
	for _, e := range strictjson.Check(top, lockType) {
		bad(ErrLock, "%s", memberProblem(e))
	}
	for _, e := range strictjson.Missing(top, lockType) {
		bad(ErrLock, "missing member %s", e.Path)
	}
	l := &Lock{Schema: schema}
	l.Algorithm = str(top, "algorithm")
	if _, present := top["algorithm"]; present && l.Algorithm != AlgorithmSHA256 {
		bad(ErrLock, "unknown algorithm %s (want %s)", quoteShort(l.Algorithm), AlgorithmSHA256)
	}
	if c, ok := top["capability"].(map[string]any); ok {
		l.Capability.ID = str(c, "id")
		l.Capability.Version = str(c, "version")
		l.Capability.ExecutionHash = str(c, "execution_hash")
		if _, present := c["id"]; present && l.Capability.ID == "" {
			bad(ErrLock, "capability.id is empty")
		}
		if _, present := c["version"]; present && l.Capability.Version == "" {
			bad(ErrLock, "capability.version is empty")
		}
		if _, present := c["execution_hash"]; present && !canonjson.ValidDigest(l.Capability.ExecutionHash) {
			bad(ErrLock, "capability.execution_hash is not a sha256 digest")
		}
	}
	files, ok := top["files"].([]any)
	if !ok {
		return l, ps
	}
	l.Files = make([]LockFile, 0, min(len(files), MaxFiles+1))
	if len(files) > MaxFiles {
		bad(ErrLimit, "%d entries, more than MaxFiles (%d)", len(files), MaxFiles)
	}
	var total int64
	paths := make([]string, 0, len(files))
	for i, x := range files {
		where := "files[" + strconv.Itoa(i) + "]"
		obj, ok := x.(map[string]any)
		if !ok {
			continue // reported by strictjson.Check
		}
		var f LockFile
		f.Path = str(obj, "path")
		f.SHA256 = str(obj, "sha256")
		if _, present := obj["sha256"]; present && !canonjson.ValidDigest(f.SHA256) {
			bad(ErrLock, "%s.sha256 is not a sha256 digest", where)
		}
		if n, isNum := obj["size"].(json.Number); isNum {
			// A size that is not an integer is reported by strictjson.Check.
			if size, err := strconv.ParseInt(string(n), 10, 64); err == nil {
				if size < 0 {
					bad(ErrLock, "%s.size is negative", where)
				} else {
					f.Size = size
					if size > MaxFileBytes {
						ps = append(ps, problem(f.Path, ErrLimit, "declared size %d exceeds MaxFileBytes (%d)", size, MaxFileBytes))
					}
					total += size
				}
			}
		}
		if foldKey(f.Path) == foldKey(FileLock) {
			bad(ErrLock, "%s: the lock lists itself (%s)", where, quoteShort(f.Path))
		}
		if i > 0 && len(l.Files) > 0 {
			prev := l.Files[len(l.Files)-1].Path
			switch {
			case f.Path == prev:
				ps = append(ps, problem(f.Path, ErrLock, "duplicate lock entry"))
			case f.Path < prev:
				ps = append(ps, problem(f.Path, ErrLock, "lock entries are not sorted by path"))
			}
		}
		l.Files = append(l.Files, f)
		paths = append(paths, f.Path)
	}
	if total > MaxTotalBytes {
		bad(ErrLimit, "declared sizes total %d bytes, more than MaxTotalBytes (%d)", total, MaxTotalBytes)
	}
	for _, p := range paths {
		if reason := checkPath(p); reason != "" {
			ps = append(ps, problem(p, ErrUnsafePath, "%s", reason))
		}
	}
	for _, c := range pathConflicts(paths) {
		if strings.HasSuffix(c.reason, "listed twice") {
			continue // reported as a duplicate lock entry
		}
		ps = append(ps, problem(c.path, ErrUnsafePath, "%s", c.reason))
	}
	return l, ps
}

// lockType is the Go type the lock's members are checked against.
var lockType = reflect.TypeFor[Lock]()

// memberProblem renders a strictjson problem of the lock.
func memberProblem(e *strictjson.Error) string {
	if e.Kind == strictjson.KindUnknownMember && e.Path != "" {
		return e.Err.Error() + " at " + e.Path
	}
	return e.Error()
}

// str reads a string member; anything else reads as "" (strictjson.Check
// reports a present member of another type, strictjson.Missing an absent
// one).
func str(obj map[string]any, key string) string {
	s, _ := obj[key].(string)
	return s
}

// quoteShort quotes an untrusted string for a message, bounded.
func quoteShort(s string) string {
	if len(s) > 64 {
		return strconv.Quote(s[:64]) + "..."
	}
	return strconv.Quote(s)
}

func sortStrings(s []string) { slices.Sort(s) }

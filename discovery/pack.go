package discovery

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/problem"
	"github.com/vera-run/vera/internal/redact"
	"github.com/vera-run/vera/internal/safefs"
)

// Schemas and file names of a developer pack.
const (
	// PackLockSchema is the schema of pack.lock.json.
	PackLockSchema = "browser-developer-pack-lock/v1"
	// AlgorithmSHA256 is the only pack lock algorithm, as in the bundle
	// lock: every file's SHA-256 over its exact bytes, written "sha256:"
	// and 64 lowercase hex digits.
	AlgorithmSHA256 = "sha256"
	// TransferApprovalSchema is the schema of transfer.approval.json.
	TransferApprovalSchema = "browser-developer-pack-transfer-approval/v1"

	// EvidenceFile holds the browser-discovery-evidence/v1 document.
	EvidenceFile = "evidence.json"
	// RecordFile holds the reviewed browser-discovery/v2 record.
	RecordFile = "discovery.json"
	// DraftFile holds the non-executable draft capability.
	DraftFile = "draft.capability.json"
	// LockFile is the lock over the three documents, written as RFC 8785
	// canonical JSON like the run and bundle locks.
	LockFile = "pack.lock.json"
	// TransferApprovalFile records the transfer approval, outside the
	// lock: it names the lock's hash, so it cannot be inside it.
	TransferApprovalFile = "transfer.approval.json"

	// MaxLockBytes bounds pack.lock.json.
	MaxLockBytes = 64 << 10
	// MaxApprovalBytes bounds transfer.approval.json.
	MaxApprovalBytes = 16 << 10
	// maxPackEntries bounds how many directory entries VerifyPack lists.
	maxPackEntries = 64
)

// PackFiles returns the locked files of a pack, sorted.
func PackFiles() []string { return []string{RecordFile, DraftFile, EvidenceFile} }

// fileLimit is the size limit of each locked file.
func fileLimit(name string) int64 {
	switch name {
	case EvidenceFile:
		return MaxEvidenceBytes
	case RecordFile:
		return MaxRecordBytes
	case DraftFile:
		return capability.MaxDocumentBytes
	}
	return 0
}

// Pack problem codes (with the shared codes of [Problem]).
const (
	CodeMissingFile  Code = "missing_file"
	CodeUnlistedFile Code = "unlisted_file"
	CodeSymlink      Code = "symlink"
	CodeNotRegular   Code = "not_regular"
	CodeTooLarge     Code = "too_large"
	CodeHashMismatch Code = "hash_mismatch"
	CodeSizeMismatch Code = "size_mismatch"
	CodeLock         Code = "lock_invalid"
	CodeDocument     Code = "document_invalid"
	CodeNotDraft     Code = "not_a_draft"
	CodeUnreviewed   Code = "record_unreviewed"
	CodeApproval     Code = "transfer_approval_invalid"
)

// PackLock is pack.lock.json (browser-developer-pack-lock/v1). It is
// written as RFC 8785 canonical JSON (one lock, one byte form) and read
// back only in that form, like the bundle lock; the pack hash is the
// sha256 of its exact bytes.
type PackLock struct {
	Schema string `json:"schema"`
	// Algorithm is [AlgorithmSHA256].
	Algorithm string `json:"algorithm"`
	// Files lists the three documents, sorted by path, with their byte
	// size and the sha256 of their bytes.
	Files []LockedFile `json:"files"`
	// Documents names the document hashes that link them.
	Documents PackDocuments `json:"documents"`
}

// LockedFile is one file of the lock.
type LockedFile struct {
	// Path is the file name.
	Path string `json:"path"`
	// Size is the file's length in bytes, 0 included.
	Size int64 `json:"size"`
	// SHA256 is the sha256 of the file's exact bytes.
	SHA256 string `json:"sha256"`
}

// Marshal returns the lock's canonical JSON bytes, as SealPack writes
// them.
func (l *PackLock) Marshal() ([]byte, error) { return canonjson.Marshal(l) }

// PackDocuments are the document hashes of a pack: the evidence's
// ([Evidence.Hash]), the record's ([Record.Hash], review excluded) and the
// draft's (the RFC 8785 digest of draft.capability.json, state included).
// The record names the first in
// evidence_hash and the draft names the second in
// provenance.discovery_hash.
type PackDocuments struct {
	EvidenceHash string `json:"evidence_hash"`
	RecordHash   string `json:"record_hash"`
	DraftHash    string `json:"draft_hash"`
}

// ParsePackLock reads pack.lock.json strictly and checks its shape:
// byte-exact RFC 8785 canonical JSON, the schema, algorithm
// [AlgorithmSHA256], exactly the three pack files sorted by path with
// sizes from 0 to their limits and sha256 digests, and three document
// digests.
func ParsePackLock(raw []byte) (*PackLock, error) {
	var l PackLock
	if err := strictDecode(raw, PackLockSchema, MaxLockBytes, &l); err != nil {
		return nil, err
	}
	var ps problems
	if canon, err := canonjson.Transform(raw); err != nil || !bytes.Equal(canon, raw) {
		ps.add("", CodeFormat, "byte-exact RFC 8785 canonical JSON")
	}
	if l.Schema != PackLockSchema {
		ps.add("schema", CodeSchema, "want %q", PackLockSchema)
	}
	if l.Algorithm != AlgorithmSHA256 {
		ps.add("algorithm", CodeFormat, "want %q", AlgorithmSHA256)
	}
	names := PackFiles()
	if len(l.Files) != len(names) {
		ps.add("files", CodeRange, "exactly the files %s", strings.Join(names, ", "))
	}
	for i, f := range l.Files {
		p := fmt.Sprintf("files[%d]", i)
		if i < len(names) && f.Path != names[i] {
			ps.add(p+".path", CodeFormat, "files are %s, sorted by path", strings.Join(names, ", "))
		}
		if f.Size < 0 || f.Size > fileLimit(f.Path) {
			ps.add(p+".size", CodeRange, "a size from 0 to the file's limit")
		}
		if !canonjson.ValidDigest(f.SHA256) {
			ps.add(p+".sha256", CodeFormat, "sha256: and 64 lowercase hex digits")
		}
	}
	for name, d := range map[string]string{"documents.evidence_hash": l.Documents.EvidenceHash,
		"documents.record_hash": l.Documents.RecordHash, "documents.draft_hash": l.Documents.DraftHash} {
		if !canonjson.ValidDigest(d) {
			ps.add(name, CodeFormat, "sha256: and 64 lowercase hex digits")
		}
	}
	if err := ps.err(PackLockSchema); err != nil {
		return nil, err
	}
	return &l, nil
}

// TransferApproval records that an operator approved handing a sealed
// developer pack to a remote developer. It names the pack by its hash (the
// sha256 of the exact bytes of pack.lock.json, which are canonical JSON)
// and lives in transfer.approval.json,
// outside the lock. It is not capability-authoring approval
// (capability.Review.AuthoringApproved): neither implies the other.
type TransferApproval struct {
	Schema   string `json:"schema"`
	Approver string `json:"approver"`
	// ApprovedAt is an RFC 3339 timestamp.
	ApprovedAt string `json:"approved_at"`
	PackHash   string `json:"pack_hash"`
}

// Validate checks the approval's shape.
func (a *TransferApproval) Validate() error {
	var ps problems
	if a.Schema != TransferApprovalSchema {
		ps.add("schema", CodeSchema, "want %q", TransferApprovalSchema)
	}
	text(&ps, "approver", a.Approver, capability.MaxNameLen)
	if _, ok := parseTime(a.ApprovedAt); !ok {
		ps.add("approved_at", CodeFormat, "an RFC 3339 timestamp")
	}
	if !canonjson.ValidDigest(a.PackHash) {
		ps.add("pack_hash", CodeFormat, "sha256: and 64 lowercase hex digits")
	}
	if raw, err := marshalIndent(a); err == nil {
		scanContent(raw, &ps)
	}
	return ps.err(TransferApprovalSchema)
}

// LoadTransferApproval reads transfer.approval.json strictly and validates
// it.
func LoadTransferApproval(raw []byte) (*TransferApproval, error) {
	var a TransferApproval
	if err := strictDecode(raw, TransferApprovalSchema, MaxApprovalBytes, &a); err != nil {
		return nil, err
	}
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return &a, nil
}

// PackReport is the result of verifying a developer pack. It is filled as
// far as verification got, even when it fails.
type PackReport struct {
	Dir string `json:"dir"`
	// PackHash is the sha256 of the exact bytes of pack.lock.json (its
	// file digest; the lock is canonical JSON, so it is also the value
	// digest).
	PackHash string `json:"pack_hash,omitempty"`
	// Documents are the document hashes computed from the files.
	Documents PackDocuments `json:"documents"`
	Files     []PackFile    `json:"files"`
	// TransferApproval is the parsed transfer.approval.json, if present.
	TransferApproval *TransferApproval `json:"transfer_approval,omitempty"`
	// TransferApproved reports a valid approval naming this pack's hash.
	// It says nothing about capability-authoring approval.
	TransferApproved bool      `json:"transfer_approved"`
	Problems         []Problem `json:"problems"`
}

// PackFile is one locked file as verified.
type PackFile struct {
	Path     string `json:"path"`
	Size     int64  `json:"size"`
	SHA256   string `json:"sha256"`
	Verified bool   `json:"verified"`
}

// OK reports whether verification found no problem.
func (r *PackReport) OK() bool { return len(r.Problems) == 0 }

func (r *PackReport) add(path string, code Code, format string, args ...any) {
	r.Problems = append(r.Problems, Problem{Path: path, Code: code, Detail: fmt.Sprintf(format, args...)})
}

// PackError is returned when a pack does not seal or verify. It wraps
// [ErrPack]; the report holds every problem.
type PackError struct {
	Report *PackReport
}

// Error lists the first problems of the report.
func (e *PackError) Error() string {
	return problem.List("discovery: developer pack "+e.Report.Dir, e.Report.Problems, Problem.String, problem.MaxListed)
}

// Unwrap returns [ErrPack].
func (e *PackError) Unwrap() error { return ErrPack }

// PackOption configures [SealPack], [VerifyPack] and [ApproveTransfer].
type PackOption func(*packConfig)

type packConfig struct {
	logger *slog.Logger
}

// WithPackLogger injects the logger (nil discards). Only file names, sizes,
// hashes and problem codes are logged.
func WithPackLogger(l *slog.Logger) PackOption { return func(c *packConfig) { c.logger = l } }

func buildPackConfig(opts []PackOption) packConfig {
	var c packConfig
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.logger == nil {
		c.logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// SealPack validates the evidence, the reviewed record and the draft, and
// seals them into a new hash-linked developer pack at dst:
// evidence.json, discovery.json, draft.capability.json and pack.lock.json.
//
// It refuses (with a *[PackError] listing every problem) unless: each
// document is valid; the record is reviewed and checks against the
// evidence ([Record.CheckEvidence]); record.evidence_hash is the
// evidence's hash and draft.provenance.discovery_hash the record's; the
// draft passes [ValidateDraft] (a draft, no review, so no authoring
// approval); and no string of any document is secret-shaped
// (redact.ScanJSON) or holds an identifier-shaped substring
// (redact.ContainsIdentifier; digests, origins and timestamps exempt).
//
// dst must not exist. The pack is built in a sibling temporary directory
// (mode 0700, files 0600), verified with [VerifyPack], then renamed to dst;
// rename(2) can replace nothing but an empty directory created at dst in
// that instant. On failure the temporary directory is removed.
func SealPack(ctx context.Context, dst string, ev *Evidence, rec *Record, draft *capability.Capability, opts ...PackOption) (*PackReport, error) {
	cfg := buildPackConfig(opts)
	rep := &PackReport{Dir: dst, Files: []PackFile{}, Problems: []Problem{}}
	fail := func() (*PackReport, error) { return rep, &PackError{Report: rep} }
	if ctx == nil {
		return rep, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	if ev == nil || rec == nil || draft == nil {
		rep.add("", CodeRequired, "evidence, record and draft are required")
		return fail()
	}
	docs := map[string][]byte{}
	addValidation := func(file string, err error) {
		var ve *ValidationError
		var cl capability.ErrorList
		switch {
		case err == nil:
		case errors.As(err, &ve):
			for _, p := range ve.Problems {
				rep.Problems = append(rep.Problems, Problem{Path: file + ":" + p.Path, Code: p.Code, Detail: p.Detail})
			}
		case errors.As(err, &cl):
			for _, e := range cl {
				rep.add(file+":"+e.Path, CodeDocument, "%s [%s]", e.Message, e.Code)
			}
		default:
			rep.add(file, CodeDocument, "%v", err)
		}
	}
	addValidation(EvidenceFile, ev.Validate())
	addValidation(RecordFile, rec.Validate())
	addValidation(RecordFile, rec.CheckEvidence(ev))
	addValidation(DraftFile, ValidateDraft(draft))
	if rec.Review == nil {
		rep.add(RecordFile+":review", CodeUnreviewed, "the record is reviewed before it is sealed")
	}
	rh, err := rec.Hash()
	if err == nil && (draft.Provenance == nil || draft.Provenance.DiscoveryHash != rh) {
		rep.add(DraftFile+":provenance.discovery_hash", CodeLinkMismatch, "the draft does not name the record's hash")
	}
	marshalers := map[string]interface{ Marshal() ([]byte, error) }{EvidenceFile: ev, RecordFile: rec, DraftFile: draft}
	for _, name := range PackFiles() {
		b, err := marshalers[name].Marshal()
		if err != nil {
			rep.add(name, CodeDocument, "cannot encode: %v", err)
			continue
		}
		var ps problems
		scanContent(b, &ps)
		for _, p := range ps {
			rep.Problems = append(rep.Problems, Problem{Path: name + ":" + p.Path, Code: p.Code, Detail: p.Detail})
		}
		docs[name] = b
	}
	rep.Problems = dedupeProblems(rep.Problems)
	if len(rep.Problems) > 0 {
		return fail()
	}

	if _, err := os.Lstat(dst); err == nil {
		return rep, &fs.PathError{Op: "sealpack", Path: dst, Err: fs.ErrExist}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return rep, err
	}
	parent, base := filepath.Dir(dst), filepath.Base(dst)
	if st, err := os.Stat(parent); err != nil || !st.IsDir() {
		return rep, &fs.PathError{Op: "sealpack", Path: parent, Err: fs.ErrNotExist}
	}
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := filepath.Join(parent, "."+base+".tmp-"+hex.EncodeToString(rnd[:]))
	if err := safefs.MkdirExclusive(tmp); err != nil {
		return rep, err
	}
	published := false
	defer func() {
		if !published {
			_ = os.RemoveAll(tmp)
		}
	}()
	if err := writePack(tmp, docs); err != nil {
		return rep, err
	}
	vrep, err := VerifyPack(ctx, tmp, opts...)
	if err != nil {
		vrep.Dir = dst
		return vrep, err
	}
	if _, err := os.Lstat(dst); err == nil {
		return rep, &fs.PathError{Op: "sealpack", Path: dst, Err: fs.ErrExist}
	}
	if err := os.Rename(tmp, dst); err != nil {
		return rep, err
	}
	published = true
	if d, err := os.Open(parent); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	vrep.Dir = dst
	cfg.logger.Info("discovery: developer pack sealed", "pack_hash", vrep.PackHash)
	return vrep, nil
}

// writePack writes the documents and the lock into dir.
func writePack(dir string, docs map[string][]byte) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	lock := PackLock{Schema: PackLockSchema, Algorithm: AlgorithmSHA256}
	for _, name := range PackFiles() {
		b := docs[name]
		if err := safefs.WriteFileAtomic(root, name, b); err != nil {
			return err
		}
		lock.Files = append(lock.Files, LockedFile{Path: name, Size: int64(len(b)), SHA256: canonjson.SumBytes(b)})
	}
	var err1, err2, err3 error
	lock.Documents.EvidenceHash, err1 = canonjson.DigestBytes(docs[EvidenceFile])
	lock.Documents.RecordHash, err2 = RecordHashBytes(docs[RecordFile])
	lock.Documents.DraftHash, err3 = canonjson.DigestBytes(docs[DraftFile])
	if err := errors.Join(err1, err2, err3); err != nil {
		return err
	}
	lb, err := lock.Marshal()
	if err != nil {
		return err
	}
	if err := safefs.WriteFileAtomic(root, LockFile, lb); err != nil {
		return err
	}
	return safefs.FsyncDir(root, ".")
}

// VerifyPack checks a developer pack and returns a report filled as far as
// it got, with every problem. The pack verifies when: dir is a directory
// (not a symbolic link) holding only regular files; it holds exactly the
// locked files, pack.lock.json and optionally transfer.approval.json (no
// other file, no directory, no symbolic link); the lock parses
// ([ParsePackLock]); every locked file has its size and sha256; every
// document parses strictly and validates; the hash links hold (the lock's
// document hashes, record.evidence_hash, draft.provenance.discovery_hash)
// and the record checks against the evidence; the record is reviewed; the
// draft is a draft without review; and no document holds a secret- or
// identifier-shaped string. A present transfer approval must be valid and
// name the pack's hash; the report's TransferApproved says so. Modes are
// not checked: a pack copied elsewhere keeps its content, not its
// permissions. The error is a *[PackError] (or ctx's error).
func VerifyPack(ctx context.Context, dir string, opts ...PackOption) (*PackReport, error) {
	cfg := buildPackConfig(opts)
	rep := &PackReport{Dir: dir, Files: []PackFile{}, Problems: []Problem{}}
	if ctx == nil {
		return rep, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	done := func() (*PackReport, error) {
		rep.Problems = dedupeProblems(rep.Problems)
		if len(rep.Problems) > 0 {
			cfg.logger.Info("discovery: developer pack does not verify", "problems", len(rep.Problems))
			return rep, &PackError{Report: rep}
		}
		return rep, nil
	}
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	st, err := os.Lstat(dir)
	switch {
	case err != nil:
		rep.add("", CodeMissingFile, "the pack directory cannot be read: %v", cause(err))
		return done()
	case st.Mode()&fs.ModeSymlink != 0:
		rep.add("", CodeSymlink, "the pack directory is a symbolic link")
		return done()
	case !st.IsDir():
		rep.add("", CodeNotRegular, "the pack is not a directory")
		return done()
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		rep.add("", CodeMissingFile, "the pack directory cannot be opened")
		return done()
	}
	defer root.Close()

	present, ok := packEntries(root, rep)
	if !ok {
		return done()
	}

	// Lock.
	lockRaw, err := safefs.ReadFileLimited(root, LockFile, MaxLockBytes)
	if err != nil {
		rep.add(LockFile, fsCode(err), "the lock cannot be read: %v", cause(err))
		return done()
	}
	lock, err := ParsePackLock(lockRaw)
	if err != nil {
		rep.add(LockFile, CodeLock, "%v", err)
		return done()
	}
	rep.PackHash = canonjson.SumBytes(lockRaw)

	raws, err := verifyPackFiles(ctx, root, lock, present, rep)
	if err != nil {
		return rep, err
	}
	ev, rec, draft := loadPackDocuments(raws, rep)
	checkPackLinks(lock, ev, rec, draft, rep)
	if present[TransferApprovalFile] {
		checkTransferApproval(root, rep)
	}
	if len(dedupeProblems(rep.Problems)) > 0 {
		rep.TransferApproved = false
	}
	return done()
}

// packEntries lists the pack directory: every entry is a regular file the
// pack may hold. ok is false when the listing itself fails.
func packEntries(root *os.Root, rep *PackReport) (present map[string]bool, ok bool) {
	allowed := append(PackFiles(), LockFile, TransferApprovalFile)
	present = map[string]bool{}
	d, err := root.Open(".")
	if err != nil {
		rep.add("", CodeMissingFile, "the pack directory cannot be listed")
		return nil, false
	}
	entries, lerr := d.ReadDir(maxPackEntries + 1)
	_ = d.Close()
	if lerr != nil && len(entries) == 0 {
		rep.add("", CodeMissingFile, "the pack directory cannot be listed")
		return nil, false
	}
	if len(entries) > maxPackEntries {
		rep.add("", CodeUnlistedFile, "more than %d entries", maxPackEntries)
		return nil, false
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			rep.add(safeName(name), CodeSymlink, "symbolic links are not allowed in a pack")
		case e.IsDir():
			rep.add(safeName(name), CodeNotRegular, "directories are not allowed in a pack")
		case !e.Type().IsRegular():
			rep.add(safeName(name), CodeNotRegular, "only regular files are allowed in a pack")
		case !slices.Contains(allowed, name):
			rep.add(safeName(name), CodeUnlistedFile, "a file the lock does not list")
		default:
			present[name] = true
		}
	}
	return present, true
}

// verifyPackFiles checks every locked file's presence, size and hash and
// returns the bytes of those that verify. The error is ctx's.
func verifyPackFiles(ctx context.Context, root *os.Root, lock *PackLock, present map[string]bool, rep *PackReport) (map[string][]byte, error) {
	raws := map[string][]byte{}
	for _, lf := range lock.Files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pf := PackFile{Path: lf.Path, Size: lf.Size, SHA256: lf.SHA256}
		if !present[lf.Path] {
			rep.add(lf.Path, CodeMissingFile, "a locked file is missing")
			rep.Files = append(rep.Files, pf)
			continue
		}
		b, err := safefs.ReadFileLimited(root, lf.Path, lf.Size)
		switch {
		case errors.Is(err, safefs.ErrTooLarge):
			rep.add(lf.Path, CodeSizeMismatch, "the file is larger than locked")
		case err != nil:
			rep.add(lf.Path, fsCode(err), "the file cannot be read: %v", cause(err))
		case int64(len(b)) != lf.Size:
			rep.add(lf.Path, CodeSizeMismatch, "the file has %d bytes, the lock says %d", len(b), lf.Size)
		case canonjson.SumBytes(b) != lf.SHA256:
			rep.add(lf.Path, CodeHashMismatch, "the file's sha256 differs from the lock")
		default:
			pf.Verified = true
			raws[lf.Path] = b
		}
		rep.Files = append(rep.Files, pf)
	}
	return raws, nil
}

// loadPackDocuments reads and validates the evidence, record and draft
// among the verified files, recording their hashes and problems.
func loadPackDocuments(raws map[string][]byte, rep *PackReport) (ev *Evidence, rec *Record, draft *capability.Capability) {
	var err error
	addErr := rep.addDocumentError
	if b, ok := raws[EvidenceFile]; ok {
		ev, err = LoadEvidence(b)
		addErr(EvidenceFile, err)
		rep.Documents.EvidenceHash, _ = canonjson.DigestBytes(b)
	}
	if b, ok := raws[RecordFile]; ok {
		rec, err = LoadRecord(b)
		addErr(RecordFile, err)
		rep.Documents.RecordHash, _ = RecordHashBytes(b)
	}
	if b, ok := raws[DraftFile]; ok {
		draft, err = capability.ParseBytes(b)
		addErr(DraftFile, err)
		rep.Documents.DraftHash, _ = canonjson.DigestBytes(b)
		var ps problems
		scanContent(b, &ps)
		for _, p := range ps {
			rep.Problems = append(rep.Problems, Problem{Path: DraftFile + ":" + p.Path, Code: p.Code, Detail: p.Detail})
		}
		if draft != nil {
			var cl capability.ErrorList
			if err := ValidateDraft(draft); errors.As(err, &cl) {
				for _, e := range cl {
					code := CodeDocument
					if e.Path == "state" || e.Path == "provenance.review" {
						code = CodeNotDraft
					}
					rep.add(DraftFile+":"+e.Path, code, "%s [%s]", e.Message, e.Code)
				}
			}
		}
	}
	return ev, rec, draft
}

// checkPackLinks checks the hash links between the lock, the evidence,
// the record and the draft.
func checkPackLinks(lock *PackLock, ev *Evidence, rec *Record, draft *capability.Capability, rep *PackReport) {
	if rep.Documents.EvidenceHash != "" && rep.Documents.EvidenceHash != lock.Documents.EvidenceHash {
		rep.add(LockFile+":documents.evidence_hash", CodeLinkMismatch, "the evidence document has another hash")
	}
	if rep.Documents.RecordHash != "" && rep.Documents.RecordHash != lock.Documents.RecordHash {
		rep.add(LockFile+":documents.record_hash", CodeLinkMismatch, "the record document has another hash")
	}
	if rep.Documents.DraftHash != "" && rep.Documents.DraftHash != lock.Documents.DraftHash {
		rep.add(LockFile+":documents.draft_hash", CodeLinkMismatch, "the draft document has another hash")
	}
	if rec != nil {
		// A link is checked only against a document whose hash was
		// computed: a missing or unverified evidence file is reported
		// once, as what it is, never also as a record that names the
		// wrong hash.
		if rep.Documents.EvidenceHash != "" && rec.EvidenceHash != rep.Documents.EvidenceHash {
			rep.add(RecordFile+":evidence_hash", CodeLinkMismatch, "the record does not name the evidence's hash")
		}
		if rec.Review == nil {
			rep.add(RecordFile+":review", CodeUnreviewed, "the record in a pack is reviewed")
		}
		if ev != nil {
			rep.addDocumentError(RecordFile, rec.CheckEvidence(ev))
		}
	}
	if draft != nil && rep.Documents.RecordHash != "" && (draft.Provenance == nil || draft.Provenance.DiscoveryHash != rep.Documents.RecordHash) {
		rep.add(DraftFile+":provenance.discovery_hash", CodeLinkMismatch, "the draft does not name the record's hash")
	}
}

// addDocumentError records a document's load or validation error: each
// problem of a *ValidationError under the file's name, any other error as
// one document problem.
func (rep *PackReport) addDocumentError(file string, err error) {
	var ve *ValidationError
	switch {
	case err == nil:
	case errors.As(err, &ve):
		for _, p := range ve.Problems {
			rep.Problems = append(rep.Problems, Problem{Path: file + ":" + p.Path, Code: p.Code, Detail: p.Detail})
		}
	default:
		rep.add(file, CodeDocument, "%v", err)
	}
}

// checkTransferApproval reads the transfer approval and records whether
// it names this pack.
func checkTransferApproval(root *os.Root, rep *PackReport) {
	b, err := safefs.ReadFileLimited(root, TransferApprovalFile, MaxApprovalBytes)
	if err != nil {
		rep.add(TransferApprovalFile, fsCode(err), "the approval cannot be read: %v", cause(err))
		return
	}
	a, err := LoadTransferApproval(b)
	if err != nil {
		rep.add(TransferApprovalFile, CodeApproval, "%v", err)
		return
	}
	rep.TransferApproval = a
	if a.PackHash != rep.PackHash {
		rep.add(TransferApprovalFile+":pack_hash", CodeApproval, "the approval names another pack")
	} else {
		rep.TransferApproved = true
	}
}

// ApproveTransfer records the operator's approval to hand the pack at dir
// to a remote developer: it verifies the pack, then writes
// transfer.approval.json (never overwriting one) naming the pack's hash.
// It does not touch the locked documents, and it is not authoring
// approval: the draft stays a draft without review.
func ApproveTransfer(ctx context.Context, dir, approver string, at time.Time, opts ...PackOption) (*TransferApproval, error) {
	rep, err := VerifyPack(ctx, dir, opts...)
	if err != nil {
		return nil, err
	}
	if rep.TransferApproval != nil {
		return nil, &fs.PathError{Op: "approvetransfer", Path: TransferApprovalFile, Err: fs.ErrExist}
	}
	a := &TransferApproval{
		Schema:     TransferApprovalSchema,
		Approver:   approver,
		ApprovedAt: at.UTC().Format(time.RFC3339),
		PackHash:   rep.PackHash,
	}
	if err := a.Validate(); err != nil {
		return nil, err
	}
	b, err := marshalIndent(a)
	if err != nil {
		return nil, err
	}
	if err := safefs.WriteFile(dir, TransferApprovalFile, b); err != nil {
		return nil, err
	}
	return a, nil
}

// fsCode maps a safefs error to a problem code.
func fsCode(err error) Code {
	switch {
	case errors.Is(err, safefs.ErrSymlink):
		return CodeSymlink
	case errors.Is(err, safefs.ErrNotRegular):
		return CodeNotRegular
	case errors.Is(err, safefs.ErrTooLarge):
		return CodeTooLarge
	case errors.Is(err, fs.ErrNotExist):
		return CodeMissingFile
	}
	return CodeDocument
}

// safeName is a directory entry name fit for a report: names holding an
// identifier or secret are replaced.
func safeName(name string) string {
	if _, secret := redact.FindSecret(name); secret || redact.ContainsIdentifier(name) {
		return Marker
	}
	return name
}

// cause is the error under a *fs.PathError (so no path is echoed).
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func dedupeProblems(ps []Problem) []Problem {
	out := ps[:0]
	seen := map[Problem]bool{}
	for _, p := range ps {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

package runwrite

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"

	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/runrule"
	"github.com/vera-run/vera/internal/safefs"
	"github.com/vera-run/vera/receipt"
)

// Run is everything one execution leaves behind. Only the runtime builds
// one.
type Run struct {
	Receipt *receipt.Receipt
	Outputs *receipt.Outputs
	// Proposals is nil unless recovery was attempted.
	Proposals *receipt.Proposals
	// Capture is nil unless the run had a capture policy; with one the
	// lock is browser-run-lock/v3.
	Capture *receipt.Capture
}

// Option configures [WriteRun] and [ReserveRunDir].
type Option func(*config)

type config struct {
	allowGit bool
	name     string
}

// WithRunDirName makes [ReserveRunDir] name the run directory exactly name,
// a run id (the runtime's are "run_" and 32 lowercase hex digits; any
// valid run_id that is not all dots is accepted), instead of a fresh
// "run-…" name; a directory of that name that already exists is a
// refusal (check reserve), never reused. [WriteRun] names the directory
// after the receipt's run_id this way, and the runtime after its run id,
// so a run folder's name is always its run id.
func WithRunDirName(name string) Option { return func(c *config) { c.name = name } }

// WithAllowGitWorkTree lets [WriteRun] create the run directory inside a Git
// work tree. By default it refuses, so run outputs are never committed by
// accident.
func WithAllowGitWorkTree() Option { return func(c *config) { c.allowGit = true } }

// ErrWrite is wrapped by every failure to write a run.
var ErrWrite = errors.New("receipt: write run")

// WriteRun reserves a fresh owner-only directory (0700) under parent with
// [ReserveRunDir] (all its checks apply; a refusal wraps both [ErrWrite]
// and receipt.ErrRunDir) and writes the run's documents into it as RFC 8785
// canonical JSON, each atomically (temporary file, fsync, rename, files
// 0600), in this order: outputs.json, recovery.proposals.json (only when
// present), capture.json (only when present), run.receipt.json, and last
// run.lock.json (v1, v2 when proposals are present, v3 when a capture is)
// hashing the others. The lock is the commit
// marker: a directory without it is an incomplete run, which
// receipt.VerifyRun reports as such. It returns the directory and the receipt's hash.
//
// A caller that must refuse before doing anything else (the runtime,
// before its first browser call) uses [ReserveRunDir] first and
// [WriteReserved] at the end instead.
func WriteRun(parent string, run *Run, opts ...Option) (dir, receiptHash string, err error) {
	if err := prepareRun(run); err != nil {
		return "", "", err
	}
	dir, err = ReserveRunDir(parent, append([]Option{WithRunDirName(run.Receipt.RunID)}, opts...)...)
	if err != nil {
		return "", "", fmt.Errorf("%w: %w", ErrWrite, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return dir, "", fmt.Errorf("%w: %w", ErrWrite, err)
	}
	defer root.Close()
	h, err := writeFiles(root, run)
	return dir, h, err
}

// prepareRun checks the run and fills its defaults (schemas, run id).
func prepareRun(run *Run) error {
	if run == nil || run.Receipt == nil || run.Outputs == nil {
		return fmt.Errorf("%w: receipt and outputs are required", ErrWrite)
	}
	if run.Receipt.Schema == "" {
		run.Receipt.Schema = receipt.SchemaReceipt
	}
	if run.Outputs.Schema == "" {
		run.Outputs.Schema = receipt.SchemaOutputs
	}
	if run.Receipt.RunID == "" {
		run.Receipt.RunID = NewRunID()
	}
	run.Outputs.RunID = run.Receipt.RunID
	if run.Proposals != nil {
		if run.Proposals.Schema == "" {
			run.Proposals.Schema = receipt.SchemaProposals
		}
		run.Proposals.RunID = run.Receipt.RunID
	}
	if run.Capture != nil {
		run.Capture.Schema = receipt.SchemaCapture
		run.Capture.RunID = run.Receipt.RunID
	}
	return nil
}

// writeFiles writes the run's files into root in commit order and returns
// the receipt's hash.
func writeFiles(root *os.Root, run *Run) (string, error) {
	put := func(name string, v any) (string, error) {
		b, err := canonjson.Marshal(v)
		if err != nil {
			return "", fmt.Errorf("%w: encode %s: %w", ErrWrite, name, err)
		}
		if testHookPut != nil {
			if err := testHookPut(root, name, b); err != nil {
				return "", fmt.Errorf("%w: %s: %w", ErrWrite, name, err)
			}
		}
		if err := safefs.WriteFileAtomic(root, name, b); err != nil {
			return "", fmt.Errorf("%w: %s: %w", ErrWrite, name, err)
		}
		return canonjson.SumBytes(b), nil
	}
	var err error
	lock := receipt.Lock{Schema: receipt.SchemaLockV1, Algorithm: "sha256", RunID: run.Receipt.RunID}
	if lock.Outputs, err = put(receipt.FileOutputs, run.Outputs); err != nil {
		return "", err
	}
	if run.Proposals != nil {
		lock.Schema = receipt.SchemaLockV2
		if lock.RecoveryProposals, err = put(receipt.FileProposals, run.Proposals); err != nil {
			return "", err
		}
	}
	if run.Capture != nil {
		lock.Schema = receipt.SchemaLockV3
		if lock.Capture, err = put(receipt.FileCapture, run.Capture); err != nil {
			return "", err
		}
	}
	if lock.Receipt, err = put(receipt.FileReceipt, run.Receipt); err != nil {
		return "", err
	}
	if _, err = put(receipt.FileLock, &lock); err != nil {
		return "", err
	}
	return lock.Receipt, nil
}

// testHookPut, set only by tests ([SetPutHook]), runs before each file
// is written; an error aborts WriteRun there, as a crash would. The hook
// may itself leave the traces of a crash inside the write (a temporary
// file) through root.
var testHookPut func(root *os.Root, name string, data []byte) error

// SetPutHook installs a hook that runs before WriteRun writes each file and
// returns a function restoring the previous one. An error from the hook
// aborts the write there, as a crash would. It is for the crash-safety
// tests of package receipt only.
func SetPutHook(h func(root *os.Root, name string, data []byte) error) (restore func()) {
	prev := testHookPut
	testHookPut = h
	return func() { testHookPut = prev }
}

// NewRunID returns a fresh random run id: "run_" and 16 bytes of hex.
func NewRunID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return "run_" + hex.EncodeToString(b[:])
}

// OutputCount is the receipt count of one output: the number of files of
// a download set, of records of a record set, and 1 or 0 for a produced or
// missing text or record.
//
// A nil o counts 0.
func OutputCount(o *receipt.OutputValue) int {
	if o == nil {
		return 0
	}
	return runrule.OutputCount(o.Kind, o.Produced, o.Value, len(o.Files))
}

// DetailHash is the sha256 of a local failure detail, the only trace of a
// raw error a receipt may hold.
func DetailHash(detail string) string {
	return canonjson.SumBytes([]byte(detail))
}

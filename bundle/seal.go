package bundle

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/safefs"
	"github.com/vera-run/vera/receipt"
)

// Seal writes a new bundle at dst and returns its lock.
//
// The bundle holds capability.json (the capability's indented
// [capability.Capability.Marshal] bytes), a short generated README.md, the
// receipts a validated_local claim needs (receipts/<hex of the receipt
// hash>.json, exactly the run.receipt.json bytes of the run directories
// whose hashes c.Validation.Receipts names; never outputs.json, run locks
// or recovery proposals) and bundle.lock.json, written last, listing every
// other file with its size and SHA-256.
//
// Seal refuses, before writing anything:
//
//   - a dst that exists in any form (the error wraps [fs.ErrExist]);
//   - a nil or invalid capability, or one in state scaffold or draft
//     ([ErrCapability]);
//   - a run directory that fails receipt.VerifyRun against c, a
//     validated_local capability whose named receipts are not all among
//     runDirs or that receipt.CheckClaim rejects, and run directories given
//     for a discovered capability, which carries no receipts ([ErrClaim]).
//     Run directories whose receipts the validation does not name are
//     verified and otherwise ignored.
//
// The bundle is built in a new owner-only sibling directory of dst
// (".<base>.sealing-*": directories 0700, files 0600, each written
// atomically and fsynced), verified there with [Verify] (so content the
// bundle rules forbid, such as a secret-shaped string, is refused with the
// rules' own errors), then renamed to dst without replacing anything that
// appeared there meanwhile (renameat2 RENAME_NOREPLACE on Linux). A crash
// leaves at most the sibling directory, never a partial bundle at dst; on
// any error the sibling is removed. Errors wrap [ErrSeal] and the cause; a
// nil ctx wraps [ErrInvalidArgument] and touches nothing.
func Seal(ctx context.Context, dst string, c *capability.Capability, runDirs []string, opts ...Option) (*Lock, error) {
	cfg := newConfig(opts)
	if ctx == nil {
		return nil, fmt.Errorf("%w: %w: nil context", ErrSeal, ErrInvalidArgument)
	}
	lock, err := seal(ctx, cfg, dst, c, runDirs)
	if err != nil {
		cfg.logger.Warn("bundle: seal refused", "dst", dst, "err", err)
		return nil, fmt.Errorf("%w: %w", ErrSeal, err)
	}
	cfg.logger.Debug("bundle: sealed", "dst", dst, "files", len(lock.Files))
	return lock, nil
}

func seal(ctx context.Context, cfg *config, dst string, c *capability.Capability, runDirs []string) (*Lock, error) {
	if dst == "" {
		// Misuse, not a file error: say what is wrong, keep fs.ErrInvalid
		// matchable for callers that tested it.
		return nil, fmt.Errorf("%w: empty destination: name the new bundle directory to create (%w)", ErrInvalidArgument, fs.ErrInvalid)
	}
	if err := destinationFree(dst); err != nil {
		return nil, err
	}
	if c == nil {
		return nil, fmt.Errorf("%w: no capability", ErrCapability)
	}
	if errs := c.Validate(); len(errs) > 0 {
		return nil, fmt.Errorf("%w: %w", ErrCapability, errs)
	}
	switch c.State {
	case capability.StateAuthored, capability.StateDiscovered, capability.StateValidatedLocal:
	default:
		return nil, fmt.Errorf("%w: a %s capability never travels; seal an authored, discovered or validated_local one", ErrCapability, c.State)
	}
	execHash, err := c.ExecutionHash()
	if err != nil {
		return nil, fmt.Errorf("%w: execution hash: %w", ErrCapability, err)
	}
	capBytes, err := c.Marshal()
	if err != nil {
		return nil, fmt.Errorf("%w: encode: %w", ErrCapability, err)
	}
	if int64(len(capBytes)) > MaxCapabilityBytes {
		return nil, fmt.Errorf("%w: %s is %d bytes, more than %d", ErrLimit, FileCapability, len(capBytes), MaxCapabilityBytes)
	}

	receipts, err := claimReceipts(ctx, cfg, c, runDirs)
	if err != nil {
		return nil, err
	}
	readme := renderReadme(c, execHash)
	if int64(len(readme)) > MaxReadmeBytes {
		return nil, fmt.Errorf("%w: generated %s is %d bytes, more than %d", ErrLimit, FileReadme, len(readme), MaxReadmeBytes)
	}

	files := map[string][]byte{FileCapability: capBytes, FileReadme: readme}
	for h, raw := range receipts {
		files[ReceiptPath(h)] = raw
	}
	lock := &Lock{Schema: SchemaLock, Algorithm: AlgorithmSHA256,
		Capability: LockCapability{ID: c.ID, Version: c.Version, ExecutionHash: execHash}}
	for _, p := range sortedKeys(files) {
		lock.Files = append(lock.Files, LockFile{Path: p, Size: int64(len(files[p])), SHA256: canonjson.SumBytes(files[p])})
	}
	lockBytes, err := lock.Marshal()
	if err != nil {
		return nil, fmt.Errorf("encode lock: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := writeBundle(ctx, cfg, dst, files, lockBytes); err != nil {
		return nil, err
	}
	return lock, nil
}

// destinationFree fails with an error wrapping fs.ErrExist when dst exists
// in any form (a dangling symbolic link included).
func destinationFree(dst string) error {
	_, err := os.Lstat(dst)
	switch {
	case err == nil:
		return &fs.PathError{Op: "seal", Path: dst, Err: fs.ErrExist}
	case errors.Is(err, fs.ErrNotExist):
		return nil
	}
	return err
}

// claimReceipts verifies every run directory against c and returns the
// receipts to include, by digest.
func claimReceipts(ctx context.Context, cfg *config, c *capability.Capability, runDirs []string) (map[string][]byte, error) {
	if c.State != capability.StateValidatedLocal {
		if len(runDirs) > 0 {
			return nil, fmt.Errorf("%w: a %s capability claims no runs and carries no receipts; seal it without run directories", ErrClaim, c.State)
		}
		return nil, nil
	}
	byHash := map[string][]byte{}
	for _, dir := range runDirs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rep, err := receipt.VerifyRun(ctx, dir, c)
		if err != nil {
			return nil, fmt.Errorf("%w: run %s: %w", ErrClaim, dir, err)
		}
		rf, err := receipt.Load(ctx, dir)
		if err != nil {
			return nil, fmt.Errorf("%w: run %s: %w", ErrClaim, dir, err)
		}
		raw := rf.Raw[receipt.FileReceipt]
		h := canonjson.SumBytes(raw)
		if h != rep.ReceiptHash {
			return nil, fmt.Errorf("%w: run %s: the receipt changed while sealing", ErrClaim, dir)
		}
		if !slices.Contains(c.Validation.Receipts, h) {
			cfg.logger.Debug("bundle: run not named by the validation; ignored", "run", dir, "receipt", h)
			continue
		}
		byHash[h] = bytes.Clone(raw)
	}
	for _, h := range c.Validation.Receipts {
		if _, ok := byHash[h]; !ok {
			return nil, fmt.Errorf("%w: receipt %s named by the validation is in none of the %d run directories given", ErrClaim, h, len(runDirs))
		}
	}
	if err := receipt.CheckClaim(ctx, c, byHash, cfg.claimOpts...); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrClaim, err)
	}
	return byHash, nil
}

// writeBundle builds the bundle in a sibling temporary directory, verifies
// it and renames it to dst.
func writeBundle(ctx context.Context, cfg *config, dst string, files map[string][]byte, lockBytes []byte) (err error) {
	parent, base := filepath.Split(filepath.Clean(dst))
	if parent == "" {
		parent = "."
	}
	tmp, err := safefs.NewRunDir(parent, "."+base+".sealing-", safefs.AllowGitWorkTree())
	if err != nil {
		return err
	}
	committed := false
	defer func() {
		if !committed {
			_ = os.RemoveAll(tmp)
		}
	}()
	root, err := os.OpenRoot(tmp)
	if err != nil {
		return err
	}
	defer root.Close()
	madeReceipts := false
	for _, p := range sortedKeys(files) {
		if dir := parentOf(p); dir != "" && !madeReceipts {
			if err := root.Mkdir(dir, 0o700); err != nil {
				return err
			}
			if err := root.Chmod(dir, 0o700); err != nil {
				return err
			}
			madeReceipts = true
		}
		if err := safefs.WriteFileAtomic(root, p, files[p]); err != nil {
			return err
		}
	}
	if madeReceipts {
		if err := safefs.FsyncDir(root, DirReceipts); err != nil {
			return err
		}
	}
	// The lock last: it is the bundle's commit marker.
	if err := safefs.WriteFileAtomic(root, FileLock, lockBytes); err != nil {
		return err
	}
	if err := root.Chmod(".", 0o700); err != nil {
		return err
	}
	if err := sealHook(stepWritten); err != nil {
		return err
	}
	vcfg := &config{logger: cfg.logger, claimOpts: cfg.claimOpts}
	if _, err := verify(ctx, tmp, vcfg); err != nil {
		return err
	}
	if err := renameNoReplace(tmp, dst); err != nil {
		return err
	}
	committed = true
	if d, err := os.Open(parent); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// sealStep names a point in writeBundle for the crash tests.
type sealStep int

const stepWritten sealStep = iota

// sealHook is called at the named steps; tests set it to simulate a crash.
var sealHook = func(sealStep) error { return nil }

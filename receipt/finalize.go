package receipt

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/vera-run/vera/capability"
)

// Finalize promotes a discovered or authored (hand-written, reviewed)
// capability to validated_local from exactly two run directories, and
// returns a new capability; c is never modified. The provenance is kept as
// it is: a hand_authored capability stays hand_authored once validated.
//
// Each run must pass [VerifyRun] against c (its canonical receipt beside
// its verified outputs.json and run.lock.json, every cross-hash, input,
// output, origin and sequence check) and the receipt-only checks: the
// execution mode live_connected_chrome (live_launched_browser only under
// [WithAllowLaunchedBrowser]; simulated and unverified never count), c's id,
// version, execution hash and discovery hash, terminal completed, clean,
// not recovered (no recovery proposals at all), not handed off, no locator
// change. The two runs must be different runs (directory, receipt hash and
// run id) and match in execution mode, terminal, outputs (for download
// sets the byte-length and SHA-256 evidence, never the local paths) and
// declared environment.
//
// The result has state validated_local and validation metadata: both
// receipt digests sorted, the execution mode, finalized_at from the clock
// ([WithClock]) in UTC and the claim [ClaimText]. Its execution hash equals
// c's, since state and validation are excluded from it.
//
// On failure the error is [FinalizeErrors], matching [ErrFinalize], with
// one *[FinalizeError] per failed check naming the run directory and the
// check ([CheckMode], [CheckEnvironment], ...); a failed [CheckVerify]
// wraps the run's *[VerifyError].
//
// ctx is checked before each run directory is verified (and within, per
// file; see [VerifyRun]): once it is done, Finalize returns an error
// wrapping [ErrFinalize] and ctx.Err(). A nil ctx is refused with
// [ErrInvalidArgument] (and [ErrFinalize]).
func Finalize(ctx context.Context, c *capability.Capability, runDirs []string, opts ...FinalizeOption) (*capability.Capability, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: %w: nil context", ErrFinalize, ErrInvalidArgument)
	}
	pol := newPolicy(opts)
	var ck checker
	if c == nil {
		ck.fail("", CheckCapability, "no capability")
		return nil, ck.errs
	}
	facts, err := factsOf(c)
	if err != nil {
		ck.fail("", CheckCapability, "cannot compute the execution hash: %v", err)
		return nil, ck.errs
	}
	if err := validateCapability(c); err != nil {
		ck.wrap("", CheckCapability, err)
	}
	if c.State != capability.StateDiscovered && c.State != capability.StateAuthored {
		ck.fail("", CheckState, "state is %s; only a discovered or authored capability is promoted", short(string(c.State)))
	}
	if len(runDirs) != 2 {
		ck.fail("", CheckRuns, "%d run directories given; validation needs exactly two", len(runDirs))
	}

	type run struct {
		dir  string
		r    *Receipt
		hash string
	}
	var runs []run
	for _, dir := range runDirs {
		rf, rep, err := verifyRun(ctx, dir, c)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrFinalize, err)
		}
		if err := rep.Err(); err != nil {
			ck.wrap(dir, CheckVerify, err)
		}
		if rf.Lock != nil && rf.Lock.Schema == SchemaLockV2 || rf.Proposals != nil {
			ck.fail(dir, CheckRecovered, "the run attempted a recovery (recovery proposals); it never counts")
		}
		if rf.Receipt == nil {
			continue
		}
		ck.checkPassed(dir, rf.Receipt, facts, pol)
		runs = append(runs, run{dir, rf.Receipt, rf.Hashes[FileReceipt]})
	}
	receipts := make([]*Receipt, len(runs))
	for i := range runs {
		receipts[i] = runs[i].r
	}
	ck.checkCandidates(c, receipts, pol) // decoy.go
	if len(runDirs) == 2 && len(runs) == 2 {
		a, b := runs[0], runs[1]
		if sameDir(a.dir, b.dir) {
			ck.fail(b.dir, CheckUnique, "the same directory as run %s", a.dir)
		}
		ck.checkPair(a.dir, b.dir, a.r, b.r, a.hash, b.hash)
	}
	if len(ck.errs) > 0 {
		return nil, ck.errs
	}

	out, err := c.Clone()
	if err != nil {
		ck.fail("", CheckCapability, "cannot copy the capability: %v", err)
		return nil, ck.errs
	}
	digests := []string{runs[0].hash, runs[1].hash}
	slices.Sort(digests)
	out.State = capability.StateValidatedLocal
	out.Validation = &capability.Validation{
		Receipts:      digests,
		ExecutionMode: string(runs[0].r.ExecutionMode),
		FinalizedAt:   pol.now().UTC().Format(time.RFC3339),
		Claim:         ClaimText,
	}
	if h, err := out.ExecutionHash(); err != nil || h != facts.execHash {
		ck.fail("", CheckCapability, "promotion changed the execution hash")
		return nil, ck.errs
	}
	return out, nil
}

// sameDir reports whether two run directory names denote the same
// directory (lexically or on disk).
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == bb {
		return true
	}
	ea, err1 := filepath.EvalSymlinks(a)
	eb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ea == eb
}

// validateCapability reports the capability's contract problems.
func validateCapability(c *capability.Capability) error {
	if l := c.Validate(); len(l) > 0 {
		return fmt.Errorf("the capability is invalid: %w", l)
	}
	return nil
}

package receipt

import (
	"context"
	"errors"
	"fmt"
	"github.com/vera-run/vera/internal/timestamp"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
)

// ClaimText is the limit of the evidence, written into every validation
// claim: [Finalize] proves that two local runs' artifacts are consistent,
// nothing more.
const ClaimText = "artifact consistency of two local runs; not an attestation of a person, machine or website"

// ErrFinalize is matched by every error [Finalize] returns and by every
// *[FinalizeError].
var ErrFinalize = errors.New("receipt: finalize refused")

// ErrClaim is matched by every error [CheckClaim] returns.
var ErrClaim = errors.New("receipt: validation claim not supported")

// Check names one check of [Finalize] and [CheckClaim] ([FinalizeError.Check]).
type Check string

// The checks of [Finalize] and [CheckClaim], named in [FinalizeError.Check].
const (
	// CheckCapability: the capability is missing, invalid or cannot be
	// hashed.
	CheckCapability Check = "capability"
	// CheckState: Finalize needs a discovered or authored capability;
	// CheckClaim a validated_local one.
	CheckState Check = "state"
	// CheckRuns: not exactly two runs (run directories or claimed
	// receipts).
	CheckRuns Check = "runs"
	// CheckVerify: the run directory does not pass [VerifyRun], or (in
	// [CheckClaim]) a claimed receipt fails the run-level checks of
	// VerifyRun that need the receipt alone; Err wraps its *VerifyError.
	CheckVerify Check = "verify"
	// CheckReceipt: a receipt does not load ([LoadReceipt]); Err wraps its
	// *VerifyError.
	CheckReceipt Check = "receipt"
	// CheckClaimed: the validation metadata is malformed or names other
	// receipts than those supplied.
	CheckClaimed Check = "claim"
	// CheckReceiptHash: a receipt's bytes do not hash to the name it is
	// claimed under.
	CheckReceiptHash Check = "receipt_hash"
	// CheckUnique: both runs are the same run (same directory, receipt hash
	// or run id).
	CheckUnique Check = "unique"
	// CheckMode: the execution mode is not live_connected_chrome (or
	// live_launched_browser under [WithAllowLaunchedBrowser]), differs between
	// the runs or from the claim. simulated and unverified (omitted) never
	// count.
	CheckMode Check = "execution_mode"
	// CheckCapabilityID: the receipt names another capability id.
	CheckCapabilityID Check = "capability_id"
	// CheckExecutionHash: the receipt's execution hash is not the
	// capability's.
	CheckExecutionHash Check = "execution_hash"
	// CheckDiscoveryHash: the receipt's discovery hash is not the
	// capability's (or differs between the runs).
	CheckDiscoveryHash Check = "discovery_hash"
	// CheckVersion: the receipt's capability version is not the
	// capability's.
	CheckVersion Check = "version"
	// CheckTerminal: the run did not complete, or the terminals differ.
	CheckTerminal Check = "terminal"
	// CheckClean: the receipt does not declare a clean run.
	CheckClean Check = "clean"
	// CheckRecovered: the run used a recovery proposal.
	CheckRecovered Check = "recovered"
	// CheckHandedOff: a person took over the page during the run.
	CheckHandedOff Check = "handed_off"
	// CheckLocatorChanges: a locator changed during the run.
	CheckLocatorChanges Check = "locator_changes"
	// CheckOutputs: the runs' outputs (names, kinds, exposures, counts and
	// hashes; for download sets the byte-length and SHA-256 evidence)
	// differ.
	CheckOutputs Check = "outputs"
	// CheckEnvironment: the runs' declared environments differ.
	CheckEnvironment Check = "environment"
	// CheckDecoyCandidate: an action's locator candidate matched several
	// elements every time it was tried in the counted runs and never won:
	// a decoy that satisfies the semantic-first rule without ever
	// identifying the target (see [FinalizeReport]).
	CheckDecoyCandidate Check = "decoy_candidate"
)

// FinalizeError is one failed check: which run (its directory for
// [Finalize], its receipt digest for [CheckClaim]; empty for checks of the
// capability itself), which check ([CheckMode], ...) and why. It matches
// [ErrFinalize] with errors.Is and unwraps to Err.
type FinalizeError struct {
	Run   string
	Check Check
	Err   error
}

// Error implements error.
func (e *FinalizeError) Error() string {
	if e.Run == "" {
		return fmt.Sprintf("receipt: finalize: %s: %v", e.Check, e.Err)
	}
	return fmt.Sprintf("receipt: finalize: run %s: %s: %v", e.Run, e.Check, e.Err)
}

// Unwrap returns the cause.
func (e *FinalizeError) Unwrap() error { return e.Err }

// Is matches [ErrFinalize].
func (e *FinalizeError) Is(target error) bool { return target == ErrFinalize }

// FinalizeErrors is every failed check, in order: the error [Finalize]
// returns.
type FinalizeErrors []*FinalizeError

// Error implements error, one check per line.
func (l FinalizeErrors) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "receipt: finalize refused: %d failed check(s)", len(l))
	for _, e := range l {
		b.WriteString("\n  ")
		b.WriteString(strings.ReplaceAll(strings.TrimPrefix(e.Error(), "receipt: finalize: "), "\n", "\n    "))
	}
	return b.String()
}

// Is matches [ErrFinalize].
func (l FinalizeErrors) Is(target error) bool { return target == ErrFinalize }

// Unwrap returns the individual errors.
func (l FinalizeErrors) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// Has reports whether some error is of the given check, for any run ("")
// or the named run.
func (l FinalizeErrors) Has(run string, check Check) bool {
	for _, e := range l {
		if e.Check == check && (run == "" || e.Run == run) {
			return true
		}
	}
	return false
}

// Checks returns the distinct checks that failed, in order of first
// failure.
func (l FinalizeErrors) Checks() []Check {
	var out []Check
	for _, e := range l {
		if !slices.Contains(out, e.Check) {
			out = append(out, e.Check)
		}
	}
	return out
}

// ClaimError is the error [CheckClaim] returns: every failed check. It
// matches [ErrClaim] (and, through its checks, [ErrFinalize]).
type ClaimError struct {
	Problems FinalizeErrors
}

// Error implements error.
func (e *ClaimError) Error() string {
	return "receipt: validation claim not supported: " + strings.TrimPrefix(e.Problems.Error(), "receipt: finalize refused: ")
}

// Is matches [ErrClaim].
func (e *ClaimError) Is(target error) bool { return target == ErrClaim }

// Unwrap returns the failed checks.
func (e *ClaimError) Unwrap() []error { return e.Problems.Unwrap() }

// FinalizeOption sets the policy of [Finalize] and [CheckClaim].
type FinalizeOption func(*policy)

type policy struct {
	allowLaunched bool
	now           func() time.Time
	report        *FinalizeReport // decoy.go
}

func newPolicy(opts []FinalizeOption) policy {
	p := policy{now: time.Now}
	for _, o := range opts {
		if o != nil {
			o(&p)
		}
	}
	return p
}

// WithAllowLaunchedBrowser lets runs in a provider-launched browser
// (live_launched_browser) count, as an explicit policy: by default only
// runs in the operator's connected Chrome (live_connected_chrome) do. Both
// runs must still share one mode.
func WithAllowLaunchedBrowser() FinalizeOption { return func(p *policy) { p.allowLaunched = true } }

// WithClock sets the clock [Finalize] takes validation.finalized_at from
// (default time.Now); for tests. A nil clock is ignored.
func WithClock(now func() time.Time) FinalizeOption {
	return func(p *policy) {
		if now != nil {
			p.now = now
		}
	}
}

// checker accumulates failed checks.
type checker struct{ errs FinalizeErrors }

func (c *checker) fail(run string, check Check, format string, args ...any) {
	c.errs = append(c.errs, &FinalizeError{Run: run, Check: check, Err: fmt.Errorf(format, args...)})
}

func (c *checker) wrap(run string, check Check, err error) {
	c.errs = append(c.errs, &FinalizeError{Run: run, Check: check, Err: err})
}

// capFacts are what a receipt must pin of the capability.
type capFacts struct {
	id, version, execHash, discoveryHash string
}

func factsOf(c *capability.Capability) (capFacts, error) {
	h, err := c.ExecutionHash()
	if err != nil {
		return capFacts{}, err
	}
	f := capFacts{id: c.ID, version: c.Version, execHash: h}
	if c.Provenance != nil {
		f.discoveryHash = c.Provenance.DiscoveryHash
	}
	return f, nil
}

// modeAllowed reports whether a receipt's mode may count under pol.
func (pol policy) modeAllowed(m ExecutionMode) error {
	switch m {
	case ModeLiveConnected:
		return nil
	case ModeLiveLaunched:
		if pol.allowLaunched {
			return nil
		}
		return errors.New("execution mode live_launched_browser counts only under the WithAllowLaunchedBrowser policy")
	case "", ModeUnverified:
		return errors.New("execution mode omitted: the run is unverified and never counts")
	case ModeSimulated:
		return errors.New("execution mode simulated never counts")
	}
	return fmt.Errorf("execution mode %s is not a live mode", short(string(m)))
}

// checkPassed applies the receipt-only checks one receipt must pass to
// count toward validation.
func (c *checker) checkPassed(run string, r *Receipt, f capFacts, pol policy) {
	if err := pol.modeAllowed(r.ExecutionMode); err != nil {
		c.wrap(run, CheckMode, err)
	}
	if r.Capability.ID != f.id {
		c.fail(run, CheckCapabilityID, "receipt names capability %s, not %s", short(r.Capability.ID), f.id)
	}
	if r.Capability.ExecutionHash != f.execHash {
		c.fail(run, CheckExecutionHash, "receipt pins execution hash %s, the capability's is %s", short(r.Capability.ExecutionHash), f.execHash)
	}
	if r.Capability.DiscoveryHash != f.discoveryHash {
		c.fail(run, CheckDiscoveryHash, "receipt pins discovery hash %s, the capability's is %s", short(r.Capability.DiscoveryHash), short(f.discoveryHash))
	}
	if r.Capability.Version != f.version {
		c.fail(run, CheckVersion, "receipt pins version %s, the capability is %s", short(r.Capability.Version), f.version)
	}
	if r.Terminal.State != TerminalCompleted || r.Terminal.Failure != nil || r.Terminal.Outcome != "" {
		c.fail(run, CheckTerminal, "terminal state is %s, not completed", short(string(r.Terminal.State)))
	}
	recovered := r.Recovered
	for _, a := range r.Actions {
		recovered = recovered || a.Recovered
	}
	if recovered {
		c.fail(run, CheckRecovered, "the run used a recovery proposal; a recovered run never counts")
	}
	if r.HandedOff {
		c.fail(run, CheckHandedOff, "a person took over the page during the run")
	}
	if r.LocatorChangesDuringRun {
		c.fail(run, CheckLocatorChanges, "a locator changed during the run")
	}
	if !r.Clean {
		c.fail(run, CheckClean, "the receipt does not declare a clean run")
	}
}

// checkPair applies the checks between the two receipts.
func (c *checker) checkPair(runA, runB string, a, b *Receipt, hashA, hashB string) {
	if hashA == hashB {
		c.fail(runB, CheckUnique, "the same receipt as run %s (%s)", runA, hashA)
	} else if a.RunID == b.RunID {
		c.fail(runB, CheckUnique, "the same run id as run %s", runA)
	}
	if modeOf(a) != modeOf(b) {
		c.fail(runB, CheckMode, "execution mode %s differs from run %s's %s", modeOf(b), runA, modeOf(a))
	}
	if a.Capability.DiscoveryHash != b.Capability.DiscoveryHash {
		c.fail(runB, CheckDiscoveryHash, "discovery hash differs from run %s's", runA)
	}
	if a.Capability.Version != b.Capability.Version {
		c.fail(runB, CheckVersion, "version differs from run %s's", runA)
	}
	if a.Capability.ExecutionHash != b.Capability.ExecutionHash {
		c.fail(runB, CheckExecutionHash, "execution hash differs from run %s's", runA)
	}
	if !reflect.DeepEqual(a.Terminal, b.Terminal) {
		c.fail(runB, CheckTerminal, "terminal differs from run %s's", runA)
	}
	if msg := outputsDiffer(a.Outputs, b.Outputs); msg != "" {
		c.fail(runB, CheckOutputs, "%s (compared with run %s)", msg, runA)
	}
	if a.Environment != b.Environment {
		c.fail(runB, CheckEnvironment, "declared environment differs from run %s's in %s", runA, envDiff(a.Environment, b.Environment))
	}
}

// modeOf is the receipt's mode, omitted read as unverified.
func modeOf(r *Receipt) ExecutionMode {
	if r.ExecutionMode == "" {
		return ModeUnverified
	}
	return r.ExecutionMode
}

func outputsDiffer(a, b []OutputRecord) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d outputs against %d", len(b), len(a))
	}
	for i := range a {
		x, y := a[i], b[i]
		switch {
		case x.Name != y.Name:
			return fmt.Sprintf("output %d is %s, not %s", i, short(y.Name), short(x.Name))
		case x.Kind != y.Kind || x.Exposure != y.Exposure:
			return fmt.Sprintf("output %s has another kind or exposure", short(x.Name))
		case x.Count != y.Count:
			return fmt.Sprintf("output %s has %d items, not %d", short(x.Name), y.Count, x.Count)
		case x.Hash != y.Hash:
			if x.Kind == string(capability.OutputDownloadSet) {
				return fmt.Sprintf("output %s has other download evidence (byte lengths and SHA-256)", short(x.Name))
			}
			return fmt.Sprintf("output %s has another hash", short(x.Name))
		}
	}
	return ""
}

func envDiff(a, b Environment) string {
	var fs []string
	if a.Browser != b.Browser {
		fs = append(fs, "browser")
	}
	if a.ProtocolVersion != b.ProtocolVersion {
		fs = append(fs, "protocol_version")
	}
	if a.Library != b.Library {
		fs = append(fs, "library")
	}
	if a.GoVersion != b.GoVersion {
		fs = append(fs, "go_version")
	}
	if a.OS != b.OS {
		fs = append(fs, "os")
	}
	if a.Arch != b.Arch {
		fs = append(fs, "arch")
	}
	return strings.Join(fs, ", ")
}

// CheckClaim checks a validated_local claim with the receipts alone, as a
// bundle verifier must (outputs.json and run locks never travel). receipts
// maps a receipt digest ("sha256:<hex>" of the file's exact bytes, as in
// validation.receipts) to the exact bytes of run.receipt.json.
//
// It requires: a validated_local capability whose validation names exactly
// two distinct receipts, sorted, with a live execution mode and the claim
// text [ClaimText]; exactly those two receipts supplied, each hashing to
// its name and loading strictly ([LoadReceipt]: canonical, schema-valid,
// consistent); and each passing the receipt-only checks of [Finalize]: the
// claimed live mode (live_launched_browser only under
// [WithAllowLaunchedBrowser]), the capability's id, version, execution hash and
// discovery hash, completed, clean, not recovered, not handed off, no
// locator change; the run-level checks of [VerifyRun] that need the
// receipt alone (inputs, output records, declaration order, origins in
// site.allowed_origins, the recorded sequence, download evidence, extract
// record counts; check [CheckVerify], wrapping a *[VerifyError]); the two
// differing in run id and matching in terminal, outputs and environment. Errors are a *[ClaimError] (matching [ErrClaim])
// listing every failed check.
//
// ctx is checked before each receipt is loaded and checked: once it is
// done, CheckClaim returns an error wrapping [ErrClaim] and ctx.Err(). A
// nil ctx is refused with [ErrInvalidArgument] (and [ErrClaim]).
func CheckClaim(ctx context.Context, c *capability.Capability, receipts map[string][]byte, opts ...FinalizeOption) error {
	if ctx == nil {
		return fmt.Errorf("%w: %w: nil context", ErrClaim, ErrInvalidArgument)
	}
	pol := newPolicy(opts)
	var ck checker
	if c == nil {
		ck.fail("", CheckCapability, "no capability")
		return &ClaimError{Problems: ck.errs}
	}
	facts, err := factsOf(c)
	if err != nil {
		ck.fail("", CheckCapability, "cannot compute the execution hash: %v", err)
		return &ClaimError{Problems: ck.errs}
	}
	if c.State != capability.StateValidatedLocal {
		ck.fail("", CheckState, "state is %s, not validated_local", short(string(c.State)))
	}
	v := c.Validation
	if v == nil {
		ck.fail("", CheckClaimed, "no validation metadata")
		return &ClaimError{Problems: ck.errs}
	}
	if len(v.Receipts) != 2 {
		ck.fail("", CheckRuns, "validation names %d receipts, not 2", len(v.Receipts))
	} else if v.Receipts[0] == v.Receipts[1] {
		ck.fail("", CheckUnique, "validation names the same receipt twice")
	} else if v.Receipts[0] > v.Receipts[1] {
		ck.fail("", CheckClaimed, "validation receipts are not sorted")
	}
	claimed := ExecutionMode(v.ExecutionMode)
	if err := pol.modeAllowed(claimed); err != nil {
		ck.wrap("", CheckMode, fmt.Errorf("claimed %w", err))
	}
	if v.Claim != ClaimText {
		ck.fail("", CheckClaimed, "the claim text is not %q", ClaimText)
	}
	if !timestamp.Valid(v.FinalizedAt) {
		ck.fail("", CheckClaimed, "finalized_at is not an RFC 3339 timestamp")
	}
	for name := range receipts {
		if !slices.Contains(v.Receipts, name) {
			ck.fail(name, CheckClaimed, "receipt supplied but not named by the validation")
		}
	}
	type loaded struct {
		name string
		r    *Receipt
	}
	var got []loaded
	for i, name := range v.Receipts {
		if i > 0 && name == v.Receipts[i-1] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%w: %w", ErrClaim, err)
		}
		raw, ok := receipts[name]
		if !ok {
			ck.fail(name, CheckClaimed, "receipt named by the validation is not supplied")
			continue
		}
		if !canonjson.ValidDigest(name) {
			ck.fail(name, CheckReceiptHash, "receipt name is not a sha256 digest")
			continue
		}
		if h := canonjson.SumBytes(raw); h != name {
			ck.fail(name, CheckReceiptHash, "receipt bytes hash to %s", h)
			continue
		}
		r, err := LoadReceipt(raw)
		if err != nil {
			ck.wrap(name, CheckReceipt, err)
			continue
		}
		ck.checkPassed(name, r, facts, pol)
		// The run-level checks of VerifyRun that need the receipt alone
		// (10.2 step 7): a bundled receipt is evidence of a run of this
		// capability, so its origins, inputs, outputs and sequence must
		// be the capability's.
		var ps problems
		checkReceiptRun(r, c, &ps)
		if len(ps) > 0 {
			ck.wrap(name, CheckVerify, &VerifyError{Problems: ps})
		}
		if modeOf(r) != claimed {
			ck.fail(name, CheckMode, "receipt mode %s is not the claimed %s", modeOf(r), short(string(claimed)))
		}
		got = append(got, loaded{name, r})
	}
	if len(got) == 2 {
		ck.checkPair(got[0].name, got[1].name, got[0].r, got[1].r, got[0].name, got[1].name)
	}
	if len(ck.errs) > 0 {
		return &ClaimError{Problems: ck.errs}
	}
	return nil
}

package bundle_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
)

// The fixtures below build valid bundles through the real path: a
// capability validated by package capability, two run directories written
// by the runtime's writer (internal/runwrite), promoted by receipt.Finalize, sealed by Seal. The
// receipts are hand-built with execution_mode live_connected_chrome: only
// the runtime writes receipts in production, and a fake-driver run is
// simulated and can never finalize, so a test of the bundle logic has to
// construct them. Nothing in package bundle can tell the difference, which
// is the point: it verifies artifact consistency, not a physical run.

const (
	testOrigin    = "https://teller.example"
	discoveryHash = "sha256:1111111111111111111111111111111111111111111111111111111111111111"
)

func role(r, name string) locator.Candidate {
	return locator.Candidate{Strategy: locator.Role, Role: r, Name: name}
}

// testCapability is a small discovered capability: type a member query,
// read the balance text.
func testCapability() *capability.Capability {
	return &capability.Capability{
		Schema:  capability.SchemaV1,
		ID:      "teller.read-balance",
		Version: "1.0.0",
		Name:    "Read a member's balance",
		Goal:    "Search a member by name and read the balance shown on the member page.",
		State:   capability.StateDiscovered,
		Provenance: &capability.Provenance{
			DiscoveryHash:  discoveryHash,
			DiscoveryModel: "test-model",
			DiscoveryRunID: "discovery-1",
			DiscoveryMode:  "guided",
			Review: &capability.Review{Reviewer: "operator", ReviewedAt: "2026-01-02T03:04:05Z",
				RecordHash: discoveryHash, AuthoringApproved: true},
		},
		Site:      capability.Site{Name: "Teller", AllowedOrigins: []string{testOrigin}},
		Runtime:   capability.Runtime{Start: "/members"},
		Authority: capability.Authority{MaxEffect: capability.EffectReadOnly, OperatorAuthenticates: true},
		Privacy:   capability.Privacy{DataClasses: []string{"member_balances"}},
		Inputs: []capability.Input{
			{Name: "query", Type: capability.InputString, Required: true, Description: "Member name to search for"},
		},
		Outputs: []capability.Output{
			{Name: "balance", Kind: capability.OutputText, Exposure: capability.ExposureModelSummary, Required: true,
				Description: "The balance as shown"},
		},
		Milestones: []capability.Milestone{{
			ID: "read", Intent: "Find the member and read the balance",
			Actions: []capability.Action{
				{ID: "fill-query", Operation: capability.OpFill, Intent: "Type the member name", Effect: capability.EffectReadOnly,
					Confirmation: capability.ConfirmNone, Input: "query",
					LocatorCandidates: []locator.Candidate{role("searchbox", "Member"), {Strategy: locator.Label, Label: "Member"}},
					Postcondition: &capability.Condition{Kind: capability.CondLocatorVisible,
						LocatorCandidates: []locator.Candidate{role("region", "Balance")}}},
				{ID: "read-balance", Operation: capability.OpExtract, Intent: "Read the balance", Effect: capability.EffectReadOnly,
					Confirmation: capability.ConfirmNone, Output: "balance",
					LocatorCandidates: []locator.Candidate{role("region", "Balance")},
					Extract:           &capability.Extraction{Mode: capability.ExtractText},
					Postcondition:     &capability.Condition{Kind: capability.CondOutputProduced, Output: "balance"}},
			},
		}},
	}
}

func execHash(t testing.TB, c *capability.Capability) string {
	t.Helper()
	h, err := c.ExecutionHash()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func intp(i int) *int { return &i }

// cleanRun is the evidence of one clean live connected run of c.
func cleanRun(t testing.TB, c *capability.Capability, mutate func(*runwrite.Run)) *runwrite.Run {
	t.Helper()
	eh := execHash(t, c)
	qh, err := receipt.HashInput(eh, "query", "Rossi")
	if err != nil {
		t.Fatal(err)
	}
	out := receipt.OutputValue{Name: "balance", Kind: "text", Exposure: "model_summary", Produced: true, Value: "1,204.10 EUR"}
	oh, err := receipt.OutputHash(&out)
	if err != nil {
		t.Fatal(err)
	}
	run := &runwrite.Run{
		Receipt: &receipt.Receipt{
			RunID:         runwrite.NewRunID(),
			Capability:    receipt.CapabilityRef{ID: c.ID, Version: c.Version, ExecutionHash: eh, DiscoveryHash: discoveryHash},
			ExecutionMode: receipt.ModeLiveConnected,
			StartedAt:     "2026-03-01T10:00:00Z",
			FinishedAt:    "2026-03-01T10:00:01.5Z",
			DurationMS:    1500,
			Inputs:        []receipt.InputRecord{{Name: "query", Present: true, Hash: qh}},
			Milestones:    []receipt.MilestoneRecord{{ID: "read", Visit: 1, Status: "completed", Next: "completed"}},
			Actions: []receipt.ActionRecord{
				{ID: "fill-query", Milestone: "read", Visit: 1, Operation: "fill", Effect: "read_only",
					Status: receipt.ActionPassed, LocatorIndex: intp(0), Postcondition: "verified", DurationMS: 20},
				{ID: "read-balance", Milestone: "read", Visit: 1, Operation: "extract", Effect: "read_only",
					Status: receipt.ActionPassed, LocatorIndex: intp(0), Postcondition: "verified", DurationMS: 15},
			},
			Outputs:     []receipt.OutputRecord{{Name: "balance", Kind: "text", Exposure: "model_summary", Count: 1, Hash: oh}},
			Terminal:    receipt.Terminal{State: receipt.TerminalCompleted},
			Environment: receipt.Environment{Browser: "Chrome/156.0.8078.73", ProtocolVersion: "1.3", Library: "vera/v0.1.0", GoVersion: "go1.26.8", OS: "linux", Arch: "amd64"},
			Origins:     []string{testOrigin},
			Clean:       true,
		},
		Outputs: &receipt.Outputs{Outputs: []receipt.OutputValue{out}},
	}
	if mutate != nil {
		mutate(run)
	}
	return run
}

func writeRun(t testing.TB, parent string, run *runwrite.Run) string {
	t.Helper()
	dir, _, err := runwrite.WriteRun(parent, run)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// fixture is a validated capability, its two run directories and a sealed
// bundle.
type fixture struct {
	discovered *capability.Capability
	validated  *capability.Capability
	runs       []string
	dir        string
	lock       *bundle.Lock
}

var fixedClock = func() time.Time { return time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC) }

// validatedFixture finalizes testCapability from two clean runs and seals
// it into a fresh directory.
func validatedFixture(t testing.TB) *fixture {
	t.Helper()
	f := &fixture{discovered: testCapability()}
	if errs := f.discovered.Validate(); len(errs) > 0 {
		t.Fatalf("test capability invalid: %v", errs)
	}
	runs := t.TempDir()
	f.runs = []string{writeRun(t, runs, cleanRun(t, f.discovered, nil)), writeRun(t, runs, cleanRun(t, f.discovered, nil))}
	v, err := receipt.Finalize(context.Background(), f.discovered, f.runs, receipt.WithClock(fixedClock))
	if err != nil {
		t.Fatalf("Finalize: %v", err)
	}
	f.validated = v
	f.dir = filepath.Join(t.TempDir(), "bundle")
	f.lock, err = bundle.Seal(context.Background(), f.dir, v, f.runs)
	if err != nil {
		t.Fatalf("Seal: %v", err)
	}
	return f
}

// discoveredFixture seals testCapability without receipts.
func discoveredFixture(t testing.TB) *fixture {
	t.Helper()
	f := &fixture{discovered: testCapability()}
	f.dir = filepath.Join(t.TempDir(), "bundle")
	var err error
	f.lock, err = bundle.Seal(context.Background(), f.dir, f.discovered, nil)
	if err != nil {
		t.Fatalf("Seal: %v", err)
	}
	return f
}

func readFile(t testing.TB, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeFile(t testing.TB, dir, name string, b []byte) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// readLock decodes the bundle's lock without checking it.
func readLock(t testing.TB, dir string) *bundle.Lock {
	t.Helper()
	var l bundle.Lock
	if err := json.Unmarshal(readFile(t, dir, bundle.FileLock), &l); err != nil {
		t.Fatal(err)
	}
	return &l
}

// writeLock writes l canonically, as Seal would.
func writeLock(t testing.TB, dir string, l *bundle.Lock) {
	t.Helper()
	b, err := l.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, bundle.FileLock, b)
}

// relock rewrites the lock so it lists exactly the files on disk (except
// itself) with their current sizes and hashes, as a tamperer who controls
// the whole folder would.
func relock(t testing.TB, dir string) {
	t.Helper()
	l := readLock(t, dir)
	l.Files = nil
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == bundle.FileLock {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		l.Files = append(l.Files, bundle.LockFile{Path: rel, Size: int64(len(b)), SHA256: canonjson.SumBytes(b)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sortFiles(l.Files)
	writeLock(t, dir, l)
}

func sortFiles(fs []bundle.LockFile) {
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && fs[j].Path < fs[j-1].Path; j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
}

// addListed writes a file and adds it to the lock with its true hash.
func addListed(t testing.TB, dir, name string, b []byte) {
	t.Helper()
	writeFile(t, dir, name, b)
	l := readLock(t, dir)
	l.Files = append(l.Files, bundle.LockFile{Path: name, Size: int64(len(b)), SHA256: canonjson.SumBytes(b)})
	sortFiles(l.Files)
	writeLock(t, dir, l)
}

// editCapability rewrites capability.json through edit and relocks.
func editCapability(t testing.TB, dir string, edit func(*capability.Capability)) {
	t.Helper()
	c, err := capability.ParseBytes(readFile(t, dir, bundle.FileCapability))
	if err != nil {
		t.Fatal(err)
	}
	edit(c)
	b, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, bundle.FileCapability, b)
	relock(t, dir)
}

// receiptPaths lists the bundle's receipt paths in lock order.
func receiptPaths(l *bundle.Lock) []string {
	var out []string
	for _, f := range l.Files {
		if strings.HasPrefix(f.Path, bundle.DirReceipts+"/") {
			out = append(out, f.Path)
		}
	}
	return out
}

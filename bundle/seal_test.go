package bundle_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/receipt"
)

func TestSealVerifyValidated(t *testing.T) {
	f := validatedFixture(t)
	rep, err := bundle.Verify(context.Background(), f.dir)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	want := []string{bundle.FileReadme, bundle.FileCapability}
	want = append(want, receiptPaths(f.lock)...)
	slices.Sort(want)
	if !slices.Equal(rep.Valid, want) {
		t.Errorf("Valid = %v, want %v", rep.Valid, want)
	}
	if len(rep.Unlisted)+len(rep.Missing)+len(rep.Mismatched)+len(rep.Unsafe)+len(rep.Forbidden)+len(rep.LockProblems)+len(rep.Limits)+len(rep.Capability) > 0 || rep.Claim != nil {
		t.Errorf("clean report has problems: %+v", rep)
	}
	if rep.Verified == nil || rep.Verified.State != capability.StateValidatedLocal {
		t.Fatalf("Verified capability missing or wrong: %+v", rep.Verified)
	}
	if rep.Lock == nil || !slices.Equal(rep.Lock.Files, f.lock.Files) {
		t.Errorf("report lock differs from the sealed lock")
	}
	// The receipts are exactly the runs' run.receipt.json bytes, named by
	// their hashes; nothing else of the run directories travels.
	var fromRuns [][]byte
	for _, d := range f.runs {
		fromRuns = append(fromRuns, readFile(t, d, receipt.FileReceipt))
	}
	for _, p := range receiptPaths(f.lock) {
		b := readFile(t, f.dir, p)
		if !slices.ContainsFunc(fromRuns, func(r []byte) bool { return bytes.Equal(r, b) }) {
			t.Errorf("%s is not a run's receipt byte for byte", p)
		}
	}
	var names []string
	filepath.WalkDir(f.dir, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(f.dir, p)
		names = append(names, filepath.ToSlash(rel))
		return err
	})
	for _, n := range names {
		for _, bad := range []string{receipt.FileOutputs, receipt.FileLock, receipt.FileProposals} {
			if filepath.Base(n) == bad {
				t.Errorf("run file %s travelled", n)
			}
		}
	}
	if len(names) != 7 { // ., 3 top-level files, receipts/, 2 receipts
		t.Errorf("bundle entries %v", names)
	}
	// capability.json is the capability's indented Marshal bytes.
	want2, _ := f.validated.Marshal()
	if !bytes.Equal(readFile(t, f.dir, bundle.FileCapability), want2) {
		t.Error("capability.json is not the capability's Marshal output")
	}
}

func TestSealDiscovered(t *testing.T) {
	f := discoveredFixture(t)
	rep, err := bundle.Verify(context.Background(), f.dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Valid, []string{bundle.FileReadme, bundle.FileCapability}) {
		t.Errorf("Valid = %v", rep.Valid)
	}
	if _, err := os.Lstat(filepath.Join(f.dir, bundle.DirReceipts)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a discovered bundle has a receipts directory: %v", err)
	}
	readme := string(readFile(t, f.dir, bundle.FileReadme))
	for _, s := range []string{"# Read a member's balance", "`teller.read-balance`", "`query` (string, required)",
		"`balance` (text, model_summary)", "`https://teller.example`", "`discovered`", bundle.VerifyCommand + " <dir>", "bundle.Verify(ctx, dir)"} {
		if !strings.Contains(readme, s) {
			t.Errorf("README lacks %q", s)
		}
	}
}

func TestSealPermissions(t *testing.T) {
	f := validatedFixture(t)
	err := filepath.WalkDir(f.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		want := fs.FileMode(0o600)
		if d.IsDir() {
			want = fs.ModeDir | 0o700
		}
		if fi.Mode() != want {
			t.Errorf("%s: mode %v, want %v", p, fi.Mode(), want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestSealDeterministic(t *testing.T) {
	c := testCapability()
	ctx := context.Background()
	a, err := bundle.Seal(ctx, filepath.Join(t.TempDir(), "a"), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := c.Marshal()
	b, err := bundle.Seal(ctx, filepath.Join(t.TempDir(), "b"), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := c.Marshal()
	if !bytes.Equal(before, after) {
		t.Error("Seal changed the capability")
	}
	ab, _ := a.Marshal()
	bb, _ := b.Marshal()
	if !bytes.Equal(ab, bb) {
		t.Error("two seals of one capability differ")
	}
}

// leftovers lists the entries of parent other than keep.
func leftovers(t *testing.T, parent string, keep ...string) []string {
	t.Helper()
	es, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		if !slices.Contains(keep, e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestSealRefusesExistingDestination(t *testing.T) {
	c := testCapability()
	for _, tc := range []struct {
		name   string
		create func(p string) error
	}{
		{"empty directory", func(p string) error { return os.Mkdir(p, 0o700) }},
		{"file", func(p string) error { return os.WriteFile(p, []byte("x"), 0o600) }},
		{"dangling symlink", func(p string) error { return os.Symlink(filepath.Join(filepath.Dir(p), "nowhere"), p) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			dst := filepath.Join(parent, "bundle")
			if err := tc.create(dst); err != nil {
				t.Fatal(err)
			}
			before, _ := os.Lstat(dst)
			_, err := bundle.Seal(context.Background(), dst, c, nil)
			if !errors.Is(err, fs.ErrExist) || !errors.Is(err, bundle.ErrSeal) {
				t.Fatalf("Seal over an existing %s: %v", tc.name, err)
			}
			after, err := os.Lstat(dst)
			if err != nil || !os.SameFile(before, after) || after.Mode() != before.Mode() {
				t.Errorf("the existing %s was touched", tc.name)
			}
			if l := leftovers(t, parent, "bundle"); len(l) > 0 {
				t.Errorf("leftovers: %v", l)
			}
		})
	}
}

func TestSealRefusals(t *testing.T) {
	disc := testCapability()
	runs := t.TempDir()
	good := []string{writeRun(t, runs, cleanRun(t, disc, nil)), writeRun(t, runs, cleanRun(t, disc, nil))}
	validated, err := receipt.Finalize(context.Background(), disc, good, receipt.WithClock(fixedClock))
	if err != nil {
		t.Fatal(err)
	}
	third := writeRun(t, runs, cleanRun(t, disc, nil))
	tampered := writeRun(t, runs, cleanRun(t, disc, nil))
	if err := os.WriteFile(filepath.Join(tampered, receipt.FileOutputs), []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	launchedRuns := []string{
		writeRun(t, runs, cleanRun(t, disc, func(r *runwrite.Run) { r.Receipt.ExecutionMode = receipt.ModeLiveLaunched })),
		writeRun(t, runs, cleanRun(t, disc, func(r *runwrite.Run) { r.Receipt.ExecutionMode = receipt.ModeLiveLaunched })),
	}
	launched, err := receipt.Finalize(context.Background(), disc, launchedRuns, receipt.WithClock(fixedClock), receipt.WithAllowLaunchedBrowser())
	if err != nil {
		t.Fatal(err)
	}
	with := func(edit func(c *capability.Capability)) *capability.Capability {
		c := testCapability()
		edit(c)
		return c
	}
	tests := []struct {
		name string
		c    *capability.Capability
		runs []string
		opts []bundle.Option
		want []error
	}{
		{"nil capability", nil, nil, nil, []error{bundle.ErrCapability}},
		{"invalid capability", with(func(c *capability.Capability) { c.Site.AllowedOrigins = nil }), nil, nil, []error{bundle.ErrCapability, capability.ErrInvalid}},
		{"scaffold", with(func(c *capability.Capability) { c.State = capability.StateScaffold; c.Provenance = nil }), nil, nil, []error{bundle.ErrCapability}},
		{"draft", with(func(c *capability.Capability) { c.State = capability.StateDraft; c.Provenance.Review = nil }), nil, nil, []error{bundle.ErrCapability}},
		{"discovered with run directories", disc, good, nil, []error{bundle.ErrClaim}},
		{"validated without run directories", validated, nil, nil, []error{bundle.ErrClaim}},
		{"validated with one named run missing", validated, []string{good[0], third}, nil, []error{bundle.ErrClaim}},
		{"a run that does not verify", validated, append(slices.Clone(good), tampered), nil, []error{bundle.ErrClaim, receipt.ErrVerify}},
		{"launched runs without the policy", launched, launchedRuns, nil, []error{bundle.ErrClaim, receipt.ErrClaim}},
		{"HTML in the goal", with(func(c *capability.Capability) { c.Goal = "Read the balance <script>steal()</script>" }), nil, nil, []error{bundle.ErrForbidden}},
		{"session URL in a description", with(func(c *capability.Capability) {
			c.Inputs[0].Description = "as in https://teller.example/members?member=42&page=2"
		}), nil, nil, []error{bundle.ErrForbidden}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			dst := filepath.Join(parent, "bundle")
			_, err := bundle.Seal(context.Background(), dst, tc.c, tc.runs, tc.opts...)
			if err == nil {
				t.Fatal("Seal succeeded")
			}
			for _, w := range append([]error{bundle.ErrSeal}, tc.want...) {
				if !errors.Is(err, w) {
					t.Errorf("error does not match %v:\n%v", w, err)
				}
			}
			if _, err := os.Lstat(dst); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("dst exists after a refusal: %v", err)
			}
			if l := leftovers(t, parent); len(l) > 0 {
				t.Errorf("leftovers: %v", l)
			}
		})
	}
	t.Run("extra run directories are ignored", func(t *testing.T) {
		dst := filepath.Join(t.TempDir(), "bundle")
		l, err := bundle.Seal(context.Background(), dst, validated, append(slices.Clone(good), third))
		if err != nil {
			t.Fatal(err)
		}
		if n := len(receiptPaths(l)); n != 2 {
			t.Errorf("%d receipts sealed", n)
		}
	})
	t.Run("launched runs under the policy", func(t *testing.T) {
		dst := filepath.Join(t.TempDir(), "bundle")
		if _, err := bundle.Seal(context.Background(), dst, launched, launchedRuns, bundle.WithAllowLaunchedBrowser()); err != nil {
			t.Fatal(err)
		}
		rep, err := bundle.Verify(context.Background(), dst)
		if !errors.Is(err, bundle.ErrClaim) || !errors.Is(err, receipt.ErrClaim) || rep.Claim == nil {
			t.Fatalf("launched claim verified without the policy: %v", err)
		}
		if _, err := bundle.Verify(context.Background(), dst, bundle.WithAllowLaunchedBrowser()); err != nil {
			t.Fatalf("launched claim under the policy: %v", err)
		}
	})
}

// TestSealConcurrent races several Seals to one destination: exactly one
// wins, the others fail with fs.ErrExist, and the winner's bundle
// verifies.
func TestSealConcurrent(t *testing.T) {
	c := testCapability()
	parent := t.TempDir()
	dst := filepath.Join(parent, "bundle")
	const n = 8
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = bundle.Seal(context.Background(), dst, c, nil)
		}()
	}
	wg.Wait()
	wins := 0
	for _, err := range errs {
		switch {
		case err == nil:
			wins++
		case !errors.Is(err, fs.ErrExist):
			t.Errorf("loser failed with %v, want fs.ErrExist", err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d seals won", wins)
	}
	if _, err := bundle.Verify(context.Background(), dst); err != nil {
		t.Fatal(err)
	}
	if l := leftovers(t, parent, "bundle"); len(l) > 0 {
		t.Errorf("leftovers: %v", l)
	}
}

// TestSealCrashLeavesNoPartialBundle stops Seal after every file is
// written but before the rename: dst never exists before the rename, the
// work happens in a sibling, and the failure cleans the sibling up.
func TestSealCrashLeavesNoPartialBundle(t *testing.T) {
	parent := t.TempDir()
	dst := filepath.Join(parent, "bundle")
	crash := errors.New("simulated crash")
	var sibling []string
	restore := bundle.SetSealHook(func() error {
		if _, err := os.Lstat(dst); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("dst exists before the rename: %v", err)
		}
		sibling = leftovers(t, parent)
		return crash
	})
	defer restore()
	_, err := bundle.Seal(context.Background(), dst, testCapability(), nil)
	if !errors.Is(err, crash) || !errors.Is(err, bundle.ErrSeal) {
		t.Fatalf("Seal: %v", err)
	}
	if len(sibling) != 1 || !strings.HasPrefix(sibling[0], ".bundle.sealing-") {
		t.Errorf("work directory %v, want one .bundle.sealing-* sibling", sibling)
	}
	if _, err := os.Lstat(dst); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("dst exists after the crash: %v", err)
	}
	if l := leftovers(t, parent); len(l) > 0 {
		t.Errorf("leftovers: %v", l)
	}
}

func TestVerifyOptionsAndEdges(t *testing.T) {
	f := discoveredFixture(t)
	ctx := context.Background()
	h := execHash(t, f.discovered)
	if _, err := bundle.Verify(ctx, f.dir, bundle.WithExpectedExecutionHash(h), bundle.WithExpectedID(f.discovered.ID)); err != nil {
		t.Fatalf("expected hash and id: %v", err)
	}
	other := "sha256:" + strings.Repeat("0", 64)
	if _, err := bundle.Verify(ctx, f.dir, bundle.WithExpectedExecutionHash(other)); !errors.Is(err, bundle.ErrCapability) {
		t.Errorf("unexpected hash accepted: %v", err)
	}
	if _, err := bundle.Verify(ctx, f.dir, bundle.WithExpectedID("teller.other")); !errors.Is(err, bundle.ErrCapability) {
		t.Errorf("unexpected id accepted: %v", err)
	}
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	if _, err := bundle.Verify(ctx, f.dir, bundle.WithLogger(logger)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "bundle: verified") {
		t.Errorf("no debug record: %s", logs.String())
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	rep, err := bundle.Verify(canceled, f.dir)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, bundle.ErrVerify) || rep == nil {
		t.Errorf("canceled Verify: %v", err)
	}
	if _, err := bundle.Verify(ctx, filepath.Join(t.TempDir(), "none")); !errors.Is(err, bundle.ErrMissing) {
		t.Errorf("missing directory: %v", err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(f.dir, link); err != nil {
		t.Fatal(err)
	}
	if _, err := bundle.Verify(ctx, link); !errors.Is(err, bundle.ErrUnsafeFile) {
		t.Errorf("symlinked bundle directory: %v", err)
	}
	file := filepath.Join(f.dir, bundle.FileReadme)
	if _, err := bundle.Verify(ctx, file); !errors.Is(err, bundle.ErrUnsafeFile) {
		t.Errorf("a file as the bundle: %v", err)
	}
}

func TestReportJSON(t *testing.T) {
	f := validatedFixture(t)
	dir := copyDir(t, f.dir)
	writeFile(t, dir, "notes.txt", []byte("x"))
	rep, _ := bundle.Verify(context.Background(), dir)
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["schema"] != bundle.SchemaReport || doc["ok"] != false {
		t.Errorf("header: %s", b)
	}
	if u, _ := doc["unlisted"].([]any); len(u) != 1 || u[0] != "notes.txt" {
		t.Errorf("unlisted: %s", b)
	}
	if m, ok := doc["missing"].([]any); !ok || len(m) != 0 {
		t.Errorf("empty lists are not []: %s", b)
	}
	if _, ok := doc["lock"].(map[string]any); !ok {
		t.Errorf("no lock: %s", b)
	}
}

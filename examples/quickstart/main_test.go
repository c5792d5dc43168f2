package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/examples/internal/exampletest"
	"github.com/vera-run/vera/internal/chromeproc"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
)

func TestMain(m *testing.M) { exampletest.Main(m) }

func TestQuickstart(t *testing.T) {
	exampletest.RequireBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out := filepath.Join(t.TempDir(), "out")
	var stdout bytes.Buffer
	start := time.Now()
	err := run(ctx, []string{"-out", out}, &stdout)
	t.Logf("run took %s; output:\n%s", time.Since(start).Round(time.Millisecond), stdout.String())
	if err != nil {
		t.Fatalf("run: %v", err)
	}

	// Two committed runs, both clean and connected.
	receipts, _ := filepath.Glob(filepath.Join(out, "runs", "*", receipt.FileReceipt))
	if len(receipts) != 2 {
		t.Fatalf("receipts = %v, want 2", receipts)
	}
	hashes := map[string]bool{}
	for _, p := range receipts {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := receipt.LoadReceipt(raw)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if r.ExecutionMode != runtime.ModeLiveConnected || !r.Clean || r.Terminal.State != runtime.StateCompleted {
			t.Errorf("%s: mode %s clean %v terminal %s", p, r.ExecutionMode, r.Clean, r.Terminal.State)
		}
		hashes[digest(raw)] = true
	}

	// One bundle, validated_local, that verifies and carries those receipts.
	bundles, _ := filepath.Glob(filepath.Join(out, "*.bundle"))
	if len(bundles) != 1 {
		t.Fatalf("bundles = %v", bundles)
	}
	rep, err := bundle.Verify(ctx, bundles[0])
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	c := rep.Verified
	if c.State != capability.StateValidatedLocal || c.Validation == nil || c.Validation.ExecutionMode != string(runtime.ModeLiveConnected) {
		t.Fatalf("bundled capability state %s validation %+v", c.State, c.Validation)
	}
	for _, h := range c.Validation.Receipts {
		if !hashes[h] {
			t.Errorf("bundle claims receipt %s that is not one of the runs'", h)
		}
		if !strings.Contains(stdout.String(), h) {
			t.Errorf("summary lacks receipt hash %s", h)
		}
	}
	for _, want := range []string{"verify  valid", bundles[0], "validated_local"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("summary lacks %q", want)
		}
	}

	// The receiver's side: examples/verify exits 0 on this bundle.
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go tool to run examples/verify: %v", err)
	}
	cmd := exec.CommandContext(ctx, goTool, "run", "../verify", bundles[0])
	b, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(b), "verdict     VALID") {
		t.Fatalf("go run ./examples/verify: %v\n%s", err, b)
	}
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// TestQuickstartCanceled ends the program mid-way, as Ctrl-C does: run
// returns an error and the operator browser is gone when it returns. The
// cancellation comes at a point of the program's own output (just after
// the browser started, in the middle of the second run), not after a
// guessed time: on a fast machine the whole program used to finish
// within the 2 s that were meant to be mid-way.
func TestQuickstartCanceled(t *testing.T) {
	exampletest.RequireBrowser(t)
	for _, c := range []struct {
		marker string
		n      int // cancel once the output holds marker n times
	}{
		{"operator browser", 1},
		{"run 2:", 1},
		{"milestone login", 2},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		out := &cancelAt{marker: c.marker, n: c.n, cancel: cancel}
		err := run(ctx, []string{"-out", filepath.Join(t.TempDir(), "o")}, out)
		cancel()
		t.Logf("canceled at %q #%d: %v", c.marker, c.n, err)
		if !out.fired() {
			t.Errorf("the output never showed %q %d times:\n%s", c.marker, c.n, out.String())
		}
		if err == nil {
			t.Errorf("run survived cancellation at %q:\n%s", c.marker, out.String())
		}
		if n := chromeproc.CountProcesses(os.TempDir()); n != 0 {
			t.Errorf("%d browser processes still running after run returned", n)
		}
	}
}

// cancelAt is the program's output that calls cancel once it holds marker
// n times.
type cancelAt struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	marker string
	n      int
	cancel context.CancelFunc
	done   bool
}

func (w *cancelAt) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if !w.done && strings.Count(w.buf.String(), w.marker) >= w.n {
		w.done = true
		w.cancel()
	}
	return n, err
}

func (w *cancelAt) fired() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.done
}

func (w *cancelAt) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

func TestQuickstartUsage(t *testing.T) {
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "x"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-nope"}, {"extra"}, {"-out", full}} {
		var out bytes.Buffer
		if err := run(context.Background(), args, &out); !errors.Is(err, errUsage) {
			t.Errorf("run(%q) = %v, want a usage error", args, err)
		}
	}
}

func TestQuickstartNoBrowser(t *testing.T) {
	var out bytes.Buffer
	missing := filepath.Join(t.TempDir(), "no-chrome")
	err := run(context.Background(), []string{"-browser", missing, "-out", filepath.Join(t.TempDir(), "o")}, &out)
	if !errors.Is(err, runtime.ErrBrowserUnavailable) {
		t.Fatalf("run = %v, want ErrBrowserUnavailable", err)
	}
	if !strings.Contains(err.Error(), browser.InstallHint) {
		t.Errorf("the error does not say what to install: %v", err)
	}
}

func TestLoadCapability(t *testing.T) {
	const origin = "http://127.0.0.1:54321"
	c, err := loadCapability(origin)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Site.AllowedOrigins) != 1 || c.Site.AllowedOrigins[0] != origin || c.State != capability.StateAuthored {
		t.Errorf("origins %v state %s", c.Site.AllowedOrigins, c.State)
	}
	raw, _ := c.Marshal()
	if bytes.Contains(raw, []byte(placeholderOrigin)) {
		t.Error("the placeholder origin survived the rewrite")
	}
	// The rewrite is part of the contract: it changes the execution hash.
	orig, err := capability.ParseBytes(tellerCapability)
	if err != nil {
		t.Fatal(err)
	}
	h1, _ := orig.ExecutionHash()
	h2, _ := c.ExecutionHash()
	if h1 == h2 {
		t.Error("rewriting the origin did not change the execution hash")
	}
	// The embedded copy is the capability test data's reviewed teller file.
	testdata, err := os.ReadFile(filepath.Join("..", "..", "capability", "testdata", "valid", "teller_member_balances.json"))
	if err == nil && !bytes.Equal(testdata, tellerCapability) {
		t.Log("teller.capability.json differs from capability/testdata/valid/teller_member_balances.json")
	}
}

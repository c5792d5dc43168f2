package browser

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/grant"
)

// canaryBrowser writes an executable script into a new folder that
// records each start in <folder>/started and then runs the real browser,
// so a test can prove a refused launch never ran the executable, and
// every process it started names the folder (countByPathMarker).
func canaryBrowser(t *testing.T) (dir, exe string) {
	t.Helper()
	bin := requireBrowser(t)
	dir = t.TempDir()
	exe = filepath.Join(dir, "chromium-canary")
	script := "#!/bin/sh\necho started >> '" + filepath.Join(dir, "started") + "'\nexec '" + bin + "' \"$@\"\n"
	if err := os.WriteFile(exe, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return dir, exe
}

// wantNotStarted fails when the canary in dir was ever run, a process
// names dir, or more processes name the binary's TMPDIR (where every
// profile lives) than before (baseline: the count when the test began;
// top-level tests that are not parallel run alone, so nothing else
// starts a browser meanwhile).
func wantNotStarted(t *testing.T, dir string, baseline int) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "started")); !os.IsNotExist(err) {
		t.Errorf("the executable was started (%v)", err)
	}
	if n := countByPathMarker(dir); n != 0 {
		t.Errorf("%d processes name %s", n, dir)
	}
	if n := countByPathMarker(testTmp); n > baseline {
		t.Errorf("%d browser processes under %s, %d before the refusals", n, testTmp, baseline)
	}
}

// cdpCounter is a loopback HTTP server standing in for a CDP endpoint
// that counts the requests reaching it.
func cdpCounter(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &n
}

// TestGrantRefusedWithoutGrant: with a ceiling that does not opt in to
// auto-grant, Launch, LaunchBrowser, StartLocal, Connect and
// ConnectBrowser without a grant are refused with grant.ErrNotGranted
// (saying what to grant) and the executable never runs and the endpoint
// never gets a request.
func TestGrantRefusedWithoutGrant(t *testing.T) {
	dir, exe := canaryBrowser(t)
	ep, hits := cdpCounter(t)
	baseline := countByPathMarker(testTmp)
	c := &grant.Ceiling{Enabled: true, ExecutableRoots: []string{dir}, CDPEndpoints: []string{ep}, AllowedOrigins: []string{"http://127.0.0.1:*"}}
	ctx := tctx(t, 30*time.Second)
	opts := []Option{WithCeiling(c), WithBrowserPath(exe)}
	check := func(name string, err error) {
		t.Helper()
		if !errors.Is(err, grant.ErrNotGranted) {
			t.Errorf("%s: %v, want grant.ErrNotGranted", name, err)
		} else if !strings.Contains(err.Error(), "browser.WithGrant") || !strings.Contains(err.Error(), grant.EnvAutoGrant) {
			t.Errorf("%s: the message does not say what to grant: %v", name, err)
		}
	}
	_, err := Launch(ctx, opts...)
	check("Launch", err)
	_, err = LaunchBrowser(ctx, opts...)
	check("LaunchBrowser", err)
	_, err = StartLocal(ctx, opts...)
	check("StartLocal", err)
	_, err = Connect(ctx, ep, opts...)
	check("Connect", err)
	_, err = ConnectBrowser(ctx, ep, opts...)
	check("ConnectBrowser", err)
	wantNotStarted(t, dir, baseline)
	if n := hits.Load(); n != 0 {
		t.Errorf("the endpoint got %d requests", n)
	}
	// The disabled environment ceiling (no WithCeiling) refuses too.
	t.Setenv(grant.EnvEnabled, "false")
	if _, err := Launch(ctx, WithBrowserPath(exe)); !errors.Is(err, grant.ErrExceedsCeiling) {
		t.Errorf("Launch under a disabled environment ceiling: %v", err)
	}
	// A bad environment ceiling is its own error, still before any start.
	t.Setenv(grant.EnvEnabled, "true")
	t.Setenv(grant.EnvExecutableRoots, `["relative/root"]`)
	var ee *grant.EnvError
	if _, err := Launch(ctx, WithBrowserPath(exe)); !errors.As(err, &ee) || ee.Var != grant.EnvExecutableRoots {
		t.Errorf("Launch under a bad environment ceiling: %v", err)
	}
	wantNotStarted(t, dir, baseline)
}

// TestGrantExceedsCeiling: grants that ask for more than the ceiling are
// refused when they are made (executable outside the roots, also through
// a symlink; endpoint not listed; origin, env name or network class not
// allowed), and a launch or connect with a grant for another target is
// refused before anything starts.
func TestGrantExceedsCeiling(t *testing.T) {
	dir, exe := canaryBrowser(t)
	ep, hits := cdpCounter(t)
	baseline := countByPathMarker(testTmp)
	s := sites(t)
	c := tellerCapability(t, s)
	other := t.TempDir()
	link := filepath.Join(other, "chromium")
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	ceiling := &grant.Ceiling{Enabled: true, ExecutableRoots: []string{other}, CDPEndpoints: []string{"http://127.0.0.1:1"},
		AllowedOrigins: []string{s.Teller.Origin()}, AllowedEnv: []string{"TELLER_PIN"}}
	wantExceed := func(name string, err error, field string) {
		t.Helper()
		var xe *grant.ExceedError
		if !errors.As(err, &xe) || !errors.Is(err, grant.ErrExceedsCeiling) || xe.Field != field {
			t.Errorf("%s: %v, want an ExceedError on %s", name, err, field)
		}
	}
	_, err := ceiling.Launch(c, exe)
	wantExceed("executable outside the roots", err, grant.FieldExecutable)
	_, err = ceiling.Launch(c, link)
	wantExceed("symlink in a root to an executable outside it", err, grant.FieldExecutable)
	_, err = ceiling.Launch(c, filepath.Join(other, "..", filepath.Base(dir), "chromium-canary"))
	wantExceed("a .. escape", err, grant.FieldExecutable)
	_, err = ceiling.Connect(c, ep)
	wantExceed("endpoint not listed", err, grant.FieldEndpoint)
	ceiling.ExecutableRoots = []string{dir}
	_, err = ceiling.Launch(c, exe, "HOME")
	wantExceed("env name not allowed", err, grant.FieldEnv)
	_, err = ceiling.Grant(grant.Request{Target: grant.Target{Mode: grant.ModeLaunch, Executable: exe}, ExecutionHash: mustHash(t, c), Origins: []string{"https://bank.example.com"}})
	wantExceed("origin not allowed", err, grant.FieldOrigin)
	public := &grant.Ceiling{Enabled: true, ExecutableRoots: []string{dir}, AllowedOrigins: []string{s.Teller.Origin(), "https://bank.example.com"}, MaxNetwork: grant.Loopback}
	_, err = public.Grant(grant.Request{Target: grant.Target{Mode: grant.ModeLaunch, Executable: exe}, ExecutionHash: mustHash(t, c), Origins: []string{"https://bank.example.com"}})
	wantExceed("public network class under a loopback ceiling", err, grant.FieldNetwork)

	// A grant for one target does not open another.
	ceiling.CDPEndpoints = []string{ep}
	cg, err := ceiling.Connect(c, ep)
	if err != nil {
		t.Fatal(err)
	}
	ctx := tctx(t, 30*time.Second)
	if _, err := Launch(ctx, WithGrant(cg), WithBrowserPath(exe)); !errors.Is(err, grant.ErrNotCovered) {
		t.Errorf("Launch with a connect grant: %v", err)
	}
	lg, err := ceiling.Launch(c, exe)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Connect(ctx, ep, WithGrant(lg)); !errors.Is(err, grant.ErrNotCovered) {
		t.Errorf("Connect with a launch grant: %v", err)
	}
	if _, err := Launch(ctx, WithGrant(lg), WithBrowserPath(requireBrowser(t))); !errors.Is(err, grant.ErrNotCovered) {
		t.Errorf("Launch of another executable: %v", err)
	}
	// A grant read from JSON is data until a ceiling checks it.
	raw, err := lg.JSON()
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := grant.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Launch(ctx, WithGrant(parsed)); !errors.Is(err, grant.ErrNotGranted) {
		t.Errorf("Launch with an unchecked grant: %v", err)
	}
	wantNotStarted(t, dir, baseline)
	if n := hits.Load(); n != 0 {
		t.Errorf("the endpoint got %d requests", n)
	}
}

func mustHash(t *testing.T, c interface{ ExecutionHash() (string, error) }) string {
	t.Helper()
	h, err := c.ExecutionHash()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestGrantedRun: a launch with an explicit grant runs the teller
// capability to completion; the receipt records the grant's digest and
// commitment and verifies; a capability the grant does not cover is
// refused by Execute before any driver call (nothing navigated, no run
// folder); an auto-grant ceiling derives and records a grant instead.
func TestGrantedRun(t *testing.T) {
	bin := requireBrowser(t)
	s := sites(t)
	c := tellerCapability(t, s)
	ceiling := &grant.Ceiling{Enabled: true, ExecutableRoots: []string{filepath.Dir(bin)}, AllowedOrigins: []string{s.Teller.Origin(), s.Mail.Origin()}}
	g, err := ceiling.Launch(c, bin)
	if err != nil {
		t.Fatal(err)
	}
	ctx := tctx(t, 90*time.Second)
	d, err := Launch(ctx, WithGrant(g), WithCeiling(ceiling))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	inputs := map[string]any{"username": "teller1", "password": "correct horse battery", "member_id": "100234"}
	res := execute(t, ctx, d, c, inputs)
	wantState(t, res, runtime.StateCompleted, "")
	rf := runFiles(t, res)
	digest, err := g.Digest()
	if err != nil {
		t.Fatal(err)
	}
	if rf.Receipt.Grant == nil || rf.Receipt.Grant.Digest != digest || rf.Receipt.Grant.Commitment.Auto {
		t.Fatalf("receipt grant %+v, want digest %s", rf.Receipt.Grant, digest)
	}
	raw, err := os.ReadFile(filepath.Join(res.RunDir, receipt.FileReceipt))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(bin)) {
		t.Error("the receipt holds the executable path")
	}

	// Another capability: not covered, refused before the first driver call.
	mail := mailCapability(t, s)
	// URL reads the page's URL under the driver's lock: the event loop
	// writes it, so reading the field itself here was a data race.
	before, err := d.URL(ctx)
	if err != nil {
		t.Fatal(err)
	}
	runs := t.TempDir()
	_, err = runtime.Execute(ctx, mail, map[string]any{"query": "x"}, runtime.WithDriver(d), runtime.WithRunDir(runs))
	if !errors.Is(err, runtime.ErrNotGranted) || !errors.Is(err, grant.ErrNotCovered) {
		t.Fatalf("Execute of an ungranted capability: %v", err)
	}
	after, err := d.URL(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(runs); len(ents) != 0 || after != before {
		t.Errorf("the refused run left %d entries / navigated to %s", len(ents), after)
	}
	// Its own grant for the same target covers it.
	mg, err := ceiling.Launch(mail, bin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runtime.Execute(ctx, mail, map[string]any{"query": "invoice"}, runtime.WithDriver(d), runtime.WithRunDir(runs), runtime.WithGrant(mg)); err != nil {
		t.Fatalf("Execute with the run's own grant: %v", err)
	}

	// Auto-grant: no grant at all, derived from the ceiling and recorded.
	auto := *ceiling
	auto.AutoGrant = true
	ad, err := Launch(ctx, WithCeiling(&auto), WithBrowserPath(bin))
	if err != nil {
		t.Fatal(err)
	}
	defer ad.Close()
	ares := execute(t, ctx, ad, c, inputs)
	wantState(t, ares, runtime.StateCompleted, "")
	ag := runFiles(t, ares).Receipt.Grant
	if ag == nil || !ag.Commitment.Auto || ag.Commitment.ExecutionHash != mustHash(t, c) || ag.Commitment.NetworkClass != grant.Loopback {
		t.Fatalf("auto grant record %+v", ag)
	}
}

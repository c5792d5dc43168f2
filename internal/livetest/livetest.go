package livetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/chromeproc"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
)

// EnvRequireBrowser turns a missing browser from a skip into a failure.
const EnvRequireBrowser = "VERA_REQUIRE_BROWSER"

// StartTimeout bounds the start of one Chromium and, for a grid node,
// its connection (generous: the live tests run on saturated machines).
const StartTimeout = 90 * time.Second

// KillTimeout bounds how long [Grid.Kill] waits for a killed node's
// main process to exit.
const KillTimeout = 30 * time.Second

// RequireBrowser returns the browser executable the module will find
// (VERA_BROWSER, else the usual install locations), or skips the test
// when there is none, failing it instead under VERA_REQUIRE_BROWSER=1.
func RequireBrowser(t testing.TB) string {
	t.Helper()
	p, err := chromeproc.Find("")
	if err != nil {
		if os.Getenv(EnvRequireBrowser) == "1" {
			t.Fatalf("%s=1 but no browser: %v", EnvRequireBrowser, err)
		}
		t.Skipf("no Chrome/Chromium found (%v); set %s=1 to make this a failure", err, EnvRequireBrowser)
	}
	return p
}

// Chromium starts a headless Chromium with a fresh profile and a
// DevTools endpoint on 127.0.0.1 that the test owns (an operator's
// browser: connect to it with browser.Connect or -connect), closed
// when the test ends. It skips as [RequireBrowser] does.
func Chromium(t testing.TB) *chromeproc.Process {
	t.Helper()
	bin := RequireBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), StartTimeout)
	defer cancel()
	p, err := chromeproc.Start(ctx, chromeproc.WithPath(bin))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Errorf("closing the test's Chromium: %v", err)
		}
	})
	return p
}

// TellerAndChromium starts the teller console of internal/testsite and
// a [Chromium] the test owns, both closed when the test ends (the
// Chromium first): the site and the operator's browser of a connect-mode
// test. It skips as [RequireBrowser] does, before starting either.
func TellerAndChromium(t testing.TB) (*testsite.Teller, *chromeproc.Process) {
	t.Helper()
	RequireBrowser(t)
	site, err := testsite.StartTeller()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(site.Close)
	return site, Chromium(t)
}

// SealTeller runs the teller capability at capPath (the quickstart's,
// its placeholder origin http://127.0.0.1:4010 pointed at site) twice
// through chrome (browser.Connect on its endpoint, member 100234,
// password as the secret input), finalizes it and seals it into
// dir/<id>-<version>.bundle, as the quickstart does, and returns the
// bundle's path. A run that does not complete clean fails the test.
func SealTeller(t testing.TB, site *testsite.Teller, chrome *chromeproc.Process, capPath, password, dir string) string {
	t.Helper()
	raw, err := os.ReadFile(capPath)
	if err != nil {
		t.Fatal(err)
	}
	raw = bytes.ReplaceAll(raw, []byte("http://127.0.0.1:4010"), []byte(site.Origin()))
	c, err := capability.ParseBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	runs := t.TempDir()
	var runDirs []string
	for range 2 {
		d, err := browser.Connect(ctx, chrome.Endpoint())
		if err != nil {
			t.Fatal(err)
		}
		res, err := runtime.Execute(ctx, c, map[string]any{"username": "teller.demo", "password": password, "member_id": "100234"},
			runtime.WithDriver(d), runtime.WithRunDir(runs))
		d.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.State != runtime.StateCompleted || !res.Clean {
			t.Fatalf("sealing run ended %s (%+v)", res.State, res.Failure)
		}
		runDirs = append(runDirs, res.RunDir)
	}
	promoted, err := receipt.Finalize(context.Background(), c, runDirs)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, promoted.ID+"-"+promoted.Version+".bundle")
	if _, err := bundle.Seal(ctx, out, promoted, runDirs); err != nil {
		t.Fatal(err)
	}
	return out
}

// Node is one endpoint of a [Grid]: its Chromium and the Browser
// connected to it.
type Node struct {
	// Name is "node-I", I the node's index.
	Name    string
	Process *chromeproc.Process
	Browser *browser.Browser
}

// Grid is several Chromium processes started by [StartGrid].
type Grid struct {
	Nodes []Node
}

// StartGrid starts n Chromium processes ([Chromium]) and connects a
// browser.Browser to each (browser.ConnectBrowser on its HTTP
// endpoint); the Browsers are closed when the test ends, each before
// its Chromium. A killed node's Browser reports the crash on Close;
// that error is not a failure. It skips as [RequireBrowser] does.
func StartGrid(t testing.TB, n int) *Grid {
	t.Helper()
	RequireBrowser(t)
	g := &Grid{}
	for i := range n {
		p := Chromium(t)
		ctx, cancel := context.WithTimeout(context.Background(), StartTimeout)
		b, err := browser.ConnectBrowser(ctx, p.HTTPEndpoint())
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = b.Close() })
		g.Nodes = append(g.Nodes, Node{Name: fmt.Sprintf("node-%d", i), Process: p, Browser: b})
	}
	return g
}

// Kill kills node i's main process ([Kill]).
func (g *Grid) Kill(i int) error {
	if err := Kill(g.Nodes[i].Process); err != nil {
		return fmt.Errorf("%s: %w", g.Nodes[i].Name, err)
	}
	return nil
}

// Kill kills p's main process as a crash would (SIGKILL on Unix; its
// helpers are left to notice) and waits, at most [KillTimeout], for it
// to exit. p.Close, run when the test ends, still ends the rest.
func Kill(p *chromeproc.Process) error {
	proc, err := os.FindProcess(p.Pid())
	if err == nil {
		err = proc.Kill()
	}
	if err != nil {
		return fmt.Errorf("killing the browser: %w", err)
	}
	select {
	case <-p.Done():
		return nil
	case <-time.After(KillTimeout):
		return errors.New("the killed browser did not exit")
	}
}

// Victim is the run a test kills a grid node under: the first run on the
// node that reaches the point where the test's hook calls [Victim.At].
// At holds that run until [Victim.Kill] has killed the node, so the kill
// always lands mid-run.
type Victim struct {
	g      *Grid
	i      int
	chosen chan string
	killed chan struct{}
	once   sync.Once
}

// Victim returns the victim of node i; call its Kill once.
func (g *Grid) Victim(i int) *Victim {
	return &Victim{g: g, i: i, chosen: make(chan string, 1), killed: make(chan struct{})}
}

// Node is the name of the node to kill.
func (v *Victim) Node() string { return v.g.Nodes[v.i].Name }

// At is called from a run's hook with the run's id and the endpoint it
// runs on: the first run on the victim's node is chosen and held until
// the node is killed (at most a minute); any other call returns at once.
func (v *Victim) At(id, endpoint string) {
	if endpoint != v.Node() {
		return
	}
	first := false
	v.once.Do(func() { first = true })
	if !first {
		return
	}
	v.chosen <- id
	select {
	case <-v.killed:
	case <-time.After(time.Minute):
	}
}

// Kill waits, bounded by ctx, for the chosen run, kills the node
// ([Grid.Kill]) with the run held, then lets the run go on and returns
// its id. When no run was chosen, it kills nothing and returns an error.
func (v *Victim) Kill(ctx context.Context) (string, error) {
	select {
	case id := <-v.chosen:
		err := v.g.Kill(v.i)
		close(v.killed)
		return id, err
	case <-ctx.Done():
		close(v.killed)
		return "", fmt.Errorf("no run reached the kill point on %s: %w", v.Node(), ctx.Err())
	}
}

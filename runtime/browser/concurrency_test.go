package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser/internal/cdpws"
)

// tellerInputs are the example teller flow's inputs for one member.
func tellerInputs(member string) map[string]any {
	return map[string]any{"username": "teller.demo", "password": "demo-password-not-real", "member_id": member}
}

// tellerAnswer is what the teller flow must answer for m.
func tellerAnswer(t testing.TB, m testsite.Member) any {
	return asJSON(t, map[string]any{"member_name": m.Name, "savings": m.Savings, "checking": m.Checking})
}

// tellerProblems judges one teller run for member m: nil when it
// completed clean with m's balances and evidence receipt.VerifyRun
// accepts.
func tellerProblems(t testing.TB, c *capability.Capability, m testsite.Member, res *runtime.Result) []string {
	var p []string
	if res.State != runtime.StateCompleted {
		p = append(p, "not completed: "+summarize(res))
	}
	if got := asJSON(t, res.ModelOutputs["balances"]); !reflect.DeepEqual(got, tellerAnswer(t, m)) {
		p = append(p, fmt.Sprintf("member %s: balances = %v, want %v", m.ID, got, tellerAnswer(t, m)))
	}
	if !res.Clean || res.BlockedRequests != 0 {
		p = append(p, fmt.Sprintf("clean=%v blocked=%d", res.Clean, res.BlockedRequests))
	}
	if res.RunDir == "" {
		p = append(p, "no evidence")
	} else if _, err := receipt.VerifyRun(context.Background(), res.RunDir, c); err != nil {
		p = append(p, "VerifyRun: "+err.Error())
	}
	return p
}

// TestSharedDriverRefusedOrRight is issue 18's reproduction: 24 teller
// flows for different members, spread over 2 and then 4 goroutines
// that all share one launched Driver. Before the per-driver claim,
// interleaved runs read each other's pages and answered "no member
// found" for members that exist. Now every attempt either answers right
// (its own member's balances) or is refused with runtime.ErrDriverBusy,
// with no Result; a refused flow is tried again when a run on the
// driver ends (an event, not a timer), so all 24 flows answer.
func TestSharedDriverRefusedOrRight(t *testing.T) {
	t.Parallel()
	s := sites(t)
	c := exampleTeller(t, s)
	d := shared(t)
	for _, workers := range []int{2, 4} {
		t.Run(fmt.Sprint(workers), func(t *testing.T) {
			var mu sync.Mutex
			var ok, busy int
			ended := make(chan struct{}) // closed and replaced when a run ends
			flows := make(chan int)
			start := make(chan struct{})
			var wg sync.WaitGroup
			for range workers {
				wg.Go(func() {
					<-start
					for i := range flows {
						m := testsite.TellerMembers[i%len(testsite.TellerMembers)]
						for {
							mu.Lock()
							next := ended
							mu.Unlock()
							ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
							res, err := runtime.Execute(ctx, c, tellerInputs(m.ID), runtime.WithDriver(d), runtime.WithRunDir(t.TempDir()))
							cancel()
							if errors.Is(err, runtime.ErrDriverBusy) {
								if res != nil {
									t.Errorf("flow %d: refused run has a Result: %s", i, summarize(res))
								}
								mu.Lock()
								busy++
								mu.Unlock()
								<-next
								continue
							}
							mu.Lock()
							close(ended)
							ended = make(chan struct{})
							switch {
							case err != nil:
								t.Errorf("flow %d: Execute: %v", i, err)
							default:
								if p := tellerProblems(t, c, m, res); len(p) > 0 {
									t.Errorf("flow %d: WRONG ANSWER: %v", i, p)
								} else {
									ok++
								}
							}
							mu.Unlock()
							break
						}
					}
				})
			}
			close(start)
			for i := range 24 {
				flows <- i
			}
			close(flows)
			wg.Wait()
			t.Logf("workers=%d right=%d refusals=%d", workers, ok, busy)
			if ok != 24 {
				t.Errorf("right=%d of 24 flows", ok)
			}
		})
	}
}

// runBrowserFlows runs n teller flows at once on b, flow i for member
// TellerMembers[i], each in its own driver, and returns one problem list
// per flow.
func runBrowserFlows(t testing.TB, b *Browser, c *capability.Capability, n int, timeout time.Duration) [][]string {
	problems := make([][]string, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			m := testsite.TellerMembers[i%len(testsite.TellerMembers)]
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			d, err := b.NewDriver(ctx)
			if err != nil {
				problems[i] = []string{"NewDriver: " + err.Error()}
				return
			}
			defer d.Close()
			dir, err := os.MkdirTemp(testTmp, "run-")
			if err != nil {
				problems[i] = []string{err.Error()}
				return
			}
			defer os.RemoveAll(dir)
			// The run's debug log (its failure detail) goes with a
			// failed flow's problems: the Result holds only a hash of it.
			var logs bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			res, err := runtime.Execute(ctx, c, tellerInputs(m.ID), runtime.WithDriver(d), runtime.WithRunDir(dir), runtime.WithLogger(log))
			if err != nil {
				problems[i] = []string{"Execute: " + err.Error(), "run log: " + logs.String()}
				return
			}
			problems[i] = tellerProblems(t, c, m, res)
			if len(problems[i]) > 0 {
				problems[i] = append(problems[i], "run log: "+logs.String())
			}
		})
	}
	close(start)
	wg.Wait()
	return problems
}

// browserTargets lists the browser contexts and the page targets of the
// browser behind wsURL, through connections of its own.
func browserTargets(t testing.TB, wsURL string) (contexts []proto.BrowserBrowserContextID, pages int) {
	t.Helper()
	var bc proto.TargetGetBrowserContextsResult
	browserCall(t, wsURL, proto.TargetGetBrowserContexts{}, &bc)
	var tg proto.TargetGetTargetsResult
	browserCall(t, wsURL, proto.TargetGetTargets{}, &tg)
	for _, ti := range tg.TargetInfos {
		if ti.Type == proto.TargetTargetInfoTypePage {
			pages++
		}
	}
	return bc.BrowserContextIDs, pages
}

// browserCall sends one browser-level CDP command on a connection of its
// own (the outside world: an operator, a crash) and decodes its result
// into res when res is not nil.
func browserCall(t testing.TB, wsURL string, req proto.Request, res any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, err := cdpws.Dial(ctx, wsURL, cdpws.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	cl := cdp.New().Logger(discardLogger{}).Start(ws)
	raw, err := cl.Call(ctx, "", req.ProtoReq(), req)
	if err == nil && res != nil {
		err = json.Unmarshal(raw, res)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// checkBrowserConcurrent is the Browser conformance case: 8 concurrent
// teller flows on one Browser, each in its own driver and browser
// context, each answering its own member's balances; afterwards no
// driver, browser context or page of the runs is left (a spare, counted
// once its open ended, is the Browser's, before and after).
func checkBrowserConcurrent(t *testing.T, b *Browser, c *capability.Capability, timeout time.Duration) {
	t.Helper()
	readySpare(t, b)
	ctx0, pages0 := browserTargets(t, b.wsURL)
	const n = 8
	for i, p := range runBrowserFlows(t, b, c, n, timeout) {
		if len(p) > 0 {
			t.Errorf("flow %d (member %s): %v", i, testsite.TellerMembers[i].ID, p)
		}
	}
	if a := b.Active(); a != 0 {
		t.Errorf("Active() = %d after every driver closed", a)
	}
	readySpare(t, b)
	ctx1, pages1 := browserTargets(t, b.wsURL)
	if len(ctx1) != len(ctx0) || pages1 != pages0 {
		t.Errorf("after the runs: %d browser contexts and %d pages, before: %d and %d", len(ctx1), pages1, len(ctx0), pages0)
	}
}

// TestBrowserConcurrentLaunched: 8 concurrent flows on one launched
// Browser; Close kills it (TestMain checks no process or goroutine is
// left).
func TestBrowserConcurrentLaunched(t *testing.T) {
	requireBrowser(t)
	s := sites(t)
	c := exampleTeller(t, s)
	b, err := LaunchBrowser(tctx(t, 60*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	checkBrowserConcurrent(t, b, c, 2*time.Minute)
	d, err := b.NewDriver(tctx(t, 30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if d.Info().Mode != runtime.ModeLiveLaunched || d.Info().DownloadRoute != runtime.DownloadBrowserPath {
		t.Errorf("info = %+v", d.Info())
	}
	// Close closes the driver left open, then the browser.
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-b.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("browser process still running after Close")
	}
	if _, err := d.URL(tctx(t, 5*time.Second)); !errors.Is(err, runtime.ErrClosed) {
		t.Errorf("driver after Browser.Close: %v", err)
	}
	if _, err := b.NewDriver(tctx(t, 5*time.Second)); !errors.Is(err, runtime.ErrClosed) {
		t.Errorf("NewDriver after Close: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestBrowserConcurrentConnected: the same 8 flows on one Browser
// connected to an operator-style Chromium, which stays alive after
// Close with none of the runs' contexts or pages left.
func TestBrowserConcurrentConnected(t *testing.T) {
	ext := startExternal(t)
	s := sites(t)
	c := exampleTeller(t, s)
	b, err := ConnectBrowser(tctx(t, 30*time.Second), ext.endpoint)
	if err != nil {
		t.Fatal(err)
	}
	checkBrowserConcurrent(t, b, c, 2*time.Minute)
	d, err := b.NewDriver(tctx(t, 30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if d.Info().Mode != runtime.ModeLiveConnected {
		t.Errorf("mode = %q", d.Info().Mode)
	}
	ctxs, _ := browserTargets(t, b.wsURL)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if !ext.alive(t) {
		t.Fatal("the connected browser did not survive Browser.Close")
	}
	after, _ := browserTargets(t, b.wsURL)
	if len(after) != len(ctxs)-1 {
		t.Errorf("browser contexts: %d with a driver open, %d after Close", len(ctxs), len(after))
	}
}

// TestBrowserNil: nil receivers and a nil ctx are typed errors.
func TestBrowserNil(t *testing.T) {
	var nilCtx context.Context
	var b *Browser
	if _, err := b.NewDriver(t.Context()); !errors.Is(err, runtime.ErrInvalidArgument) {
		t.Errorf("nil NewDriver: %v", err)
	}
	if err := b.Close(); !errors.Is(err, runtime.ErrInvalidArgument) {
		t.Errorf("nil Close: %v", err)
	}
	if _, err := LaunchBrowser(nilCtx); !errors.Is(err, runtime.ErrInvalidArgument) {
		t.Errorf("LaunchBrowser(nil): %v", err)
	}
	if _, err := ConnectBrowser(nilCtx, "http://127.0.0.1:9222"); !errors.Is(err, runtime.ErrInvalidArgument) {
		t.Errorf("ConnectBrowser(nil): %v", err)
	}
	if _, err := ConnectBrowser(t.Context(), "http://10.1.2.3:9222"); !errors.Is(err, ErrEndpointNotAllowed) {
		t.Errorf("remote endpoint without WithRemoteEndpoint: %v", err)
	}
}

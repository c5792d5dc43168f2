package jobs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/livetest"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
)

// liveBrowser launches a real Chromium as a Browser, or skips (fails
// with VERA_REQUIRE_BROWSER=1) when there is none.
func liveBrowser(t *testing.T) *browser.Browser {
	t.Helper()
	livetest.RequireBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := browser.LaunchBrowser(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Error(err)
		}
		select {
		case <-b.Done():
		case <-time.After(10 * time.Second):
			t.Error("browser still running after Close")
		}
	})
	return b
}

// liveTeller is the quickstart's teller capability pointed at s.
func liveTeller(t *testing.T, s *testsite.Sites) *capability.Capability {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "examples", "quickstart", "teller.capability.json"))
	if err != nil {
		t.Fatal(err)
	}
	raw = []byte(strings.ReplaceAll(string(raw), "http://127.0.0.1:4010", s.Teller.Origin()))
	c, err := capability.ParseBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func liveInputs(id string) map[string]any {
	return map[string]any{"username": "teller.demo", "password": "demo-password-not-real", "member_id": id}
}

func liveAnswer(m testsite.Member) string {
	return fmt.Sprint(map[string]any{"member_name": m.Name, "savings": m.Savings, "checking": m.Checking})
}

// TestLiveFiftySubmissions runs the runner over one real Chromium
// (browser.Browser, 2 slots, the default queue of 4): a burst of 50
// concurrent submissions is admitted up to the limits and the rest
// refused queue_full; then every member's flow is submitted, retrying
// a refusal when a job ends (a state-change event, not a timer), until
// all 8 are admitted. Every admitted job must pass with
// its own member's balances, never more than 2 drivers may be open,
// and nothing may be left open after Close.
func TestLiveFiftySubmissions(t *testing.T) {
	b := liveBrowser(t)
	s, err := testsite.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := liveTeller(t, s)
	var maxActive atomic.Int64
	freed := make(chan struct{}, 1)
	hooks := &Hooks{
		StateChange: func(st Status) {
			if st.State.Terminal() {
				select {
				case freed <- struct{}{}:
				default:
				}
			}
		},
		Step: func(string, StepProgress) {
			if n := int64(b.Active()); n > maxActive.Load() {
				maxActive.Store(n)
			}
		},
	}
	available := func() error {
		select {
		case <-b.Done():
			return errors.New("browser exited")
		default:
			return nil
		}
	}
	r, err := New(t.TempDir(), b.Open, WithActiveBrowsers(2), WithHooks(hooks), WithAvailability(available))
	if err != nil {
		t.Fatal(err)
	}
	type sub struct {
		id string
		m  testsite.Member
	}
	var mu sync.Mutex
	var accepted []sub
	refused := 0
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 50 {
		wg.Go(func() {
			<-start
			m := testsite.TellerMembers[i%len(testsite.TellerMembers)]
			st, err := r.Submit(context.Background(), Request{Capability: c, Inputs: liveInputs(m.ID), Budget: MaxRunBudget})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				accepted = append(accepted, sub{st.ID, m})
			case CodeOf(err) == CodeQueueFull:
				refused++
			default:
				t.Errorf("submission %d: %v", i, err)
			}
		})
	}
	close(start)
	wg.Wait()
	if len(accepted) < 6 || len(accepted)+refused != 50 {
		t.Fatalf("burst: %d admitted, %d refused; want at least 6 admitted and 50 in all", len(accepted), refused)
	}
	t.Logf("burst: %d admitted, %d refused queue_full", len(accepted), refused)

	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	for round := range 1 {
		for _, m := range testsite.TellerMembers {
			for {
				st, err := r.Submit(ctx, Request{Capability: c, Inputs: liveInputs(m.ID), Label: fmt.Sprint("round ", round), Budget: MaxRunBudget})
				if err == nil {
					accepted = append(accepted, sub{st.ID, m})
					break
				}
				if CodeOf(err) != CodeQueueFull {
					t.Fatalf("member %s: %v", m.ID, err)
				}
				select {
				case <-freed:
				case <-ctx.Done():
					t.Fatalf("member %s: no job ended: %v", m.ID, ctx.Err())
				}
			}
		}
	}
	for _, a := range accepted {
		st, err := r.Wait(ctx, a.id)
		if err != nil {
			t.Fatal(err)
		}
		if st.State != StatePassed || fmt.Sprint(st.Outputs["balances"]) != liveAnswer(a.m) || st.Mode != runtime.ModeLiveLaunched {
			t.Errorf("job for member %s: WRONG: state %s code %s terminal %s reason %s outputs %v", a.m.ID, st.State, st.Code, st.Terminal, st.Reason, st.Outputs)
		}
	}
	if n := maxActive.Load(); n > 2 {
		t.Errorf("%d drivers open at once with 2 slots", n)
	}
	if err := r.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if n := b.Active(); n != 0 {
		t.Errorf("%d drivers left open after the runner closed", n)
	}
}

// TestLiveCancelAndCrash: a running live job cancelled ends cancelled;
// a job whose browser is gone fails browser_crashed or is refused
// browser_unavailable, never a plausible answer.
func TestLiveCancelAndCrash(t *testing.T) {
	b := liveBrowser(t)
	s, err := testsite.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := liveTeller(t, s)
	started := make(chan string, 4)
	r := newRunner(t, t.TempDir(), b.Open, WithHooks(&Hooks{Step: func(id string, p StepProgress) {
		if p.Index == 2 && !p.Done {
			select {
			case started <- id:
			default:
			}
		}
	}}), WithAvailability(func() error {
		select {
		case <-b.Done():
			return errors.New("browser exited")
		default:
			return nil
		}
	}))
	st, err := r.Submit(t.Context(), Request{Capability: c, Inputs: liveInputs("100234")})
	if err != nil {
		t.Fatal(err)
	}
	<-started
	if _, err := r.Cancel(st.ID); err != nil {
		t.Fatal(err)
	}
	if st = wait(t, r, st.ID); st.State != StateCancelled || st.Code != CodeCancelled || len(st.Outputs) != 0 {
		t.Errorf("cancelled live job: %+v", st)
	}

	st, err = r.Submit(t.Context(), Request{Capability: c, Inputs: liveInputs("100235")})
	if err != nil {
		t.Fatal(err)
	}
	<-started
	if err := b.Close(); err != nil { // the browser goes away mid-run
		t.Logf("close: %v", err)
	}
	if st = wait(t, r, st.ID); st.State != StateFailed || (st.Code != CodeBrowserCrashed && st.Code != CodeBrowserUnavailable) || len(st.Outputs) != 0 {
		t.Errorf("job in a closed browser: %+v", st)
	}
	if _, err := r.Submit(t.Context(), Request{Capability: c, Inputs: liveInputs("100236")}); CodeOf(err) != CodeBrowserUnavailable {
		t.Errorf("submission after the browser exited: %v", err)
	}
}

// TestLiveLaunchFailed: a job whose driver source launches a browser
// per job (browser.Launch) over an executable that exits at once (a
// browser that does not start) ends failed browser_launch_failed, with
// no run evidence, and the runner goes on.
func TestLiveLaunchFailed(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "not-a-browser")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\necho 'no browser here' >&2\nexit 1\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	src := func(ctx context.Context) (runtime.Driver, error) {
		return browser.Launch(ctx, browser.WithBrowserPath(exe))
	}
	s, err := testsite.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := newRunner(t, t.TempDir(), src)
	for range 2 {
		st, err := r.Submit(t.Context(), Request{Capability: liveTeller(t, s), Inputs: liveInputs("100234")})
		if err != nil {
			t.Fatal(err)
		}
		if st = wait(t, r, st.ID); st.State != StateFailed || st.Code != CodeBrowserLaunchFailed || st.RunID != "" || len(st.Outputs) != 0 {
			t.Errorf("job over a browser that does not start: %+v", st)
		}
	}
}

//go:build benchcmp

// Command benchcmp compares the same teller flow (sign in, search a
// member, read the balances) run through runtime.Execute with the rod
// driver and through a hand-written go-rod script, on one Chromium.
//
// Both sides talk to the same browser process: benchcmp starts a headless
// Chromium with a remote-debugging port (internal/chromeproc, which finds
// it like browser.Launch does); the Execute side attaches with
// browser.Connect (a fresh driver, browser context and page per run, plus
// run evidence on disk), the hand-written side with rod over one
// long-lived connection (a fresh incognito context and page per run, CSS
// selectors, no evidence). Runs alternate so drift hits both sides alike.
//
// It builds only with the benchcmp tag (go run -tags benchcmp
// ./runtime/browser/internal/benchcmp -n 20): the hand-written side needs
// go-rod's root package, which links rod's launcher and its embedded
// "leakless" helper binaries, and nothing of that may be in go list -deps
// ./... of the library.
//
//	go run -tags benchcmp ./runtime/browser/internal/benchcmp -n 20
//
// It prints the mean and median per side and the ratio Execute/rod (the
// goal is at most 1.15).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	_ "embed"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/chromeproc"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
)

//go:embed teller.json
var tellerJSON []byte

const (
	username = "teller1"
	password = "correct horse"
	memberID = "100234"
)

func main() {
	n := flag.Int("n", 10, "iterations per side")
	trace := flag.Bool("trace", false, "report where the Execute side's driver time goes")
	flag.Parse()
	if err := run(*n, *trace); err != nil {
		fmt.Fprintln(os.Stderr, "benchcmp:", err)
		os.Exit(1)
	}
}

func run(n int, trace bool) error {
	sites, err := testsite.Start()
	if err != nil {
		return err
	}
	defer sites.Close()
	want, _ := testsite.LookupMember(memberID)

	ext, err := chromeproc.Start(context.Background())
	if err != nil {
		return err
	}
	defer ext.Close()

	c, err := capability.ParseBytes(tellerJSON)
	if err != nil {
		return err
	}
	c.Site.AllowedOrigins = []string{sites.Teller.Origin()}
	runDir, err := os.MkdirTemp("", "benchcmp-runs-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(runDir)

	ctx := context.Background()
	rb := rod.New().ControlURL(ext.Endpoint()).NoDefaultDevice()
	if err := rb.Connect(); err != nil {
		return err
	}

	var tr *tracing
	if trace {
		tr = newTracing(nil)
	}
	viaExecute := func() (time.Duration, error) {
		start := time.Now()
		d, err := browser.Connect(ctx, ext.HTTPEndpoint())
		if err != nil {
			return 0, err
		}
		defer d.Close()
		var drv runtime.Driver = d
		if tr != nil {
			drv = tr
			tr.Driver = d
		}
		res, err := runtime.Execute(ctx, c, map[string]any{"username": username, "password": password, "member_id": memberID},
			runtime.WithDriver(drv), runtime.WithRunDir(runDir), runtime.WithAllowGitWorkTree())
		if err != nil {
			return 0, err
		}
		if res.State != receipt.TerminalCompleted {
			return 0, fmt.Errorf("execute: state %s %+v", res.State, res.Failure)
		}
		bal, _ := res.ModelOutputs["balances"].(map[string]any)
		if fmt.Sprint(bal["savings"]) != want.Savings {
			return 0, fmt.Errorf("execute: savings %v", bal["savings"])
		}
		return time.Since(start), nil
	}
	viaRod := func() (time.Duration, error) {
		start := time.Now()
		got, err := rodFlow(ctx, rb, sites.Teller.URL())
		if err != nil {
			return 0, err
		}
		if got != want.Savings {
			return 0, fmt.Errorf("rod: savings %q", got)
		}
		return time.Since(start), nil
	}

	// Warm both paths once (accessibility tree, caches, connections).
	if _, err := viaExecute(); err != nil {
		return err
	}
	if _, err := viaRod(); err != nil {
		return err
	}
	var ex, rd []time.Duration
	for i := range n {
		first, second := viaExecute, viaRod
		if i%2 == 1 {
			first, second = viaRod, viaExecute
		}
		a, err := first()
		if err != nil {
			return err
		}
		b, err := second()
		if err != nil {
			return err
		}
		if i%2 == 1 {
			a, b = b, a
		}
		ex, rd = append(ex, a), append(rd, b)
	}
	if tr != nil {
		fmt.Fprintln(os.Stderr, "Execute side, driver time by method (all runs):")
		tr.report()
	}
	me, mr := mean(ex), mean(rd)
	fmt.Printf("iterations per side: %d\n", n)
	fmt.Printf("runtime.Execute (rod driver): mean %v  median %v\n", me.Round(time.Millisecond), median(ex).Round(time.Millisecond))
	fmt.Printf("hand-written go-rod:          mean %v  median %v\n", mr.Round(time.Millisecond), median(rd).Round(time.Millisecond))
	fmt.Printf("ratio Execute/rod: mean %.2f  median %.2f (goal <= 1.15)\n", float64(me)/float64(mr), float64(median(ex))/float64(median(rd)))
	return nil
}

// rodFlow is the hand-written script: what a developer would write with
// go-rod for the same process, with CSS selectors and rod's own waits.
func rodFlow(ctx context.Context, b *rod.Browser, base string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	inc, err := b.Incognito()
	if err != nil {
		return "", err
	}
	defer inc.Close()
	page, err := inc.Page(proto.TargetCreateTarget{})
	if err != nil {
		return "", err
	}
	p := page.Context(ctx)
	if err := p.Navigate(base + "/login"); err != nil {
		return "", err
	}
	if err := p.WaitLoad(); err != nil {
		return "", err
	}
	input := func(sel, text string) error {
		el, err := p.Element(sel)
		if err != nil {
			return err
		}
		if err := el.SelectAllText(); err != nil {
			return err
		}
		return el.Input(text)
	}
	click := func(sel string) error {
		el, err := p.Element(sel)
		if err != nil {
			return err
		}
		return el.Click(proto.InputMouseButtonLeft, 1)
	}
	if err := input("#username", username); err != nil {
		return "", err
	}
	if err := input("#password", password); err != nil {
		return "", err
	}
	wait := p.WaitNavigation(proto.PageLifecycleEventNameLoad)
	if err := click("button[type=submit]"); err != nil {
		return "", err
	}
	wait()
	if err := input("#member-id", memberID); err != nil {
		return "", err
	}
	wait = p.WaitNavigation(proto.PageLifecycleEventNameLoad)
	if err := click(`[data-testid="member-search-submit"]`); err != nil {
		return "", err
	}
	wait()
	var out []string
	for _, id := range []string{"member-name", "balance-savings", "balance-checking"} {
		el, err := p.Element(`[data-testid="` + id + `"]`)
		if err != nil {
			return "", err
		}
		t, err := el.Text()
		if err != nil {
			return "", err
		}
		out = append(out, strings.TrimSpace(t))
	}
	return out[1], nil
}

func mean(ds []time.Duration) time.Duration {
	var s time.Duration
	for _, d := range ds {
		s += d
	}
	return s / time.Duration(max(len(ds), 1))
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

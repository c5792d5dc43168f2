//go:build benchcmp

// Command benchcmp compares the same teller flow (sign in, search a
// member, read the balances) run through runtime.Execute with the rod
// driver, through a hand-written go-rod script and through playwright-core,
// on one Chromium, and then the first role and label lookup on a fresh
// 10,000-node document, Vera's Find against Playwright's getByRole and
// getByLabel.
//
// All sides talk to the same browser process: benchcmp starts a headless
// Chromium with a remote-debugging port (internal/chromeproc, which finds
// it like browser.Launch does); the Execute side attaches with
// browser.Connect (a fresh driver, connection, browser context and page
// per run, plus run evidence on disk); a second Execute side, the like
// for like comparison with Playwright, runs through one browser.Browser
// connected once (ConnectBrowser, then NewDriver per run: a fresh
// driver, context and page held and handed over by the Browser's one
// attach path); the hand-written side attaches with rod over one
// long-lived connection (a fresh incognito context and page per run, CSS
// selectors, no evidence), the Playwright side with
// chromium.connectOverCDP from a long-lived Node process
// (playwright/flow.mjs; a fresh context and page per run, getByRole,
// getByLabel and getByTestId with Playwright's auto-waiting, no
// evidence). Each side's clock starts before its context exists and stops
// when it holds the balances (closing the context is not timed). Rounds
// rotate the order of the sides so drift hits them alike; the figures to
// read are the ratios of one run, never the absolute times (the machine
// may be shared).
//
// It builds only with the benchcmp tag: the hand-written side needs
// go-rod's root package, which links rod's launcher and its embedded
// "leakless" helper binaries, and nothing of that may be in go list -deps
// ./... of the library.
//
//	(cd runtime/browser/internal/benchcmp/playwright && npm install)
//	go run -tags benchcmp ./runtime/browser/internal/benchcmp -n 20
//
// With -gap 300ms every flow of every side is followed by that much idle
// time (a host with time between runs), and a fifth side runs: Execute
// through a Browser connected with WithSpare(true), which opens the next
// flow's driver during that time. Without a gap that side does not run:
// back to back, its spare's open would fall into the next side's flow.
//
// With -concurrency 1,2,4,8 it measures throughput instead: at each
// level, -flows teller flows (members rotating, every answer checked)
// run c at a time through one browser.Browser connected to the Chromium
// (c goroutines, runtime.Execute with a fresh driver per flow) and
// through playwright-core on the same browser (c async workers, a fresh
// context per flow); it prints flows per second and the p50 and p95
// flow latency of both sides and their ratios (goal: flows/s at least
// Playwright's and p95 no worse, at every level).
//
//	go run -tags benchcmp ./runtime/browser/internal/benchcmp -concurrency 1,2,4,8 -flows 24
//
// Without Node, or without playwright-core installed in the playwright
// folder, the Playwright side is skipped with a message saying so and the
// two Go sides still run. It prints the mean and median per side, the
// ratios Vera/go-rod (goal at most 1.15) and Vera/playwright-core (goal at
// most 0.8), then the cold lookups (goal: under 100 ms and at most
// Playwright's).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
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
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
	"github.com/vera-run/vera/runtime/grant"
)

//go:embed teller.json
var tellerJSON []byte

const (
	username = "teller1"
	password = "correct horse"
	memberID = "100234"
)

func main() {
	n := flag.Int("n", 10, "flow rounds (each runs every side once)")
	lookups := flag.Int("lookups", 10, "cold lookup rounds per case (0: none)")
	cases := flag.String("cases", "role,substring", "cold lookup cases, comma-separated: role, substring, label (Playwright's getByLabel takes minutes on 10,000 controls), textbox, checkbox, heading (role lookups on the 10,000-control page), option, tab, iconbutton (ARIA role lookups on the 10,000-widget page), cell (a 2,000-row table; no row case: Chromium names no row of a plain table, Playwright names it from its cells)")
	gap := flag.Duration("gap", 0, "flow mode: idle time after every flow of every side (a host with time between runs); with a gap a fifth side runs, Execute through a Browser with a spare (WithSpare), which opens the next driver during that time")
	trace := flag.Bool("trace", false, "report where the Execute side's driver time goes")
	pwDir := flag.String("playwright", "", "folder of flow.mjs with playwright-core installed (default: the playwright folder beside this program's source)")
	conc := flag.String("concurrency", "", "throughput mode: concurrency levels, comma-separated (e.g. 1,2,4,8); each level runs -flows flows per side")
	flows := flag.Int("flows", 24, "throughput mode: flows per level and side")
	reps := flag.Int("reps", 1, "throughput mode: repetitions of each level (sides alternate)")
	spare := flag.Bool("spare", false, "throughput mode: the Vera side's Browser keeps a spare (WithSpare(true), as a launched Browser does by default)")
	cpuProfile := flag.String("cpuprofile", "", "throughput mode: write a CPU profile of the measured levels to this file")
	logFile := flag.String("log", "", "flow mode: write the Execute sides' driver debug log (settle: lines and the like, times in microseconds) to this file")
	flag.Parse()
	if *conc != "" {
		levels, err := parseLevels(*conc)
		if err == nil {
			err = throughput(levels, *flows, *reps, *spare, scriptDir(*pwDir), *cpuProfile)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchcmp:", err)
			os.Exit(1)
		}
		return
	}
	if *logFile != "" {
		f, err := os.Create(*logFile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchcmp:", err)
			os.Exit(1)
		}
		defer f.Close()
		driverLog = slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				a.Value = slog.StringValue(a.Value.Time().Format("15:04:05.000000"))
			}
			return a
		}}))
	}
	if err := run(*n, *lookups, strings.Split(*cases, ","), *trace, *gap, scriptDir(*pwDir)); err != nil {
		fmt.Fprintln(os.Stderr, "benchcmp:", err)
		os.Exit(1)
	}
}

// side is one way of running the flow; it returns the time the flow took.
// driverLog is the Execute sides' driver logger (-log); it discards by
// default.
var driverLog = slog.New(slog.DiscardHandler)

type side struct {
	name  string
	run   func() (time.Duration, error)
	times []time.Duration
}

func run(n, lookups int, cases []string, trace bool, gap time.Duration, pwDir string) error {
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
	g, err := grant.Local(c, grant.ConnectTarget(ext.HTTPEndpoint()))
	if err != nil {
		return err
	}
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

	pw, err := startPlaywright(pwDir, ext.HTTPEndpoint())
	var skip *errSkip
	switch {
	case errors.As(err, &skip):
		fmt.Printf("playwright-core side skipped: %s\n", skip.why)
	case err != nil:
		return err
	default:
		defer pw.close()
	}

	// The like-for-like Vera side: one Browser connected once, a
	// NewDriver (context, page, gate) per flow, as Playwright keeps one
	// connection and makes a context per flow.
	shared, err := browser.ConnectBrowser(ctx, ext.HTTPEndpoint(), browser.WithGrant(g), browser.WithLogger(driverLog))
	if err != nil {
		return err
	}
	defer shared.Close()
	// The same with the Browser's spare (WithSpare, -gap only): the next
	// flow's driver is opened when this one's closes.
	spared, err := browser.ConnectBrowser(ctx, ext.HTTPEndpoint(), browser.WithGrant(g), browser.WithLogger(driverLog), browser.WithSpare(gap > 0))
	if err != nil {
		return err
	}
	defer spared.Close()
	var tr, trShared, trSpare *tracing
	if trace {
		tr, trShared, trSpare = newTracing(nil), newTracing(nil), newTracing(nil)
	}
	// execSide is runtime.Execute on a driver open makes per flow; its
	// trace row for the open is openName.
	execSide := func(open func() (*browser.Driver, error), openName string, tr *tracing) func() (time.Duration, error) {
		return func() (time.Duration, error) {
			return execFlow(ctx, c, open, openName, tr, runDir, want.Savings)
		}
	}
	viaExecute := execSide(func() (*browser.Driver, error) {
		return browser.Connect(ctx, ext.HTTPEndpoint(), browser.WithGrant(g), browser.WithLogger(driverLog))
	}, "Connect", tr)
	viaShared := execSide(func() (*browser.Driver, error) { return shared.NewDriver(ctx) }, "NewDriver", trShared)
	viaSpare := execSide(func() (*browser.Driver, error) { return spared.NewDriver(ctx) }, "NewDriver (spare)", trSpare)
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
	viaPlaywright := func() (time.Duration, error) {
		a, err := pw.ask(map[string]any{"op": "flow", "base": sites.Teller.URL(), "username": username, "password": password, "member_id": memberID})
		if err != nil {
			return 0, err
		}
		if a.Savings != want.Savings {
			return 0, fmt.Errorf("playwright: savings %q", a.Savings)
		}
		return ms(a.MS), nil
	}
	sides := []*side{{name: "runtime.Execute (rod driver)", run: viaExecute}, {name: "hand-written go-rod", run: viaRod}}
	if pw != nil {
		sides = append(sides, &side{name: "playwright-core", run: viaPlaywright})
	}
	sides = append(sides, &side{name: "Execute (Browser.NewDriver)", run: viaShared})
	sharedSide := sides[len(sides)-1]
	var spareSide *side
	if gap > 0 {
		// Only with a gap: back to back, the spare's open (started when
		// the side's driver closes) would run during the next side's
		// flow and slow that side, not this one.
		spareSide = &side{name: "Execute (NewDriver, spare)", run: viaSpare}
		sides = append(sides, spareSide)
	}

	// Warm every path once (connections, caches, the Node JIT).
	for _, s := range sides {
		if _, err := s.run(); err != nil {
			return err
		}
	}
	for i := range n {
		// Rotate the order so no side always runs first or last.
		for j := range sides {
			s := sides[(i+j)%len(sides)]
			d, err := s.run()
			if err != nil {
				return err
			}
			s.times = append(s.times, d)
			time.Sleep(gap)
		}
	}
	if tr != nil {
		fmt.Fprintln(os.Stderr, "Execute side (browser.Connect per flow), driver time by method (all runs):")
		tr.report()
		fmt.Fprintln(os.Stderr, "Execute side (one Browser, NewDriver per flow), driver time by method (all runs):")
		trShared.report()
		if gap > 0 {
			fmt.Fprintln(os.Stderr, "Execute side (one Browser with a spare, NewDriver per flow), driver time by method (all runs):")
			trSpare.report()
		}
	}
	if n == 0 {
		// -n 0: the cold lookups only (the warm-up above still ran every
		// side once); no flow table of empty samples.
		if lookups > 0 {
			return coldLookups(ctx, ext, sites, c, pw, lookups, cases)
		}
		return nil
	}
	fmt.Printf("teller flow, rounds: %d (every side once per round, order rotated; idle after every flow: %v)\n", n, gap)
	for _, s := range sides {
		fmt.Printf("  %-30s mean %8v  median %8v\n", s.name, mean(s.times).Round(time.Millisecond), median(s.times).Round(time.Millisecond))
	}
	ratio := func(a, b *side, goal string) {
		fmt.Printf("  ratio %s: mean %.2f  median %.2f (%s)\n", "Vera/"+b.name, float64(mean(a.times))/float64(mean(b.times)), float64(median(a.times))/float64(median(b.times)), goal)
	}
	ratio(sides[0], sides[1], "goal <= 1.15")
	if pw != nil {
		ratio(sides[0], sides[2], "goal <= 0.8")
		ratio(sharedSide, sides[2], "like for like: one connection, a context per flow; goal <= 0.8")
		if spareSide != nil {
			ratio(spareSide, sides[2], "one connection, the next flow's context opened ahead during the idle time (WithSpare); goal <= 0.8")
		}
	}
	if lookups > 0 {
		if err := coldLookups(ctx, ext, sites, c, pw, lookups, cases); err != nil {
			return err
		}
	}
	return nil
}

// execFlow runs the teller flow once through runtime.Execute on a
// driver open makes (timed from before the open), checks the savings
// and closes the driver (not timed). With tr it records the open as
// openName and every driver call.
func execFlow(ctx context.Context, c *capability.Capability, open func() (*browser.Driver, error), openName string, tr *tracing, runDir, savings string) (time.Duration, error) {
	start := time.Now()
	d, err := open()
	if err != nil {
		return 0, err
	}
	defer d.Close()
	var drv runtime.Driver = d
	opts := []runtime.Option{runtime.WithRunDir(runDir), runtime.WithAllowGitWorkTree()}
	if tr != nil {
		tr.note(openName, start)
		tr.Driver = d
		drv = tr
		opts = append(opts, runtime.WithHooks(tr.hooks()))
	}
	t0 := time.Now()
	res, err := runtime.Execute(ctx, c, map[string]any{"username": username, "password": password, "member_id": memberID},
		append(opts, runtime.WithDriver(drv))...)
	if tr != nil {
		tr.note("Execute (whole)", t0)
	}
	if err != nil {
		return 0, err
	}
	if res.State != receipt.TerminalCompleted {
		return 0, fmt.Errorf("execute: state %s %+v", res.State, res.Failure)
	}
	bal, _ := res.ModelOutputs["balances"].(map[string]any)
	if fmt.Sprint(bal["savings"]) != savings {
		return 0, fmt.Errorf("execute: savings %v", bal["savings"])
	}
	return time.Since(start), nil
}

// lookupCase is one cold lookup: a candidate for Vera's Find and the same
// question for Playwright.
type lookupCase struct {
	key  string // the -cases name
	name string
	path string
	cand locator.Candidate
	pw   map[string]any
	want int
}

// coldLookups times, on a fresh context and a freshly loaded document
// each time, the first lookup of a role and of a label on the stress
// pages' 10,000-element documents: Vera's Find and Playwright's getByRole
// or getByLabel resolved to element handles, alternating. The navigation
// (to the load event) and the first render are timed apart and reported
// beside it, so a side that moved work from the lookup into the page load
// shows it: after its load event the browser spends 50-300 ms laying out
// and painting 10,000 elements, and whichever command reaches the page
// first waits for it. Both sides make one trip through the page's main
// thread first (Vera's Settle, as the runtime does after a navigation;
// Playwright's evaluate), so the lookup is timed on the rendered
// document and the render is a column of its own.
func coldLookups(ctx context.Context, ext *chromeproc.Process, sites *testsite.Sites, c *capability.Capability, pw *playwright, rounds int, keys []string) error {
	// The lookup driver navigates the stress site only: its grant is
	// the teller capability's with the stress origin as the only one.
	lc := *c
	lc.Site.AllowedOrigins = []string{sites.Stress.Origin()}
	g, err := grant.Local(&lc, grant.ConnectTarget(ext.HTTPEndpoint()))
	if err != nil {
		return err
	}
	all := []lookupCase{
		{"role", "role button \"Target button\" (exact)", "/stress/nodes/10000",
			locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Target button", Exact: true},
			map[string]any{"by": "role", "role": "button", "name": "Target button", "exact": true}, 1},
		{"substring", "role button \"target\" (substring)", "/stress/nodes/10000",
			locator.Candidate{Strategy: locator.Role, Role: "button", Name: "target"},
			map[string]any{"by": "role", "role": "button", "name": "target"}, 1},
		{"label", "label \"Field 1999\" (exact)", "/stress/controls/10000",
			locator.Candidate{Strategy: locator.Label, Label: "Field 1999", Exact: true},
			map[string]any{"by": "label", "name": "Field 1999", "exact": true}, 1},
		{"textbox", "role textbox \"Field 1999\" (exact)", "/stress/controls/10000",
			locator.Candidate{Strategy: locator.Role, Role: "textbox", Name: "Field 1999", Exact: true},
			map[string]any{"by": "role", "role": "textbox", "name": "Field 1999", "exact": true}, 1},
		{"checkbox", "role checkbox \"Option 1999\" (exact)", "/stress/controls/10000",
			locator.Candidate{Strategy: locator.Role, Role: "checkbox", Name: "Option 1999", Exact: true},
			map[string]any{"by": "role", "role": "checkbox", "name": "Option 1999", "exact": true}, 1},
		{"heading", "role heading \"Stress controls\" (exact)", "/stress/controls/10000",
			locator.Candidate{Strategy: locator.Role, Role: "heading", Name: "Stress controls", Exact: true},
			map[string]any{"by": "role", "role": "heading", "name": "Stress controls", "exact": true}, 1},
		{"option", "role option \"Choice 1999\" (exact, ARIA listbox)", "/stress/widgets/10000",
			locator.Candidate{Strategy: locator.Role, Role: "option", Name: "Choice 1999", Exact: true},
			map[string]any{"by": "role", "role": "option", "name": "Choice 1999", "exact": true}, 1},
		{"tab", "role tab \"Tab 1999\" (exact, ARIA tablist)", "/stress/widgets/10000",
			locator.Candidate{Strategy: locator.Role, Role: "tab", Name: "Tab 1999", Exact: true},
			map[string]any{"by": "role", "role": "tab", "name": "Tab 1999", "exact": true}, 1},
		{"cell", "role cell \"INV-1999\" (exact, 2,000-row table)", "/stress/table/2000",
			locator.Candidate{Strategy: locator.Role, Role: "cell", Name: "INV-1999", Exact: true},
			map[string]any{"by": "role", "role": "cell", "name": "INV-1999", "exact": true}, 1},
		{"iconbutton", "role button \"Remove row 1999\" (exact, aria-label)", "/stress/widgets/10000",
			locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Remove row 1999", Exact: true},
			map[string]any{"by": "role", "role": "button", "name": "Remove row 1999", "exact": true}, 1},
	}
	var cases []lookupCase
	for _, k := range keys {
		i := slices.IndexFunc(all, func(lc lookupCase) bool { return lc.key == strings.TrimSpace(k) })
		if i < 0 {
			return fmt.Errorf("-cases: unknown case %q (role, substring, label, textbox, checkbox, heading, option, tab, iconbutton, cell)", k)
		}
		cases = append(cases, all[i])
	}
	seq := 0
	vera := func(lc lookupCase) (find, nav, render time.Duration, err error) {
		d, err := browser.Connect(ctx, ext.HTTPEndpoint(), browser.WithGrant(g))
		if err != nil {
			return 0, 0, 0, err
		}
		defer d.Close()
		seq++
		t0 := time.Now()
		if err := d.Navigate(ctx, fmt.Sprintf("%s%s?cold=v%d", sites.Stress.URL(), lc.path, seq)); err != nil {
			return 0, 0, 0, err
		}
		t1 := time.Now()
		// As the runtime does after a navigation: the barrier's round
		// trip through the page waits for the browser's first render
		// of the document (long on 10,000 elements), which the lookup
		// would otherwise wait for.
		if err := d.Settle(ctx); err != nil {
			return 0, 0, 0, err
		}
		t2 := time.Now()
		els, err := d.Find(ctx, nil, nil, lc.cand)
		if err != nil {
			return 0, 0, 0, err
		}
		find = time.Since(t2)
		if len(els) != lc.want {
			return 0, 0, 0, fmt.Errorf("vera: %s: %d elements, want %d", lc.name, len(els), lc.want)
		}
		return find, t1.Sub(t0), t2.Sub(t1), nil
	}
	play := func(lc lookupCase) (find, nav, render time.Duration, err error) {
		seq++
		req := map[string]any{"op": "lookup", "url": fmt.Sprintf("%s%s?cold=p%d", sites.Stress.URL(), lc.path, seq)}
		for k, v := range lc.pw {
			req[k] = v
		}
		a, err := pw.ask(req)
		if err != nil {
			return 0, 0, 0, err
		}
		if a.Count != lc.want {
			return 0, 0, 0, fmt.Errorf("playwright: %s: %d elements, want %d", lc.name, a.Count, lc.want)
		}
		return ms(a.MS), ms(a.NavMS), ms(a.RenderMS), nil
	}
	fmt.Printf("cold lookup on a fresh 10,000-element document, rounds: %d (alternating)\n", rounds)
	for _, lc := range cases {
		var vf, vn, vr, pf, pn, pr []time.Duration
		for i := range rounds + 1 {
			order := []bool{true, false}
			if i%2 == 1 {
				order = []bool{false, true}
			}
			for _, isVera := range order {
				if !isVera && pw == nil {
					continue
				}
				var f, nv, r time.Duration
				var err error
				if isVera {
					f, nv, r, err = vera(lc)
				} else {
					f, nv, r, err = play(lc)
				}
				if err != nil {
					return err
				}
				if i == 0 {
					continue // warm-up round (connections, the Node JIT)
				}
				if isVera {
					vf, vn, vr = append(vf, f), append(vn, nv), append(vr, r)
				} else {
					pf, pn, pr = append(pf, f), append(pn, nv), append(pr, r)
				}
			}
		}
		fmt.Printf("  %s\n", lc.name)
		fmt.Printf("    %-16s lookup median %8v  mean %8v   (navigation median %8v, first render median %8v)\n", "Vera Find", median(vf).Round(100*time.Microsecond), mean(vf).Round(100*time.Microsecond), median(vn).Round(time.Millisecond), median(vr).Round(time.Millisecond))
		if pw != nil {
			fmt.Printf("    %-16s lookup median %8v  mean %8v   (navigation median %8v, first render median %8v)\n", "playwright-core", median(pf).Round(100*time.Microsecond), mean(pf).Round(100*time.Microsecond), median(pn).Round(time.Millisecond), median(pr).Round(time.Millisecond))
			fmt.Printf("    ratio Vera/playwright-core: lookup median %.2f; navigation+render+lookup median %.2f (goal <= 1.0)\n",
				float64(median(vf))/float64(median(pf)), float64(median(sum(sum(vf, vn), vr)))/float64(median(sum(sum(pf, pn), pr))))
		}
	}
	return nil
}

// sum adds two series element by element.
func sum(a, b []time.Duration) []time.Duration {
	out := make([]time.Duration, len(a))
	for i := range a {
		out[i] = a[i] + b[i]
	}
	return out
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

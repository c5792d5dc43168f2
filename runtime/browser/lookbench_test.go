package browser

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vera-run/vera/locator"
)

// cdpRecorder records the CDP commands of one driver call: each command's
// method, start and end. The driver's event handlers answer paused
// requests (Fetch) on their own schedule; those are not recorded.
type cdpRecorder struct {
	mu    sync.Mutex
	calls []cdpCall
}

type cdpCall struct {
	method     string
	start, end time.Time
}

func (r *cdpRecorder) trace(method string, start time.Time) {
	end := time.Now()
	if strings.HasPrefix(method, "Fetch.") {
		return
	}
	r.mu.Lock()
	r.calls = append(r.calls, cdpCall{method, start, end})
	r.mu.Unlock()
}

func (r *cdpRecorder) reset() {
	r.mu.Lock()
	r.calls = r.calls[:0]
	r.mu.Unlock()
}

// depth is the number of sequential round trips: commands that overlap
// (sent before an earlier one's answer) share a step.
func (r *cdpRecorder) depth() int {
	r.mu.Lock()
	cs := slices.Clone(r.calls)
	r.mu.Unlock()
	slices.SortFunc(cs, func(a, b cdpCall) int { return a.start.Compare(b.start) })
	n := 0
	var last time.Time
	for _, c := range cs {
		if n == 0 || !c.start.Before(last) {
			n++
		}
		if c.end.After(last) {
			last = c.end
		}
	}
	return n
}

func (r *cdpRecorder) methods() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	ms := make([]string, len(r.calls))
	for i, c := range r.calls {
		ms[i] = strings.TrimPrefix(c.method, "Runtime.")
	}
	return strings.Join(ms, ", ")
}

func (r *cdpRecorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.calls)
}

// BenchmarkLookCalls measures, on the teller console's pages, the CDP
// commands and their sequential depth of one Find per strategy and of the
// runtime's batched looks (FindCounts), and reports with -v the commands
// of each.
func BenchmarkLookCalls(b *testing.B) {
	d := shared(b)
	s := sites(b)
	ctx := tctx(b, 5*time.Minute)
	var rec cdpRecorder
	d.setCallTrace(rec.trace)
	b.Cleanup(func() { d.setCallTrace(nil) })
	if err := d.Navigate(ctx, s.Teller.URL()+"/login"); err != nil {
		b.Fatal(err)
	}
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	dialogs := []locator.Candidate{{Strategy: locator.Role, Role: "dialog"}, {Strategy: locator.Role, Role: "alertdialog"}}
	outcomes := append(slices.Clone(dialogs), locator.Candidate{Strategy: locator.Text, Text: "No member found"}, locator.Candidate{Strategy: locator.Text, Text: "Session expired"})
	cases := []struct {
		name string
		run  func() (int, error)
	}{
		{"FindCounts dialogs", func() (int, error) { n, err := d.FindCounts(ctx, top, nil, dialogs); return len(n), err }},
		{"FindCounts dialogs+outcomes", func() (int, error) { n, err := d.FindCounts(ctx, top, nil, outcomes); return len(n), err }},
		{"Find label", func() (int, error) {
			els, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.Label, Label: "Password", Exact: true})
			return len(els), err
		}},
		{"Find role textbox", func() (int, error) {
			els, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.Role, Role: "textbox", Name: "Username", Exact: true})
			return len(els), err
		}},
		{"Find role button", func() (int, error) {
			els, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Sign in", Exact: true})
			return len(els), err
		}},
		{"Find css", func() (int, error) {
			els, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.CSS, CSS: "input"})
			return len(els), err
		}},
		{"Find text none", func() (int, error) {
			els, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.Text, Text: "No member found"})
			return len(els), err
		}},
		{"trivial call", func() (int, error) {
			doc, err := d.document(ctx, d.top)
			if err != nil {
				return 0, err
			}
			_, err = d.callOn(ctx, d.top.sid, doc, `function(){ return 1 }`, true, nil)
			return 1, err
		}},
	}
	for _, c := range cases {
		b.Run(strings.ReplaceAll(c.name, " ", "_"), func(b *testing.B) {
			var calls, depth, n int
			var got int
			for b.Loop() {
				rec.reset()
				var err error
				got, err = c.run()
				if err != nil {
					b.Fatal(err)
				}
				calls += rec.count()
				depth += rec.depth()
				n++
			}
			b.ReportMetric(float64(calls)/float64(n), "cdp-calls/op")
			b.ReportMetric(float64(depth)/float64(n), "cdp-depth/op")
			rec.reset()
			_, _ = c.run()
			b.Logf("%s (%d): %s", c.name, got, rec.methods())
		})
	}
}

// BenchmarkLookSourceVsInstalled times, interleaved on one page so load
// hits both alike, a FindCounts of the runtime's modal look sent as the
// helper's full source (as before helpers were installed) and through
// the installed helper, and reports both per call and their ratio.
func BenchmarkLookSourceVsInstalled(b *testing.B) {
	d := shared(b)
	s := sites(b)
	ctx := tctx(b, 5*time.Minute)
	if err := d.Navigate(ctx, s.Teller.URL()+"/login"); err != nil {
		b.Fatal(err)
	}
	doc, err := d.document(ctx, d.top)
	if err != nil {
		b.Fatal(err)
	}
	ask := []countCand{{S: "role", Role: "dialog"}, {S: "role", Role: "alertdialog"}, {S: "text", V: "No member found"}, {S: "text", V: "Session expired"}}
	args := []callArg{obj(""), val(maxRoleCandidates), val(ask)}
	if _, err := d.callHelper(ctx, d.top.sid, doc, helperCounts, false, true, nil, args...); err != nil {
		b.Fatal(err)
	}
	if d.helpersIn(d.top.sid, doc) == "" {
		b.Fatal("helper not installed")
	}
	var src, inst time.Duration
	n := 0
	for b.Loop() {
		var a, c []int
		t0 := time.Now()
		if _, err := d.callOn(ctx, d.top.sid, doc, jsCounts, true, &a, args...); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := d.callHelper(ctx, d.top.sid, doc, helperCounts, false, true, &c, args...); err != nil {
			b.Fatal(err)
		}
		inst += time.Since(t1)
		src += t1.Sub(t0)
		if !slices.Equal(a, c) {
			b.Fatalf("source %v, installed %v", a, c)
		}
		n++
	}
	b.ReportMetric(float64(src.Microseconds())/1000/float64(n), "source-ms/op")
	b.ReportMetric(float64(inst.Microseconds())/1000/float64(n), "installed-ms/op")
	b.ReportMetric(float64(inst)/float64(src), "installed/source")
}

package browser

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

func TestZZProbeClick(t *testing.T) {
	bin := requireBrowser(t)
	s := sites(t)
	var mu sync.Mutex
	var lines []string
	var t0 time.Time
	on := false
	d, err := Launch(tctx(t, 60*time.Second), WithBrowserPath(bin), withCallTrace(func(m string, start time.Time) {
		mu.Lock()
		if on {
			lines = append(lines, fmt.Sprintf("%7.1f +%6.1f %s", float64(start.Sub(t0).Microseconds())/1000, float64(time.Since(start).Microseconds())/1000, m))
		}
		mu.Unlock()
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := tctx(t, 30*time.Second)
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{s.Teller.Origin()}}); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 3; round++ {
		if err := d.Navigate(ctx, s.Teller.URL()+"/login"); err != nil {
			t.Fatal(err)
		}
		if err := d.Settle(ctx); err != nil {
			t.Fatal(err)
		}
		top, _, _ := d.Frame(ctx, nil)
		find := func(c locator.Candidate) runtime.Element {
			els, err := d.Find(ctx, top, nil, c)
			if err != nil || len(els) != 1 {
				t.Fatalf("find %v: %v %d", c, err, len(els))
			}
			return els[0]
		}
		u := find(locator.Candidate{Strategy: locator.Label, Label: "Username"})
		_ = d.Act(ctx, u, runtime.Act{Kind: runtime.ActFill, Value: "teller1"})
		p := find(locator.Candidate{Strategy: locator.Label, Label: "Password"})
		_ = d.Act(ctx, p, runtime.Act{Kind: runtime.ActFill, Value: "correct horse"})
		b := find(locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Sign in"})
		mu.Lock()
		lines = nil
		t0 = time.Now()
		on = true
		mu.Unlock()
		if err := d.Act(ctx, b, runtime.Act{Kind: runtime.ActClick}); err != nil {
			t.Log("click:", err)
		}
		ta := time.Since(t0)
		if err := d.Settle(ctx); err != nil {
			t.Fatal(err)
		}
		ts := time.Since(t0)
		mu.Lock()
		on = false
		if round == 2 {
			for _, l := range lines {
				t.Log(l)
			}
		}
		mu.Unlock()
		t.Logf("act %v settle end %v", ta, ts)
	}
}

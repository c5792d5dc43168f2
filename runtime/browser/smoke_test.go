package browser

import (
	"testing"
	"time"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

func TestSmokeTeller(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 30*time.Second)
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{s.Teller.Origin()}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, s.Teller.URL()+"/login"); err != nil {
		t.Fatal(err)
	}
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	find := func(c locator.Candidate) runtime.Element {
		t.Helper()
		start := time.Now()
		els, err := d.Find(ctx, top, nil, c)
		if err != nil {
			t.Fatalf("find %v: %v", c, err)
		}
		if len(els) != 1 {
			t.Fatalf("find %v: %d matches", c, len(els))
		}
		t.Logf("find %v: %v", c, time.Since(start))
		return els[0]
	}
	u := find(locator.Candidate{Strategy: locator.Role, Role: "textbox", Name: "Username", Exact: true})
	if err := d.Act(ctx, u, runtime.Act{Kind: runtime.ActFill, Value: "teller1"}); err != nil {
		t.Fatal(err)
	}
	p := find(locator.Candidate{Strategy: locator.Label, Label: "password"})
	if err := d.Act(ctx, p, runtime.Act{Kind: runtime.ActFill, Value: "secret"}); err != nil {
		t.Fatal(err)
	}
	b := find(locator.Candidate{Strategy: locator.Role, Role: "button", Name: "sign"})
	if err := d.Act(ctx, b, runtime.Act{Kind: runtime.ActClick}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	var els []runtime.Element
	for time.Now().Before(deadline) {
		els, err = d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.Placeholder, Placeholder: "e.g. 100234"})
		if err == nil && len(els) == 1 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(els) != 1 {
		t.Fatalf("member id box: %v %v", els, err)
	}
	if err := d.Act(ctx, els[0], runtime.Act{Kind: runtime.ActFill, Value: "100234"}); err != nil {
		t.Fatal(err)
	}
	if err := d.Act(ctx, els[0], runtime.Act{Kind: runtime.ActPress, Value: "Enter"}); err != nil {
		t.Fatal(err)
	}
	for time.Now().Before(deadline) {
		els, err = d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.TestID, TestID: "balance-savings"})
		if err == nil && len(els) == 1 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(els) != 1 {
		t.Fatalf("savings: %v %v", els, err)
	}
	v, err := d.Read(ctx, els[0], runtime.Read{Kind: runtime.ReadText})
	if err != nil || v != "$12,480.55" {
		t.Fatalf("savings = %q, %v", v, err)
	}
	url, _ := d.URL(ctx)
	t.Log(url, d.Info())
}

package testsite

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

func startStress(t *testing.T) *Stress {
	t.Helper()
	st, err := StartStress()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st
}

var (
	buttonRE = regexp.MustCompile(`<button type="button"[^>]*>([^<]*)</button>`)
	elemRE   = regexp.MustCompile(`<(div|button|h3|span)( [^>]*)?>[^<]*</(div|button|h3|span)>`)
)

func TestStressNodes(t *testing.T) {
	st := startStress(t)
	c := newClient(t)
	for _, n := range []int{1, 2, 5, 99, 100, 101, 10000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			r := c.get(fmt.Sprintf("%s/stress/nodes/%d", st.URL(), n))
			wantStatus(t, r, http.StatusOK)
			wantContains(t, r, "<h1>Stress nodes</h1>")
			if got := len(elemRE.FindAllString(r.body, -1)); got != n {
				t.Errorf("%d generated elements, want %d", got, n)
			}
			targets := 0
			names := map[string]bool{}
			for _, m := range buttonRE.FindAllStringSubmatch(r.body, -1) {
				if m[1] == "Target button" {
					targets++
				}
				if names[m[1]] {
					t.Errorf("duplicate button name %q", m[1])
				}
				names[m[1]] = true
			}
			if targets != 1 {
				t.Errorf("%d target buttons", targets)
			}
			if n >= 3 && !names["Button 1"] {
				t.Error(`no "Button 1"`)
			}
			if strings.Count(r.body, `<div class="chunk">`) != (n+99)/100 {
				t.Errorf("chunks = %d", strings.Count(r.body, `<div class="chunk">`))
			}
		})
	}
}

func TestStressWidgets(t *testing.T) {
	st := startStress(t)
	c := newClient(t)
	const n = 1234
	r := c.get(fmt.Sprintf("%s/stress/widgets/%d", st.URL(), n))
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, "<h1>Stress widgets</h1>",
		`<div role="tablist" aria-label="Tabs"><div role="tab" aria-selected="false" tabindex="-1">Tab 1</div>`,
		`<div role="menu" aria-label="Commands"><div role="menuitem" tabindex="-1">Command 1</div>`,
		`<div role="option" aria-selected="false">Choice 100</div></div>`,
		`aria-label="Remove row 1"><svg`,
		`<span role="switch" aria-checked="false" tabindex="0">Setting 100</span></div>`,
		`>Tab 300<`, `>Command 300<`, `>Choice 234<`, `"Remove row 200"`, `>Setting 200<`)
	wantNotContains(t, r, `>Tab 301<`, `>Command 301<`, `>Choice 235<`, `"Remove row 201"`, `>Setting 201<`)
	roles := 0
	for _, k := range []string{`role="tab"`, `role="menuitem"`, `role="option"`, `role="button"`, `role="switch"`} {
		roles += strings.Count(r.body, k)
	}
	if roles != n {
		t.Errorf("%d widgets, want %d", roles, n)
	}
	if g := strings.Count(r.body, `<div role="tablist"`) + strings.Count(r.body, `<div role="menu"`) + strings.Count(r.body, `<div role="listbox"`) +
		strings.Count(r.body, `<div role="toolbar"`) + strings.Count(r.body, `<div role="group"`); g != (n+99)/100 {
		t.Errorf("%d groups, want %d", g, (n+99)/100)
	}
}

func TestStressTable(t *testing.T) {
	st := startStress(t)
	c := newClient(t)
	r := c.get(st.URL() + "/stress/table/300")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, "<h1>Stress table</h1>", "<caption>Invoices</caption>",
		"<tr><th>Invoice</th><th>Customer</th><th>Amount</th><th>Status</th></tr>",
		"<tr><td>INV-1</td><td>Customer 1</td><td>1.00 EUR</td><td>Open</td></tr>",
		"<tr><td>INV-300</td><td>Customer 300</td><td>300.00 EUR</td><td>Paid</td></tr>")
	wantNotContains(t, r, "INV-301", "INV-0")
	if rows := strings.Count(r.body, "<tr>"); rows != 301 {
		t.Errorf("%d rows, want 301", rows)
	}
}

func TestStressControls(t *testing.T) {
	st := startStress(t)
	c := newClient(t)
	const n = 5000
	r := c.get(fmt.Sprintf("%s/stress/controls/%d", st.URL(), n))
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, "<h1>Stress controls</h1>",
		`<label for="ctl-1">Field 1</label><input id="ctl-1"`,
		`<button type="button" id="ctl-2">Action 1</button>`,
		`<a id="ctl-3" href="#ctl-3">Link 1</a>`,
		`<label for="ctl-4">Choice 1</label><select id="ctl-4"`,
		`<input id="ctl-5" name="ctl-5" type="checkbox"><label for="ctl-5">Option 1</label>`,
		`id="ctl-5000"`)
	wantNotContains(t, r, `id="ctl-5001"`, `id="ctl-0"`)
	controls := strings.Count(r.body, "<input ") + strings.Count(r.body, "<button ") +
		strings.Count(r.body, "<a ") + strings.Count(r.body, "<select ")
	if controls != n {
		t.Errorf("%d controls, want %d", controls, n)
	}
	idents := StressIdentifierLabels(n)
	if len(idents) != 200 {
		t.Errorf("%d identifier labels, want 200", len(idents))
	}
	emails, ibans := 0, 0
	for _, l := range idents {
		if !strings.Contains(r.body, ">"+l+"</label>") {
			t.Errorf("label %q not rendered", l)
		}
		switch {
		case strings.HasSuffix(l, "@example.com"):
			emails++
		case strings.HasPrefix(l, "IT") && len(l) == 27:
			ibans++
		default:
			t.Errorf("unexpected identifier %q", l)
		}
	}
	if emails != 100 || ibans != 100 {
		t.Errorf("emails %d ibans %d", emails, ibans)
	}
	if StressIdentifierLabels(0) != nil || StressIdentifierLabels(MaxStressControls+1) != nil {
		t.Error("out-of-range n returned labels")
	}
}

func TestItalianIBAN(t *testing.T) {
	// The canonical Italian example IBAN.
	if got := italianIBAN(123456); got != "IT60X0542811101000000123456" {
		t.Errorf("italianIBAN(123456) = %s", got)
	}
	for k := range 50 {
		s := italianIBAN(k)
		if ibanCheck(s[:2], s[4:]) != s[2:4] {
			t.Errorf("%s fails its own check", s)
		}
	}
}

func TestStressComponents(t *testing.T) {
	st := startStress(t)
	c := newClient(t)
	for _, n := range []int{0, 1, 120} {
		r := c.get(fmt.Sprintf("%s/stress/components/%d", st.URL(), n))
		wantStatus(t, r, http.StatusOK)
		wantContains(t, r, "<h1>Componenti</h1>", `<sync-panel id="panel"></sync-panel>`,
			`<template shadowrootmode="open">`, `<closed-widget id="closed-host"></closed-widget>`,
			`<script src="/assets/components.js"></script>`)
		if got := strings.Count(r.body, "<button type=\"button\">Voce "); got != n {
			t.Errorf("n=%d: %d light buttons", n, got)
		}
		if n > 0 {
			wantContains(t, r, fmt.Sprintf(">Voce %d</button>", n))
		}
		wantNotContains(t, r, fmt.Sprintf(">Voce %d</button>", n+1))
	}
	js := c.get(st.URL() + "/assets/components.js")
	wantStatus(t, js, http.StatusOK)
	wantContains(t, js, "attachShadow({ mode: 'open' })", "attachShadow({ mode: 'closed' })",
		"customElements.define('sync-panel'", "'Sincronizzazione completata'", "this._internals.role = 'button'")
}

func TestStressBadParams(t *testing.T) {
	st := startStress(t)
	c := newClient(t)
	for _, p := range []string{
		"/stress/nodes/0", "/stress/nodes/-1", "/stress/nodes/+5", "/stress/nodes/1e3",
		"/stress/nodes/200001", "/stress/nodes/99999999999999999999", "/stress/nodes/abc",
		"/stress/controls/0", "/stress/controls/50001", "/stress/slow/60001", "/stress/slow/x",
		"/stress/components/-1", "/stress/components/50001", "/stress/components/x",
		"/stress/widgets/0", "/stress/widgets/50001", "/stress/widgets/x",
		"/stress/table/0", "/stress/table/20001", "/stress/table/x",
	} {
		wantStatus(t, c.get(st.URL()+p), http.StatusBadRequest)
	}
	wantStatus(t, c.get(st.URL()+"/stress/nodes"), http.StatusNotFound)
}

func FuzzPathCount(f *testing.F) {
	for _, s := range []string{"", "0", "1", "10000", "-1", "+1", "1e3", "٣", "999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := pathCount(s, 1, MaxStressNodes)
		if !ok {
			return
		}
		if n < 1 || n > MaxStressNodes || fmt.Sprint(n) != strings.TrimLeft(s, "0") {
			t.Fatalf("pathCount(%q) = %d", s, n)
		}
	})
}

func TestStressSlowNeverAndProbe(t *testing.T) {
	st := startStress(t)
	c := newClient(t)
	r := c.get(st.URL() + "/stress/slow/5")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, "<h1>Slow page</h1>", "<p>Loaded after 5 ms</p>")

	r = c.get(st.URL() + "/stress/never-settles")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, "<h1>Never settles</h1>",
		`<button type="button" id="never-ready" disabled>Never ready</button>`, `src="/assets/never.js"`)
	js := c.get(st.URL() + "/assets/never.js")
	wantContains(t, js, "setInterval", "}, 10);", "fetch('/stress/hang'")

	r = c.get(st.URL() + "/stress/probe")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r,
		`<label for="full-name">Full name</label>`, `<label for="email">Email</label>`,
		`<label for="country">Country</label>`, `<select id="country"`,
		`<input id="subscribe" name="subscribe" type="checkbox"><label for="subscribe">Subscribe</label>`,
		`<button type="button" id="save">Save</button>`)
	wantNotContains(t, r, "<h1>", "<h2>")
	js = c.get(st.URL() + "/assets/probe.js")
	wantContains(t, js, "window.__veraProbe = probe", "MutationObserver",
		"'click', 'input', 'change', 'keydown', 'focusin'")

	// /stress/hang holds until the client gives up.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, st.URL()+"/stress/hang", nil)
	if _, err := c.hc.Do(req); err == nil {
		t.Error("/stress/hang answered")
	}
}

// TestStressCloseWithPendingRequests proves Close returns while /stress/hang
// and a long /stress/slow are in flight.
func TestStressCloseWithPendingRequests(t *testing.T) {
	st, err := StartStress()
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(t)
	done := make(chan struct{}, 2)
	for _, p := range []string{"/stress/hang", "/stress/slow/60000"} {
		go func() {
			resp, err := c.hc.Get(st.URL() + p)
			if err == nil {
				resp.Body.Close()
			}
			done <- struct{}{}
		}()
	}
	for st.TotalHits() < 2 {
		time.Sleep(time.Millisecond)
	}
	st.Close()
	<-done
	<-done
}

package browser

import (
	"context"
	"encoding/json"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// rebindDNS answers rebindHost with 127.0.0.1 until flip, then with
// 127.0.0.2; every other name is unknown.
type rebindDNS struct{ flipped atomic.Bool }

const rebindHost = "rebind.test"

func (r *rebindDNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if host != rebindHost {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	if r.flipped.Load() {
		return []netip.Addr{netip.MustParseAddr("127.0.0.2")}, nil
	}
	return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
}

// technique is one way a page tries to reach the forbidden origin.
type technique struct {
	name  string
	path  string // on the Teller ("" = the Outside page itself)
	click string // accessible "role:name" of the control to click, if any
	// wait is text the page shows once the attempt is over (the run's
	// last action waits for it).
	wait string
	// silent: the browser opens no connection for it at all, so there
	// is nothing to refuse or report (preconnect hints, see doc.go).
	silent bool
	rebind bool
}

var escapeCorpus = []technique{
	{name: "redirect", path: testsite.EscapeRedirect},
	{name: "js-redirect", path: testsite.EscapeJSRedirect, wait: "JS redirect escape"},
	{name: "popup", path: testsite.EscapePopup, click: "button:Open popup", wait: "Popup escape"},
	{name: "iframe", path: testsite.EscapeIframe, wait: "Iframe escape"},
	{name: "form", path: testsite.EscapeForm, click: "button:Send", wait: "Form escape"},
	{name: "link", path: testsite.EscapeLink, click: "link:Leave", wait: "Link escape"},
	{name: "subresource", path: testsite.EscapeSubresource, wait: "Subresources"},
	{name: "worker-websocket", path: testsite.EscapeWorkerWS, wait: "Worker WebSocket:"},
	{name: "service-worker", path: testsite.EscapeServiceWorker, wait: "Service worker ready, WebSocket"},
	{name: "preconnect", path: testsite.EscapePreconnect, wait: "Hints given", silent: true},
	{name: "rebinding", path: testsite.EscapeRebind, click: "button:Fetch data", wait: "Rebind done", rebind: true},
}

// escapeCapability is a read-only capability that starts on start,
// clicks click (if any) and reads the text wait (which it waits for).
func escapeCapability(t *testing.T, origins []string, start string, tc technique) *capability.Capability {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "capability", "testdata", "valid", "teller_member_balances.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	c["id"] = "escape." + tc.name
	c["site"].(map[string]any)["allowed_origins"] = origins
	rt := c["runtime"].(map[string]any)
	rt["start"] = start
	rt["action_timeout_ms"] = 8000
	c["inputs"] = []any{}
	delete(c, "business_outcomes")
	c["outputs"] = []any{map[string]any{"name": "status", "kind": "text", "exposure": "artifact_only", "description": "What the page shows", "required": true}}
	wait := tc.wait
	if wait == "" {
		wait = "Outside page"
	}
	var actions []any
	if tc.click != "" {
		r, n, _ := strings.Cut(tc.click, ":")
		actions = append(actions, map[string]any{
			"id": "click", "operation": "click", "intent": "Start the escape", "effect": "read_only", "confirmation": "none",
			"locator_candidates": []any{map[string]any{"strategy": "role", "role": r, "name": n, "exact": true}},
			"postcondition":      map[string]any{"kind": "text_visible", "text": wait},
		})
	}
	actions = append(actions, map[string]any{
		"id": "read", "operation": "extract", "intent": "Read what the page shows", "effect": "read_only", "confirmation": "none",
		"locator_candidates": []any{map[string]any{"strategy": "text", "text": wait}},
		"output":             "status",
		"extract":            map[string]any{"mode": "text"},
		"postcondition":      map[string]any{"kind": "output_produced", "output": "status"},
	})
	c["milestones"] = []any{map[string]any{"id": "escape", "intent": "Load the escape page", "actions": actions}}
	b, _ := json.Marshal(c)
	capa, err := capability.ParseBytes(b)
	if err != nil {
		t.Fatalf("capability: %v", err)
	}
	return capa
}

// recordingDriver records every violation Execute drains.
type recordingDriver struct {
	*Driver
	mu  sync.Mutex
	got []runtime.Violation
}

func (r *recordingDriver) Violations(ctx context.Context) ([]runtime.Violation, error) {
	v, err := r.Driver.Violations(ctx)
	r.mu.Lock()
	r.got = append(r.got, v...)
	r.mu.Unlock()
	return v, err
}

// TestNetworkGateCorpus runs every escape technique through Execute, in
// launch and connect mode, each with a fresh driver (a service worker
// outlives its page within a browser context): the forbidden servers'
// listeners accept no connection, the driver reports the technique, and
// the run is neither clean nor free of blocked requests.
func TestNetworkGateCorpus(t *testing.T) {
	requireBrowser(t)
	s := sites(t)
	tellerPort := s.Teller.URL()[strings.LastIndex(s.Teller.URL(), ":")+1:]
	evil, err := testsite.StartOutsideAt("127.0.0.2:" + tellerPort)
	if err != nil {
		t.Skipf("no second loopback address: %v", err)
	}
	defer evil.Close()
	rebindOrigin := "http://" + rebindHost + ":" + tellerPort

	ext := startExternal(t)
	open := map[string]func(ctx context.Context, opts ...Option) (*Driver, error){
		"launch":  func(ctx context.Context, opts ...Option) (*Driver, error) { return Launch(ctx, opts...) },
		"connect": func(ctx context.Context, opts ...Option) (*Driver, error) { return Connect(ctx, ext.endpoint, opts...) },
	}
	for _, mode := range []string{"launch", "connect"} {
		for _, tc := range escapeCorpus {
			t.Run(mode+"/"+tc.name, func(t *testing.T) {
				ctx := tctx(t, 60*time.Second)
				s.Outside.ResetHits()
				evil.ResetHits()
				dns := &rebindDNS{}
				d, err := open[mode](ctx, withResolver(dns))
				if err != nil {
					t.Fatal(err)
				}
				closed := false
				defer func() {
					if !closed {
						d.Close()
					}
				}()
				if tc.rebind {
					// A capability cannot name a plain-http host other than
					// loopback, so the rebinding name is driven directly.
					got := rebind(t, ctx, d, dns, s.Teller.Origin(), rebindOrigin)
					if err := d.Close(); err != nil {
						t.Errorf("Close: %v", err)
					}
					closed = true
					if n := evil.Connections(); n != 0 {
						t.Errorf("the rebinding address accepted %d connections (%d requests)", n, evil.TotalHits())
					}
					want := runtime.Violation{Kind: runtime.ViolationSubresource, Origin: rebindOrigin}
					if !slices.Contains(got, want) {
						t.Errorf("no %v among %v", want, got)
					}
					return
				}
				c := escapeCapability(t, []string{s.Teller.Origin()}, s.Teller.URL()+tc.path, tc)
				rd := &recordingDriver{Driver: d}
				res := execute(t, ctx, rd, c, nil)
				late, _ := d.Violations(ctx)
				got := append(rd.got, late...)
				// Closing the driver ends every page, worker and
				// connection of its context before the counters are read.
				if err := d.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
				closed = true
				if n := s.Outside.Connections(); n != 0 {
					t.Errorf("Outside accepted %d connections (%d requests %v)", n, s.Outside.TotalHits(), s.Outside.Requests())
				}
				t.Logf("%s: violations %v", describeResult(res), got)
				if tc.silent {
					return
				}
				if len(got) == 0 {
					t.Errorf("no violation reported")
				}
				if res.Clean || res.BlockedRequests < 1 {
					t.Errorf("run %s: clean=%v blocked_requests=%d, want not clean and >= 1", describeResult(res), res.Clean, res.BlockedRequests)
				}
			})
		}
	}
}

// rebind loads the rebinding page by name (which resolves to 127.0.0.1,
// a listed address), then points the name at 127.0.0.2 and lets the page
// fetch from its own origin again: each fresh connection is resolved
// again and refused. It returns the violations reported.
func rebind(t *testing.T, ctx context.Context, d *Driver, dns *rebindDNS, teller, name string) []runtime.Violation {
	t.Helper()
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{teller, name}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, name+testsite.EscapeRebind); err != nil {
		t.Fatal(err)
	}
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	findOne(t, ctx, d, top, locator.Candidate{Strategy: locator.Text, Text: "Loaded"})
	dns.flipped.Store(true)
	if err := d.Act(ctx, findOne(t, ctx, d, top, role("button", "Fetch data")), runtime.Act{Kind: runtime.ActClick}); err != nil {
		t.Fatal(err)
	}
	status := findOne(t, ctx, d, top, locator.Candidate{Strategy: locator.Text, Text: "Rebind done"})
	text, err := d.Read(ctx, status, runtime.Read{Kind: runtime.ReadText})
	if err != nil {
		t.Fatal(err)
	}
	// Connections opened before the switch may carry a fetch (to the
	// address they were opened to); every new one is refused.
	if !strings.Contains(text, "status 403") {
		t.Errorf("no fetch after the rebinding was refused: %q", text)
	}
	v, err := d.Violations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestNetworkGateControl is the control of the corpus: with the network
// gate off (interception and the connect policy only), a dedicated
// worker's WebSocket reaches the forbidden server, unreported. The
// counter the corpus relies on does see it.
func TestNetworkGateControl(t *testing.T) {
	requireBrowser(t)
	s := sites(t)
	ctx := tctx(t, 60*time.Second)
	d, err := Launch(ctx, withoutGate())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{s.Teller.Origin()}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, s.Teller.URL()+testsite.EscapeWorkerWS); err != nil {
		t.Fatal(err)
	}
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	findOne(t, ctx, d, top, locator.Candidate{Strategy: locator.Text, Text: "Worker WebSocket:"})
	v, _ := d.Violations(ctx)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if n := s.Outside.Connections(); n == 0 {
		t.Errorf("without the gate the worker's WebSocket opened no connection (violations %v): the corpus would prove nothing", v)
	}
	t.Logf("without the gate: %d connections, %d requests, violations %v", s.Outside.Connections(), s.Outside.TotalHits(), v)
}

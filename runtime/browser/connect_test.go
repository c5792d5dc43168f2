package browser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/internal/chromeproc"
	"github.com/vera-run/vera/runtime"
)

// external is a Chromium the test starts itself with chromeproc, standing
// in for an operator's Chrome: Connect must never own it.
type external struct {
	*chromeproc.Process
	endpoint string // http://127.0.0.1:PORT
}

func startExternal(t testing.TB) *external {
	t.Helper()
	bin := requireBrowser(t)
	p, err := chromeproc.Start(tctx(t, 30*time.Second), chromeproc.WithPath(bin))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Error(err)
		}
	})
	return &external{Process: p, endpoint: p.HTTPEndpoint()}
}

// alive reports whether the browser still runs and answers on its
// DevTools endpoint.
func (e *external) alive(t *testing.T) bool {
	t.Helper()
	if !e.Alive() {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.endpoint+"/json/version", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	res.Body.Close()
	return res.StatusCode == 200
}

func TestConnectLeavesBrowserAlive(t *testing.T) {
	ext := startExternal(t)
	s := sites(t)
	ctx := tctx(t, 30*time.Second)

	d, err := Connect(ctx, ext.endpoint)
	if err != nil {
		t.Fatal(err)
	}
	info := d.Info()
	if info.Mode != runtime.ModeLiveConnected || info.DownloadRoute != runtime.DownloadDirectory {
		t.Fatalf("info = %+v", info)
	}
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{s.Teller.Origin()}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, s.Teller.URL()+"/login"); err != nil {
		t.Fatal(err)
	}
	top, _, _ := d.Frame(ctx, nil)
	findOne(t, ctx, d, top, role("textbox", "Username"))
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if !ext.alive(t) {
		t.Fatal("the external browser died on Close")
	}

	// Connect again through the ws:// URL and use it.
	d2, err := Connect(ctx, ext.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	if err := d2.Navigate(ctx, s.Teller.URL()+"/login"); err != nil {
		t.Fatal(err)
	}
	// The second driver's context is fresh: the first run's page is gone.
	top2, _, _ := d2.Frame(ctx, nil)
	findOne(t, ctx, d2, top2, role("button", "Sign in"))
	if err := d2.Close(); err != nil {
		t.Fatal(err)
	}
	if !ext.alive(t) {
		t.Fatal("the external browser died on the second Close")
	}
}

func TestConnectEndpointRules(t *testing.T) {
	cases := []struct {
		in     string
		remote bool
		ok     bool
	}{
		{"http://127.0.0.1:9222", false, true},
		{"http://localhost:9222/", false, true},
		{"http://[::1]:9222", false, true},
		{"ws://127.0.0.1:9222/devtools/browser/abc", false, true},
		{"http://127.0.0.1", false, false},
		{"http://10.0.0.5:9222", false, false},
		{"ws://grid.example.com:4444/devtools/browser/x", false, false},
		{"ws://grid.example.com:4444/devtools/browser/x", true, true},
		{"wss://grid.example.com/session?token=t", true, true},
		{"http://grid.example.com:9222", true, false},
		{"ftp://127.0.0.1:21", false, false},
		{"127.0.0.1:9222", false, false},
		{"", false, false},
		{"http://user:pw@127.0.0.1:9222", false, false},
	}
	for _, c := range cases {
		_, err := parseEndpoint(c.in, c.remote)
		if (err == nil) != c.ok {
			t.Errorf("parseEndpoint(%q, remote=%v) = %v, want ok=%v", c.in, c.remote, err, c.ok)
		}
		var ee *EndpointError
		if err != nil && (!errors.Is(err, ErrEndpointNotAllowed) || !errors.As(err, &ee)) {
			t.Errorf("parseEndpoint(%q): untyped error %v", c.in, err)
		}
		if err != nil && strings.Contains(err.Error(), "token") {
			t.Errorf("error leaks the query: %v", err)
		}
	}
	ctx := tctx(t, 5*time.Second)
	if _, err := Connect(ctx, "http://10.1.2.3:9222"); !errors.Is(err, ErrEndpointNotAllowed) {
		t.Errorf("Connect remote without option: %v", err)
	}
	// A loopback port nobody listens on: unavailable.
	if _, err := Connect(ctx, "http://127.0.0.1:1"); !errors.Is(err, runtime.ErrBrowserUnavailable) {
		t.Errorf("Connect to a closed port: %v", err)
	}
}

// TestConnectTwoDrivers runs two drivers on one external browser at once:
// each blocks its own page's escapes even though the other driver's
// browser-level auto-attach sees (and releases) its targets.
func TestConnectTwoDrivers(t *testing.T) {
	ext := startExternal(t)
	s := sites(t)
	ctx := tctx(t, 30*time.Second)
	var ds []*Driver
	for range 2 {
		d, err := Connect(ctx, ext.endpoint)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{s.Teller.Origin()}}); err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	errc := make(chan error, 2)
	for _, d := range ds {
		go func() {
			if err := d.Navigate(ctx, s.Teller.URL()+"/escape/popup"); err != nil {
				errc <- err
				return
			}
			top, _, err := d.Frame(ctx, nil)
			if err != nil {
				errc <- err
				return
			}
			els, err := d.Find(ctx, top, nil, role("button", "Open popup"))
			if err != nil || len(els) != 1 {
				errc <- fmt.Errorf("find: %d %v", len(els), err)
				return
			}
			errc <- d.Act(ctx, els[0], runtime.Act{Kind: runtime.ActClick})
		}()
	}
	for range ds {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range ds {
		v := waitViolations(t, ctx, d, 1)
		if v[0].Kind != runtime.ViolationPopup {
			t.Errorf("violations = %v", v)
		}
	}
	time.Sleep(200 * time.Millisecond)
	if n := s.Outside.TotalHits(); n != 0 {
		t.Fatalf("Outside received %d requests", n)
	}
}

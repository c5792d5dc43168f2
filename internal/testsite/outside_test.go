package testsite

import (
	"bytes"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestOutsideServesAndCounts(t *testing.T) {
	o, err := StartOutside()
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	c := newClient(t)
	tests := []struct {
		method, path, ctype, contains string
	}{
		{"GET", "/pixel.png", "image/png", "\x89PNG"},
		{"GET", "/script.js", "text/javascript; charset=utf-8", "__outsideLoaded"},
		{"GET", "/page", "text/html; charset=utf-8", "<h1>Outside page</h1>"},
		{"POST", "/submit", "text/html; charset=utf-8", "<h1>Outside received</h1>"},
		{"GET", "/anything/else", "text/plain; charset=utf-8", "outside"},
		{"GET", "/favicon.ico", "text/plain; charset=utf-8", "outside"},
		{"PUT", "/page", "text/html; charset=utf-8", "Outside page"},
	}
	for _, tc := range tests {
		var r response
		if tc.method == "GET" {
			r = c.get(o.URL() + tc.path)
		} else {
			req, _ := http.NewRequest(tc.method, o.URL()+tc.path, bytes.NewBufferString("note=x"))
			r = c.do(req)
		}
		wantStatus(t, r, http.StatusOK)
		if got := r.header.Get("Content-Type"); got != tc.ctype {
			t.Errorf("%s %s Content-Type = %q, want %q", tc.method, tc.path, got, tc.ctype)
		}
		wantContains(t, r, tc.contains)
	}
	if o.Hits("/page") != 2 || o.Hits("/submit") != 1 || o.TotalHits() != len(tests) {
		t.Errorf("hits: /page=%d /submit=%d total=%d", o.Hits("/page"), o.Hits("/submit"), o.TotalHits())
	}
	if reqs := o.Requests(); len(reqs) != len(tests) || reqs[3].Method != "POST" || reqs[3].Path != "/submit" {
		t.Errorf("Requests = %+v", reqs)
	}
	if n := o.Connections(); n < 1 || n > len(tests) {
		t.Errorf("Connections = %d, want 1..%d", n, len(tests))
	}
	o.ResetHits()
	if o.Connections() != 0 || o.TotalHits() != 0 {
		t.Errorf("after ResetHits: %d connections, %d hits", o.Connections(), o.TotalHits())
	}
}

// TestOutsideCountsBareConnections: a connection that never sends a
// request (a browser's preconnect) is still counted.
func TestOutsideCountsBareConnections(t *testing.T) {
	o, err := StartOutside()
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	conn, err := net.Dial("tcp", strings.TrimPrefix(o.Origin(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	deadline := time.Now().Add(5 * time.Second)
	for o.Connections() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if o.Connections() != 1 || o.TotalHits() != 0 {
		t.Errorf("a bare connection: %d connections, %d hits; want 1, 0", o.Connections(), o.TotalHits())
	}
}

func TestEscapePages(t *testing.T) {
	o, err := StartOutside()
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	tl := startTeller(t, WithOutsideOrigin(o.Origin()+"/"))
	c := newClient(t)
	out := o.Origin()

	wantRedirect(t, c.get(tl.URL()+EscapeRedirect), http.StatusFound, out+"/page")

	tests := []struct {
		path      string
		fragments []string
	}{
		{EscapeJSRedirect, []string{"<h1>JS redirect escape</h1>", `data-escape="js-redirect"`, `data-outside="` + out + `"`, `src="/assets/escape.js"`}},
		{EscapePopup, []string{"<h1>Popup escape</h1>", `<button type="button" id="open-popup">Open popup</button>`, `data-outside="` + out + `"`}},
		{EscapeIframe, []string{"<h1>Iframe escape</h1>", `title="Outside frame" src="` + out + `/page"`}},
		{EscapeForm, []string{"<h1>Form escape</h1>", `method="post" action="` + out + `/submit"`, `<button type="submit">Send</button>`}},
		{EscapeSubresource, []string{"<h1>Subresources</h1>", `<img src="` + out + `/pixel.png"`, `<script src="` + out + `/script.js"></script>`}},
		{EscapeLink, []string{"<h1>Link escape</h1>", `<a href="` + out + `/page">Leave</a>`}},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			r := c.get(tl.URL() + tc.path)
			wantStatus(t, r, http.StatusOK)
			wantContains(t, r, tc.fragments...)
		})
	}
	// Loading the pages server-side never touches Outside.
	if o.TotalHits() != 0 {
		t.Errorf("Outside hits = %d, want 0", o.TotalHits())
	}
	r := c.get(tl.URL() + "/assets/escape.js")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, "window.open(", "location.href")
}

func TestEscapePagesWithoutOutside(t *testing.T) {
	tl := startTeller(t)
	c := newClient(t)
	for _, p := range []string{EscapeRedirect, EscapeLink, EscapeSubresource} {
		wantStatus(t, c.get(tl.URL()+p), http.StatusServiceUnavailable)
	}
	tl.SetOutsideOrigin("http://127.0.0.1:9")
	r := c.get(tl.URL() + EscapeLink)
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, `href="http://127.0.0.1:9/page"`)
}

func TestOutsideCountsConnections(t *testing.T) {
	o, err := StartOutside()
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	// A connection that never sends a request (a preconnect) counts.
	conn, err := net.Dial("tcp", strings.TrimPrefix(o.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	deadline := time.Now().Add(5 * time.Second)
	for o.Connections() != 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := o.Connections(); n != 1 || o.TotalHits() != 0 {
		t.Fatalf("connections %d, hits %d; want 1, 0", n, o.TotalHits())
	}
	o.ResetHits()
	if o.Connections() != 0 {
		t.Error("ResetHits kept the connection count")
	}
}

func TestStartOutsideAt(t *testing.T) {
	o, err := StartOutsideAt("127.0.0.2:0")
	if err != nil {
		t.Skipf("no 127.0.0.2: %v", err)
	}
	defer o.Close()
	if !strings.HasPrefix(o.Origin(), "http://127.0.0.2:") {
		t.Fatalf("origin %s", o.Origin())
	}
	r := newClient(t).get(o.URL() + "/page")
	wantStatus(t, r, http.StatusOK)
	if o.Connections() != 1 || o.Hits("/page") != 1 {
		t.Errorf("connections %d hits %d", o.Connections(), o.Hits("/page"))
	}
}

func TestNetworkEscapePages(t *testing.T) {
	o, err := StartOutside()
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	tl := startTeller(t, WithOutsideOrigin(o.Origin()))
	c := newClient(t)
	hp := strings.TrimPrefix(o.Origin(), "http://")
	for path, frags := range map[string][]string{
		EscapeWorkerWS:      {"<h1>Worker WebSocket escape</h1>", `data-escape="worker-ws"`, `role="status"`},
		EscapeServiceWorker: {"<h1>Service worker escape</h1>", `data-escape="service-worker"`},
		EscapePreconnect:    {`<link rel="preconnect" href="` + o.Origin() + `">`, `<link rel="preconnect" href="https://` + hp + `">`, `<link rel="dns-prefetch" href="` + o.Origin() + `">`},
		EscapeRebind:        {"<h1>Rebinding page</h1>", `<button type="button" id="fetch-data">Fetch data</button>`},
	} {
		r := c.get(tl.URL() + path)
		wantStatus(t, r, http.StatusOK)
		wantContains(t, r, frags...)
	}
	r := c.get(tl.URL() + "/escape/sw.js")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, "WebSocket", "clients.claim")
	if got := r.header.Get("Content-Type"); got != "text/javascript; charset=utf-8" {
		t.Errorf("sw.js Content-Type %q", got)
	}
	r = c.get(tl.URL() + "/escape/rebind/data/3")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, "data 3")
	r = c.get(tl.URL() + "/assets/escape-worker.js")
	wantStatus(t, r, http.StatusOK)
	if o.TotalHits() != 0 || o.Connections() != 0 {
		t.Errorf("serving the pages touched Outside: %d hits, %d connections", o.TotalHits(), o.Connections())
	}
}

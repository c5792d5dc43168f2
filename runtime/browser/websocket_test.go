package browser

import (
	"crypto/sha1"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vera-run/vera/runtime"
)

// wsServer is an httptest server that answers WebSocket handshakes on /ws
// (and keeps the connections until Close) and serves the page given.
type wsServer struct {
	*httptest.Server
	handshakes atomic.Int64
	hits       atomic.Int64
	mu         sync.Mutex
	conns      []net.Conn
}

func newWSServer(t *testing.T, page func(path string) string) *wsServer {
	t.Helper()
	s := &wsServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		if r.URL.Path == "/ws" {
			s.handshakes.Add(1)
			sum := sha1.Sum([]byte(r.Header.Get("Sec-WebSocket-Key") + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
			conn, buf, err := http.NewResponseController(w).Hijack()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns = append(s.conns, conn)
			s.mu.Unlock()
			fmt.Fprintf(buf, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n",
				base64.StdEncoding.EncodeToString(sum[:]))
			_ = buf.Flush()
			return
		}
		if page == nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page(r.URL.Path))
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *wsServer) Close() {
	s.mu.Lock()
	for _, c := range s.conns {
		c.Close()
	}
	s.conns = nil
	s.mu.Unlock()
	s.Server.Close()
}

func wsURL(httpOrigin string) string { return "ws" + strings.TrimPrefix(httpOrigin, "http") + "/ws" }

// TestWebSocketScope: WebSocket handshakes are not Fetch requests, so the
// driver gives every document the scope's connect-src policy. A page on
// an allowed origin may open a WebSocket to its own origin; one to an
// origin outside the scope, from the page, an about:blank frame, a srcdoc
// frame or a blob: worker, never reaches the network and is recorded as
// a subresource violation. A new scope replaces the policy.
func TestWebSocketScope(t *testing.T) {
	t.Parallel()
	d := shared(t)
	ctx := tctx(t, 30*time.Second)
	outside := newWSServer(t, nil)
	out := wsURL(outside.URL)
	var site *wsServer
	site = newWSServer(t, func(string) string {
		return `<!doctype html><html><head><title>ws</title></head><body><h1>WebSocket probe</h1><script>
window.__ws = {};
const out = ` + fmt.Sprintf("%q", out) + `;
const open = (name, url, ctor) => {
  try {
    const s = new (ctor || WebSocket)(url);
    s.onopen = () => { window.__ws[name] = "open"; };
    s.onerror = () => { window.__ws[name] = "error"; };
  } catch (e) { window.__ws[name] = "threw " + e.name; }
};
open("self", ` + fmt.Sprintf("%q", wsURL(site.URL)) + `);
open("top", out);
const blank = document.createElement("iframe");
document.body.append(blank);
open("blank", out, blank.contentWindow.WebSocket);
const doc = document.createElement("iframe");
doc.srcdoc = "<script>new WebSocket(" + JSON.stringify(out) + ")<\/script>";
document.body.append(doc);
new Worker(URL.createObjectURL(new Blob(["new WebSocket(" + JSON.stringify(out) + ")"], {type: "text/javascript"})));
</script></body></html>`
	})

	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{site.URL}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, site.URL+"/probe"); err != nil {
		t.Fatal(err)
	}
	// Four attempts outside the scope: page, about:blank frame, srcdoc
	// frame, blob worker.
	got := waitViolations(t, ctx, d, 4)
	for _, v := range got {
		if v != (runtime.Violation{Kind: runtime.ViolationSubresource, Origin: "ws" + strings.TrimPrefix(outside.URL, "http")}) {
			t.Errorf("violation %+v", v)
		}
	}
	var state struct {
		WS    map[string]string `json:"ws"`
		Metas int               `json:"metas"`
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		obsEval(t, ctx, d, `({ws: window.__ws, metas: document.querySelectorAll("meta[http-equiv]").length})`, &state)
		if state.WS["self"] != "" || time.Now().After(deadline) {
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	if state.WS["self"] != "open" {
		t.Errorf("same-origin WebSocket: %q, want open (all: %v)", state.WS["self"], state.WS)
	}
	for _, k := range []string{"top", "blank"} {
		if state.WS[k] == "open" {
			t.Errorf("%s: WebSocket outside the scope opened", k)
		}
	}
	if state.Metas != 0 {
		t.Errorf("the page sees %d policy elements", state.Metas)
	}
	time.Sleep(100 * time.Millisecond)
	if n := outside.hits.Load(); n != 0 {
		t.Fatalf("the outside server received %d requests", n)
	}
	if n := site.handshakes.Load(); n != 1 {
		t.Errorf("allowed origin: %d handshakes, want 1", n)
	}

	time.Sleep(200 * time.Millisecond)
	if v, _ := d.Violations(ctx); len(v) != 0 {
		t.Errorf("more violations than attempts: %v", v)
	}

	// A scope that lists the other origin for subresources: its
	// WebSockets are allowed and nothing is recorded.
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{site.URL}, Subresources: []string{outside.URL}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, site.URL+"/probe"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); outside.handshakes.Load() < 4 && time.Now().Before(deadline); {
		time.Sleep(25 * time.Millisecond)
	}
	if n := outside.handshakes.Load(); n != 4 {
		t.Errorf("subresource origin: %d handshakes, want 4", n)
	}
	if v, _ := d.Violations(ctx); len(v) != 0 {
		t.Errorf("violations with the origin in scope: %v", v)
	}
}

func TestConnectPolicy(t *testing.T) {
	cases := []struct {
		scope runtime.OriginScope
		want  string
	}{
		{runtime.OriginScope{Allowed: []string{"https://A.example:443/", "http://127.0.0.1:8080"}, Subresources: []string{"https://cdn.example"}},
			"connect-src http://127.0.0.1:8080 https://a.example https://cdn.example ws://127.0.0.1:8080 wss://a.example wss://cdn.example blob: data:"},
		{runtime.OriginScope{Allowed: []string{"http://[::1]:9000"}},
			"connect-src http://[::1]:9000 ws://[::1]:9000 blob: data:"},
		{runtime.OriginScope{}, "connect-src blob: data:"},
	}
	for _, c := range cases {
		sc, err := newOriginScope(c.scope)
		if err != nil {
			t.Fatal(err)
		}
		if sc.csp != c.want {
			t.Errorf("%+v: policy %q, want %q", c.scope, sc.csp, c.want)
		}
		if s := policyScript(sc.csp); !strings.Contains(s, `"`+c.want+`"`) {
			t.Errorf("the script does not carry the policy as a string literal: %s", s)
		}
	}
}

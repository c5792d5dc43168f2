package netgate

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// countingListener counts accepted connections.
type countingListener struct {
	net.Listener
	n atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

// server is an httptest server on addr (host:port) that counts the TCP
// connections it accepted and echoes what it saw.
type server struct {
	*httptest.Server
	ln *countingListener
}

func startServer(t *testing.T, addr string, tlsOn bool, h http.Handler) *server {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("listen %s: %v", addr, err)
	}
	cl := &countingListener{Listener: ln}
	if h == nil {
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Keep-Alive", "timeout=5")
			w.Header().Set("Connection", "X-Secret")
			w.Header().Set("X-Secret", "hop")
			fmt.Fprintf(w, "host=%s proxy-conn=%q keep=%q custom=%q ua=%q", r.Host, r.Header.Get("Proxy-Connection"), r.Header.Get("Keep-Alive"), r.Header.Get("X-Hop"), r.Header.Get("User-Agent"))
		})
	}
	s := &server{Server: &httptest.Server{Listener: cl, Config: &http.Server{Handler: h}}, ln: cl}
	if tlsOn {
		s.StartTLS()
	} else {
		s.Start()
	}
	t.Cleanup(s.Close)
	return s
}

func (s *server) port() uint16 { return uint16(s.Listener.Addr().(*net.TCPAddr).Port) }

// fakeDNS answers from a map; it counts lookups.
type fakeDNS struct {
	mu    sync.Mutex
	addrs map[string][]netip.Addr
	n     atomic.Int64
}

func (f *fakeDNS) set(host string, ips ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.addrs == nil {
		f.addrs = map[string][]netip.Addr{}
	}
	f.addrs[host] = nil
	for _, ip := range ips {
		f.addrs[host] = append(f.addrs[host], netip.MustParseAddr(ip))
	}
}

func (f *fakeDNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	f.n.Add(1)
	f.mu.Lock()
	defer f.mu.Unlock()
	a, ok := f.addrs[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return a, nil
}

type recorder struct {
	mu sync.Mutex
	rs []Refusal
}

func (r *recorder) add(x Refusal) {
	r.mu.Lock()
	r.rs = append(r.rs, x)
	r.mu.Unlock()
}

func (r *recorder) all() []Refusal {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Refusal(nil), r.rs...)
}

func newGate(t *testing.T, dns Resolver) (*Gate, *recorder) {
	t.Helper()
	rec := &recorder{}
	g, err := New(WithRefusalHandler(rec.add), WithResolver(dns))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g, rec
}

func client(g *Gate) *http.Client {
	pu, _ := url.Parse("http://" + g.Addr())
	return &http.Client{
		Timeout: 10 * time.Second,
		Transport: &http.Transport{
			Proxy:           http.ProxyURL(pu),
			TLSClientConfig: &tls.Config{InsecureSkipVerify: true},
		},
	}
}

func get(t *testing.T, c *http.Client, u string, hdr map[string]string) (int, string, error) {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), nil
}

func TestForwardScope(t *testing.T) {
	in := startServer(t, "127.0.0.1:0", false, nil)
	out := startServer(t, "127.0.0.1:0", false, nil)
	g, rec := newGate(t, nil)
	if err := g.SetScope(&Scope{Allowed: []string{in.URL}}); err != nil {
		t.Fatal(err)
	}
	c := client(g)
	defer c.CloseIdleConnections()
	code, body, err := get(t, c, in.URL+"/a", map[string]string{"Connection": "X-Hop", "X-Hop": "1", "Proxy-Connection": "keep-alive"})
	if err != nil || code != 200 {
		t.Fatalf("allowed: %d %v", code, err)
	}
	if !strings.Contains(body, `proxy-conn="" keep="" custom=""`) {
		t.Errorf("hop-by-hop request headers crossed the gate: %s", body)
	}
	if !strings.Contains(body, "host="+strings.TrimPrefix(in.URL, "http://")) {
		t.Errorf("Host not kept: %s", body)
	}
	code, _, err = get(t, c, out.URL+"/b", nil)
	if err != nil || code != http.StatusForbidden {
		t.Fatalf("outside: %d %v", code, err)
	}
	if n := out.ln.n.Load(); n != 0 {
		t.Errorf("the outside server accepted %d connections", n)
	}
	// The Referer's origin is reported (the driver tells an earlier
	// scope's document by it); a malformed one is dropped.
	for _, ref := range []string{"HTTP://LocalHost:8080/page?q=1#f", "::not a url"} {
		if code, _, err = get(t, c, out.URL+"/c", map[string]string{"Referer": ref}); err != nil || code != http.StatusForbidden {
			t.Fatalf("outside with a Referer: %d %v", code, err)
		}
	}
	want := []Refusal{
		{Origin: out.URL, Kind: KindSubresource, Reason: ReasonScope},
		{Origin: out.URL, Kind: KindSubresource, Reason: ReasonScope, Referrer: "http://localhost:8080"},
		{Origin: out.URL, Kind: KindSubresource, Reason: ReasonScope},
	}
	if got := rec.all(); !equal(got, want) {
		t.Errorf("refusals %v, want %v", got, want)
	}
}

func TestForwardResponseHopHeaders(t *testing.T) {
	in := startServer(t, "127.0.0.1:0", false, nil)
	g, _ := newGate(t, nil)
	conn, err := net.Dial("tcp", g.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET %s/x HTTP/1.1\r\nHost: %s\r\n\r\n", in.URL, strings.TrimPrefix(in.URL, "http://"))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.Header.Get("X-Secret") != "" || res.Header.Get("Keep-Alive") != "" {
		t.Errorf("hop-by-hop response headers crossed: %v", res.Header)
	}
	if !strings.Contains(string(b), `ua=""`) {
		t.Errorf("the gate added a User-Agent: %s", b)
	}
}

func TestSubresourceOnlyDocuments(t *testing.T) {
	in := startServer(t, "127.0.0.1:0", false, nil)
	sub := startServer(t, "127.0.0.1:0", false, nil)
	g, rec := newGate(t, nil)
	if err := g.SetScope(&Scope{Allowed: []string{in.URL}, Subresources: []string{sub.URL}}); err != nil {
		t.Fatal(err)
	}
	c := client(g)
	defer c.CloseIdleConnections()
	if code, _, err := get(t, c, sub.URL+"/img", map[string]string{"Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"}); err != nil || code != 200 {
		t.Fatalf("subresource: %d %v", code, err)
	}
	for _, d := range []struct {
		dest string
		kind Kind
	}{{"document", KindNavigation}, {"iframe", KindFrame}} {
		code, _, err := get(t, c, sub.URL+"/doc", map[string]string{"Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": d.dest})
		if err != nil || code != http.StatusForbidden {
			t.Fatalf("%s: %d %v", d.dest, code, err)
		}
	}
	want := []Refusal{{sub.URL, KindNavigation, ReasonScope, ""}, {sub.URL, KindFrame, ReasonScope, ""}}
	if got := rec.all(); !equal(got, want) {
		t.Errorf("refusals %v, want %v", got, want)
	}
}

func TestTunnel(t *testing.T) {
	in := startServer(t, "127.0.0.1:0", true, nil)
	out := startServer(t, "127.0.0.1:0", true, nil)
	g, rec := newGate(t, nil)
	if err := g.SetScope(&Scope{Allowed: []string{in.URL}}); err != nil {
		t.Fatal(err)
	}
	c := client(g)
	defer c.CloseIdleConnections()
	if code, _, err := get(t, c, in.URL+"/", nil); err != nil || code != 200 {
		t.Fatalf("allowed tunnel: %d %v", code, err)
	}
	if _, _, err := get(t, c, out.URL+"/", nil); err == nil {
		t.Fatal("tunnel outside the scope opened")
	}
	if n := out.ln.n.Load(); n != 0 {
		t.Errorf("the outside server accepted %d connections", n)
	}
	want := []Refusal{{Origin: "http://127.0.0.1:" + fmt.Sprint(out.port()), Kind: KindSubresource, Reason: ReasonScope}}
	if got := rec.all(); !equal(got, want) {
		t.Errorf("refusals %v, want %v", got, want)
	}
	// An http origin allows tunnels to its port (ws://).
	plain := startServer(t, "127.0.0.1:0", false, nil)
	if err := g.SetScope(&Scope{Subresources: []string{plain.URL}}); err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", g.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	hp := strings.TrimPrefix(plain.URL, "http://")
	fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\nGET /ws HTTP/1.1\r\nHost: %s\r\n\r\n", hp, hp, hp)
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("CONNECT to an http origin's port: %v %v", res, err)
	}
	res, err = http.ReadResponse(br, nil)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("request through the tunnel (sent with the CONNECT): %v %v", res, err)
	}
	res.Body.Close()
}

// TestRebinding: a name in scope that resolves to a loopback address no
// listed origin names is refused before any connection, and the
// resolution happens once per connection.
func TestRebinding(t *testing.T) {
	legit := startServer(t, "127.0.0.1:0", false, nil)
	evil := startServer(t, fmt.Sprintf("127.0.0.2:%d", legit.port()), false, nil)
	dns := &fakeDNS{}
	dns.set("app.test", "127.0.0.1")
	g, rec := newGate(t, dns)
	app := fmt.Sprintf("http://app.test:%d", legit.port())
	if err := g.SetScope(&Scope{Allowed: []string{legit.URL, app}}); err != nil {
		t.Fatal(err)
	}
	c := client(g)
	defer c.CloseIdleConnections()
	for i := range 3 {
		if code, body, err := get(t, c, app+"/", nil); err != nil || code != 200 || !strings.Contains(body, "host=app.test") {
			t.Fatalf("request %d: %d %q %v", i, code, body, err)
		}
	}
	if n := dns.n.Load(); n != 1 {
		t.Errorf("%d resolutions for one connection, want 1", n)
	}
	// Rebind: the next connection resolves to 127.0.0.2.
	dns.set("app.test", "127.0.0.2")
	c.CloseIdleConnections()
	code, _, err := get(t, c, app+"/", nil)
	if err != nil || code != http.StatusForbidden {
		t.Fatalf("rebound: %d %v", code, err)
	}
	// The same through a tunnel.
	conn, err := net.Dial("tcp", g.Addr())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "CONNECT app.test:%d HTTP/1.1\r\nHost: app.test:%d\r\n\r\n", legit.port(), legit.port())
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	conn.Close()
	if err != nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("rebound tunnel: %v %v", res, err)
	}
	if n := evil.ln.n.Load(); n != 0 {
		t.Errorf("the rebinding target accepted %d connections", n)
	}
	want := []Refusal{{app, KindSubresource, ReasonAddress, ""}, {app, KindSubresource, ReasonAddress, ""}}
	if got := rec.all(); !equal(got, want) {
		t.Errorf("refusals %v, want %v", got, want)
	}
	// A private address behind a listed name is refused as well.
	dns.set("app.test", "10.1.2.3", "192.168.0.1", "169.254.1.1", "::1", "fd00::1")
	c.CloseIdleConnections()
	if code, _, err := get(t, c, app+"/", nil); err != nil || code != http.StatusForbidden {
		t.Fatalf("private: %d %v", code, err)
	}
}

func TestLocalhost(t *testing.T) {
	in := startServer(t, "127.0.0.1:0", false, nil)
	dns := &fakeDNS{}
	g, _ := newGate(t, dns)
	lh := fmt.Sprintf("http://localhost:%d", in.port())
	if err := g.SetScope(&Scope{Allowed: []string{lh}}); err != nil {
		t.Fatal(err)
	}
	c := client(g)
	defer c.CloseIdleConnections()
	if code, _, err := get(t, c, lh+"/", nil); err != nil || code != 200 {
		t.Fatalf("localhost: %d %v", code, err)
	}
	if dns.n.Load() != 0 {
		t.Error("localhost was resolved through DNS")
	}
	// Listing localhost does not list 127.0.0.1's name twin elsewhere.
	if code, _, err := get(t, c, in.URL+"/", nil); err != nil || code != http.StatusForbidden {
		t.Fatalf("127.0.0.1 with only localhost listed: %d %v", code, err)
	}
}

func TestNilScopeAndLoop(t *testing.T) {
	in := startServer(t, "127.0.0.1:0", false, nil)
	g, rec := newGate(t, nil)
	c := client(g)
	defer c.CloseIdleConnections()
	if code, _, err := get(t, c, in.URL+"/", nil); err != nil || code != 200 {
		t.Fatalf("nil scope: %d %v", code, err)
	}
	for _, target := range []string{g.Addr(), fmt.Sprintf("0.0.0.0:%d", in.port())} {
		conn, err := net.Dial("tcp", g.Addr())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		conn.Close()
		if err != nil || res.StatusCode != http.StatusForbidden {
			t.Fatalf("CONNECT %s: %v %v", target, res, err)
		}
	}
	for _, r := range rec.all() {
		if r.Reason != ReasonLoop {
			t.Errorf("refusal %v", r)
		}
	}
	if len(rec.all()) != 2 {
		t.Errorf("refusals %v", rec.all())
	}
}

func TestBadRequests(t *testing.T) {
	g, rec := newGate(t, nil)
	cases := []struct {
		req  string
		code int
	}{
		{"GET / HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		{"GET https://x/ HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		{"CONNECT nohost HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		{"CONNECT x:0 HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		{"CONNECT x:99999 HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		{"GET http://x/ HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", MaxHeaderBytes) + "\r\n\r\n", 431},
		{"garbage\r\n\r\n", 400},
	}
	for _, tc := range cases {
		conn, err := net.Dial("tcp", g.Addr())
		if err != nil {
			t.Fatal(err)
		}
		go func() { _, _ = io.WriteString(conn, tc.req) }()
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		conn.Close()
		if err != nil || res.StatusCode != tc.code {
			t.Errorf("%.40q: %v %v, want %d", tc.req, res, err, tc.code)
		}
	}
	if len(rec.all()) != 0 {
		t.Errorf("malformed requests reported as refusals: %v", rec.all())
	}
}

func TestUpgradeForward(t *testing.T) {
	in := startServer(t, "127.0.0.1:0", false, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "echo" {
			http.Error(w, "no upgrade", 400)
			return
		}
		conn, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		fmt.Fprintf(brw, "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n")
		brw.Flush()
		line, _ := brw.ReadString('\n')
		fmt.Fprintf(conn, "echo:%s", line)
	}))
	g, _ := newGate(t, nil)
	if err := g.SetScope(&Scope{Allowed: []string{in.URL}}); err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", g.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	hp := strings.TrimPrefix(in.URL, "http://")
	fmt.Fprintf(conn, "GET %s/u HTTP/1.1\r\nHost: %s\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n", in.URL, hp)
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	if err != nil || res.StatusCode != 101 {
		t.Fatalf("upgrade: %v %v", res, err)
	}
	io.WriteString(conn, "hi\n")
	line, err := br.ReadString('\n')
	if err != nil || line != "echo:hi\n" {
		t.Fatalf("upgraded stream: %q %v", line, err)
	}
}

// TestCloseEndsTunnels: Close returns promptly with a tunnel open and
// leaves no goroutine (TestMain checks).
func TestCloseEndsTunnels(t *testing.T) {
	in := startServer(t, "127.0.0.1:0", false, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	rec := &recorder{}
	g, err := New(WithRefusalHandler(rec.add))
	if err != nil {
		t.Fatal(err)
	}
	hp := strings.TrimPrefix(in.URL, "http://")
	conn, err := net.Dial("tcp", g.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\nGET / HTTP/1.1\r\nHost: %s\r\n\r\n", hp, hp, hp)
	if res, err := http.ReadResponse(bufio.NewReader(conn), nil); err != nil || res.StatusCode != 200 {
		t.Fatalf("CONNECT: %v %v", res, err)
	}
	conn2, err := net.Dial("tcp", g.Addr()) // an idle keep-alive client
	if err != nil {
		t.Fatal(err)
	}
	defer conn2.Close()
	start := time.Now()
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Close took %v", d)
	}
	if err := g.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	var ne net.Error
	if _, err := conn.Read(make([]byte, 1)); err == nil || (errors.As(err, &ne) && ne.Timeout()) {
		t.Errorf("tunnel still open after Close: %v", err)
	}
}

func TestSetScopeInvalid(t *testing.T) {
	g, _ := newGate(t, nil)
	for _, o := range []string{"ftp://x", "http://x/path", "http://", "https://x:0", "http://u@x", "::"} {
		if err := g.SetScope(&Scope{Allowed: []string{o}}); !errors.Is(err, ErrInvalidScope) {
			t.Errorf("%q: %v", o, err)
		}
	}
}

func TestPublic(t *testing.T) {
	cases := map[string]bool{
		"93.184.216.34": true, "2606:2800:220:1:248:1893:25c8:1946": true, "8.8.8.8": true,
		"127.0.0.1": false, "127.0.0.2": false, "::1": false, "10.0.0.1": false, "172.16.5.4": false,
		"192.168.1.1": false, "169.254.169.254": false, "fe80::1": false, "fd12::1": false,
		"0.0.0.0": false, "::": false, "100.64.0.1": false, "0.1.2.3": false, "224.0.0.1": false,
		"::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false, "::ffff:8.8.8.8": true, "255.255.255.255": false,
	}
	for s, want := range cases {
		if got := Public(netip.MustParseAddr(s)); got != want {
			t.Errorf("Public(%s) = %v, want %v", s, got, want)
		}
	}
}

func TestRules(t *testing.T) {
	r, err := compile(Scope{Allowed: []string{"https://a.example", "http://127.0.0.1:8080", "http://[::1]:9000"}, Subresources: []string{"http://cdn.example"}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		tunnel bool
		host   string
		port   uint16
		d      dest
		want   bool
	}{
		{true, "a.example", 443, destOther, true},
		{false, "a.example", 443, destOther, false}, // https is never plain
		{true, "a.example", 80, destOther, false},
		{false, "127.0.0.1", 8080, destDocument, true},
		{true, "127.0.0.1", 8080, destOther, true}, // ws://
		{false, "127.0.0.1", 8081, destOther, false},
		{false, "::1", 9000, destOther, true},
		{false, "cdn.example", 80, destOther, true},
		{false, "cdn.example", 80, destDocument, false},
		{false, "cdn.example", 80, destFrame, false},
		{true, "cdn.example", 80, destOther, true},
		{false, "b.example", 80, destOther, false},
	}
	for _, c := range cases {
		if got := r.permits(c.tunnel, c.host, c.port, c.d); got != c.want {
			t.Errorf("permits(%v, %s, %d, %d) = %v", c.tunnel, c.host, c.port, c.d, got)
		}
	}
	if !r.addrOK(netip.MustParseAddr("127.0.0.1"), 8080) || r.addrOK(netip.MustParseAddr("127.0.0.1"), 8081) ||
		r.addrOK(netip.MustParseAddr("127.0.0.2"), 8080) || !r.addrOK(netip.MustParseAddr("8.8.8.8"), 1) {
		t.Error("addrOK")
	}
}

func equal(a, b []Refusal) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

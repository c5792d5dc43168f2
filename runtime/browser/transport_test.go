package browser

import (
	"bufio"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	goruntime "runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/go-rod/rod/lib/proto"
	"go.uber.org/goleak"

	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/grant"
)

// The hostile-endpoint tests: a CDP endpoint of the test's own proxies a
// real Chromium and, at one moment, sends what a broken or hostile
// endpoint could send. Each case runs in a child process (the test binary
// re-executed with envTransportChild) so that a panic in any goroutine,
// which nothing can recover, shows as the child's exit status 2.
const (
	envTransportChild    = "VERA_TEST_CDPWS_CHILD"    // "<case>:<phase>:<n>"
	envTransportUpstream = "VERA_TEST_CDPWS_UPSTREAM" // the real browser's ws URL
)

// smallLimit is the read limit the size cases run with, so that reaching
// it costs a few MiB.
const smallLimit = 4 << 20

// injection is one thing the proxy does to the connection.
type injection struct {
	name  string
	legal bool  // the connection must survive it
	limit int64 // WithMaxMessageBytes, 0 for the default
	// check asserts the typed error the driver reports (Connect's error
	// or the crash cause after a run).
	check func(error) error
	// detail is a part of the run's failure detail.
	detail string
	// runOnly: the case has no Connect phase.
	runOnly bool
}

func isProtocol(reason string) func(error) error {
	return func(err error) error {
		var pe *ProtocolError
		if !errors.As(err, &pe) || !errors.Is(err, ErrProtocol) {
			return fmt.Errorf("want a *ProtocolError, got %v", err)
		}
		if !strings.Contains(pe.Reason, reason) {
			return fmt.Errorf("reason %q, want it to mention %q", pe.Reason, reason)
		}
		return nil
	}
}

func isSentinel(s error) func(error) error {
	return func(err error) error {
		if !errors.Is(err, s) {
			return fmt.Errorf("want %v, got %v", s, err)
		}
		return nil
	}
}

var injections = []injection{
	{name: "invalid_json", check: isProtocol("not valid JSON"), detail: "CDP protocol violation"},
	{name: "json_array", check: isProtocol("array"), detail: "not an object"},
	{name: "json_string", check: isProtocol("string, not an object"), detail: "not an object"},
	{name: "id_abc", check: isProtocol(`"id" is a JSON string`), detail: `"id"`},
	{name: "method_123", check: isProtocol(`"method" is a JSON number`), detail: `"method"`},
	{name: "ping", legal: true},
	{name: "close_frame", check: func(err error) error {
		var ce *CloseError
		if !errors.As(err, &ce) || !errors.Is(err, ErrDisconnected) || ce.Code != 1001 || ce.Reason != "going away" {
			return fmt.Errorf("want a *CloseError 1001 going away, got %v", err)
		}
		return nil
	}, detail: "close frame, status 1001"},
	{name: "fragmented", legal: true},
	{name: "header_2p62", limit: smallLimit, check: isSentinel(ErrDisconnected), detail: "CDP connection ended"},
	{name: "header_1gib", limit: smallLimit, check: isProtocol(fmt.Sprintf("read limit of %d bytes", smallLimit)), detail: "read limit"},
	{name: "truncated_frame", check: isSentinel(ErrDisconnected), detail: "CDP connection ended"},
	{name: "stall", check: isSentinel(ErrEndpointStalled), detail: "stalled"},
	{name: "stall_close", runOnly: true},
}

// TestTransportHostileEndpoint runs every injection in a child process,
// during Connect and during a run, and requires each child to exit 0.
func TestTransportHostileEndpoint(t *testing.T) {
	if os.Getenv(envTransportChild) != "" {
		t.Skip("in a child")
	}
	ext := startExternal(t)
	n := 0
	for _, inj := range injections {
		for _, phase := range []string{"connect", "run"} {
			if phase == "connect" && inj.runOnly {
				continue
			}
			n++
			t.Run(inj.name+"/"+phase, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
				defer cancel()
				cmd := exec.CommandContext(ctx, os.Args[0], "-test.run", "^TestTransportChild$", "-test.count=1", "-test.v")
				cmd.Env = append(os.Environ(),
					envTransportChild+"="+fmt.Sprintf("%s:%s:%d", inj.name, phase, n),
					envTransportUpstream+"="+ext.Endpoint(),
					"VERA_REQUIRE_BROWSER=1")
				out, err := cmd.CombinedOutput()
				code := 0
				if err != nil {
					var ee *exec.ExitError
					if !errors.As(err, &ee) {
						t.Fatalf("child: %v", err)
					}
					code = ee.ExitCode()
				}
				if code != 0 || !strings.Contains(string(out), "--- PASS: TestTransportChild") {
					t.Fatalf("child exited %d (2 is a panic):\n%s", code, out)
				}
				if testing.Verbose() {
					for _, l := range strings.Split(string(out), "\n") {
						if strings.Contains(l, "transport_test.go") {
							t.Log(strings.TrimSpace(l))
						}
					}
				}
			})
		}
	}
	if !ext.alive(t) {
		t.Fatal("the browser behind the proxy died")
	}
}

// TestTransportChild is one case of TestTransportHostileEndpoint; it
// skips unless started by it.
func TestTransportChild(t *testing.T) {
	spec := os.Getenv(envTransportChild)
	if spec == "" {
		t.Skip("runs as a child of TestTransportHostileEndpoint")
	}
	parts := strings.Split(spec, ":")
	var inj injection
	for _, c := range injections {
		if c.name == parts[0] {
			inj = c
		}
	}
	if inj.name == "" || len(parts) != 3 {
		t.Fatalf("bad spec %q", spec)
	}
	phase := parts[1]
	baseline := goleak.IgnoreCurrent()

	sites, err := testsite.Start()
	if err != nil {
		t.Fatal(err)
	}
	// Odd cases are remote endpoints (127.0.0.2, which needs the opt-in)
	// given as ws:// URLs; even ones local http:// discovery endpoints.
	remote := parts[2][len(parts[2])-1]%2 == 1
	p := startProxy(t, os.Getenv(envTransportUpstream), inj.name, remote)
	opts := []Option{}
	if remote {
		opts = append(opts, WithRemoteEndpoint())
	}
	if inj.limit != 0 {
		opts = append(opts, WithMaxMessageBytes(inj.limit))
	}
	// The hostile endpoint is on 127.0.0.2 (a remote endpoint to Vera),
	// which the test ceiling's loopback entries do not list.
	opts = append(opts, WithCeiling(&grant.Ceiling{Enabled: true, AutoGrant: true, CDPEndpoints: []string{"http://" + endpointHost(p.endpoint())}, AllowedOrigins: []string{"http://127.0.0.1:*"}}))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	func() {
		if phase == "connect" {
			p.arm(1)
		}
		d, err := Connect(ctx, p.endpoint(), opts...)
		if phase == "connect" && !inj.legal {
			if err == nil {
				d.Close()
				t.Fatal("Connect succeeded")
			}
			if !errors.Is(err, runtime.ErrBrowserUnavailable) {
				t.Errorf("Connect: %v, want ErrBrowserUnavailable", err)
			}
			if e := inj.check(err); e != nil {
				t.Errorf("Connect: %v", e)
			}
			t.Logf("Connect: %v", err)
			return
		}
		if err != nil {
			t.Fatalf("Connect: %v", err)
		}
		if inj.name == "stall_close" {
			p.arm(1)
			p.injectNow()
			start := time.Now()
			err := d.Close()
			if el := time.Since(start); el > CloseTimeout+1500*time.Millisecond {
				t.Errorf("Close took %v on a stalled endpoint, deadline %v", el, CloseTimeout)
			}
			t.Logf("Close on a stalled endpoint: %v after %v", err, time.Since(start).Round(time.Millisecond))
			return
		}
		if phase == "run" {
			p.arm(12)
		}
		logs := &failureLog{}
		c := tellerCapability(t, sites)
		res, err := runtime.Execute(ctx, c, map[string]any{"username": "teller1", "password": "correct horse battery", "member_id": "100234"},
			runtime.WithDriver(d), runtime.WithRunDir(t.TempDir()), runtime.WithLogger(slog.New(logs)))
		if err != nil {
			t.Fatalf("Execute: %v", err)
		}
		if !p.injected() {
			t.Errorf("the proxy never injected %s", inj.name)
		}
		if inj.legal {
			if res.State != runtime.StateCompleted {
				t.Errorf("run ended %s (%s), want completed", describeResult(res), logs.detail())
			}
		} else {
			if res.State != runtime.StateFailed || res.Failure == nil || res.Failure.Category != receipt.CategoryBrowserCrashed {
				t.Errorf("run ended %s, want failed/browser_crashed", describeResult(res))
			}
			if !strings.Contains(logs.detail(), inj.detail) {
				t.Errorf("failure detail %q, want it to mention %q", logs.detail(), inj.detail)
			}
			t.Logf("run: %s: %s", describeResult(res), logs.detail())
			// Every later call fails with the crash and its typed cause.
			_, err := d.URL(ctx)
			if !errors.Is(err, runtime.ErrBrowserCrashed) {
				t.Errorf("after the run: %v, want ErrBrowserCrashed", err)
			}
			if e := inj.check(err); e != nil {
				t.Errorf("after the run: %v", e)
			}
		}
		start := time.Now()
		if err := d.Close(); err != nil && inj.legal {
			t.Errorf("Close: %v", err)
		}
		if el := time.Since(start); el > CloseTimeout+1500*time.Millisecond {
			t.Errorf("Close took %v", el)
		}
	}()

	switch inj.name {
	case "ping":
		if !p.ponged() {
			t.Error("the driver did not answer the proxy's ping")
		}
	case "header_1gib":
		// The limit closed the connection: the proxy could write little
		// more than the limit (plus socket buffers) and the process never
		// held anything near the size the header claimed.
		if w := p.streamed.Load(); w < smallLimit || w > smallLimit+32<<20 {
			t.Errorf("the proxy streamed %d bytes of the 1 GiB frame, want about the %d-byte limit", w, smallLimit)
		}
	}
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	if ms.Sys > 512<<20 {
		t.Errorf("the process holds %d MiB", ms.Sys>>20)
	}
	p.close()
	sites.Close()
	if err := goleak.Find(baseline); err != nil {
		t.Errorf("goroutines left: %v", err)
	}
}

// failureLog keeps the detail of the runtime's "vera run failure" record.
type failureLog struct {
	mu sync.Mutex
	d  string
}

func (l *failureLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *failureLog) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *failureLog) WithGroup(string) slog.Handler            { return l }
func (l *failureLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "vera run failure" {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "detail" {
			l.mu.Lock()
			l.d = a.Value.String()
			l.mu.Unlock()
		}
		return true
	})
	return nil
}

func (l *failureLog) detail() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.d
}

// proxy is a CDP endpoint that forwards to a real browser and injects
// one case when armed: at the trigger-th client message after arming it
// acts before forwarding that message.
type proxy struct {
	t        *testing.T
	upstream string
	inj      string
	ln       net.Listener
	srv      *http.Server
	wg       sync.WaitGroup

	mu      sync.Mutex
	conns   []net.Conn
	trigger int64
	seen    int64
	did     bool

	stalled     atomic.Bool
	over        atomic.Bool // nothing more is forwarded
	fragmenting atomic.Bool
	pong        atomic.Bool
	streamed    atomic.Int64
}

func startProxy(t *testing.T, upstream, inj string, remote bool) *proxy {
	host := "127.0.0.1:0"
	if remote {
		host = "127.0.0.2:0"
	}
	ln, err := net.Listen("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{t: t, upstream: upstream, inj: inj, ln: ln, trigger: -1}
	p.srv = &http.Server{Handler: http.HandlerFunc(p.serve)}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		_ = p.srv.Serve(ln)
	}()
	return p
}

// endpoint is the URL Connect gets: the discovery URL for a local proxy,
// the browser ws URL for a remote one.
func (p *proxy) endpoint() string {
	if strings.HasPrefix(p.ln.Addr().String(), "127.0.0.2") {
		return "ws://" + p.ln.Addr().String() + "/devtools/browser/proxy"
	}
	return "http://" + p.ln.Addr().String()
}

func (p *proxy) arm(trigger int64) {
	p.mu.Lock()
	p.trigger, p.seen = trigger, 0
	p.mu.Unlock()
}

func (p *proxy) injected() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.did
}

func (p *proxy) ponged() bool {
	deadline := time.Now().Add(5 * time.Second)
	for !p.pong.Load() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	return p.pong.Load()
}

// injectNow applies a stall at once, without waiting for a message.
func (p *proxy) injectNow() {
	p.mu.Lock()
	p.did = true
	p.mu.Unlock()
	p.stalled.Store(true)
}

func (p *proxy) close() {
	_ = p.srv.Close()
	p.mu.Lock()
	for _, c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

func (p *proxy) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/json/version" {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"Browser":"proxy","webSocketDebuggerUrl":"ws://%s/devtools/browser/proxy"}`, r.Host)
		return
	}
	if !strings.HasPrefix(r.URL.Path, "/devtools/browser/") {
		http.NotFound(w, r)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr := &http.Transport{Proxy: nil, DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	up, _, err := websocket.Dial(ctx, p.upstream, &websocket.DialOptions{HTTPClient: &http.Client{Transport: tr}})
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer up.CloseNow()
	up.SetReadLimit(-1)
	sum := sha1.Sum([]byte(r.Header.Get("Sec-WebSocket-Key") + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return
	}
	p.mu.Lock()
	p.conns = append(p.conns, conn)
	p.mu.Unlock()
	defer conn.Close()
	fmt.Fprintf(buf, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n",
		base64.StdEncoding.EncodeToString(sum[:]))
	if err := buf.Flush(); err != nil {
		return
	}
	fc := &frameConn{c: conn}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // browser -> driver
		defer wg.Done()
		defer conn.Close()
		for {
			_, msg, err := up.Read(ctx)
			if err != nil {
				return
			}
			if p.stalled.Load() || p.over.Load() {
				continue
			}
			if p.fragmenting.Load() && len(msg) >= 3 {
				// Three fragments with a ping between the first two: legal.
				a, b := len(msg)/3, 2*len(msg)/3
				_ = fc.frame(false, 1, msg[:a])
				_ = fc.frame(true, 9, []byte("mid-message"))
				_ = fc.frame(false, 0, msg[a:b])
				err = fc.frame(true, 0, msg[b:])
			} else {
				err = fc.frame(true, 1, msg)
			}
			if err != nil {
				return
			}
		}
	}()
	br := buf.Reader
	var msg []byte
	for { // driver -> browser
		fin, op, payload, err := readClientFrame(br)
		if err != nil {
			break
		}
		switch op {
		case 9: // ping: a stalled endpoint answers nothing
			if !p.stalled.Load() {
				_ = fc.frame(true, 10, payload)
			}
			continue
		case 10:
			if string(payload) == "vera-proxy-ping" {
				p.pong.Store(true)
			}
			continue
		case 8:
		case 0, 1:
			msg = append(msg, payload...)
			if !fin {
				continue
			}
			if p.step(fc, conn) {
				// The connection is over from the proxy's side.
				msg = nil
				continue
			}
			if !p.stalled.Load() {
				_ = up.Write(ctx, websocket.MessageText, msg)
			}
			msg = nil
			continue
		}
		break
	}
	cancel()
	conn.Close()
	wg.Wait()
}

// step counts one client message and injects when it is the trigger;
// true means the message is not forwarded (the proxy's side of the
// connection is over).
func (p *proxy) step(fc *frameConn, conn net.Conn) bool {
	p.mu.Lock()
	fire := false
	if p.trigger > 0 && !p.did {
		p.seen++
		if p.seen >= p.trigger {
			fire, p.did = true, true
		}
	}
	p.mu.Unlock()
	if fire {
		p.inject(fc, conn)
	}
	return p.over.Load()
}

// inject does the case to the connection.
func (p *proxy) inject(fc *frameConn, conn net.Conn) {
	if !p.legalCase() && p.inj != "stall" {
		p.over.Store(true)
	}
	switch p.inj {
	case "invalid_json":
		_ = fc.frame(true, 1, []byte(`{"id":1,"result":{"product":`))
	case "json_array":
		_ = fc.frame(true, 1, []byte(`[{"id":1,"result":{}}]`))
	case "json_string":
		_ = fc.frame(true, 1, []byte(`"hello"`))
	case "id_abc":
		_ = fc.frame(true, 1, []byte(`{"id":"abc","result":{}}`))
	case "method_123":
		_ = fc.frame(true, 1, []byte(`{"method":123}`))
	case "ping":
		_ = fc.frame(true, 9, []byte("vera-proxy-ping"))
	case "close_frame":
		_ = fc.frame(true, 8, append([]byte{0x03, 0xE9}, "going away"...))
	case "fragmented":
		p.fragmenting.Store(true)
	case "header_2p62":
		// A frame header claiming 2^62 bytes, 64 KiB of it, then the end
		// of the stream.
		hdr := []byte{0x81, 127, 0, 0, 0, 0, 0, 0, 0, 0}
		binary.BigEndian.PutUint64(hdr[2:], 1<<62)
		fc.raw(func(w io.Writer) {
			_, _ = w.Write(hdr)
			_, _ = w.Write(make([]byte, 64<<10))
		})
		conn.Close()
	case "header_1gib":
		// A frame header claiming 1 GiB, then bytes for as long as the
		// driver reads them.
		hdr := []byte{0x81, 127, 0, 0, 0, 0, 0, 0, 0, 0}
		binary.BigEndian.PutUint64(hdr[2:], 1<<30)
		fc.raw(func(w io.Writer) {
			_, _ = w.Write(hdr)
			chunk := []byte(strings.Repeat(" ", 64<<10))
			for p.streamed.Load() < 1<<30 {
				_ = conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
				n, err := w.Write(chunk)
				p.streamed.Add(int64(n))
				if err != nil {
					return
				}
			}
		})
		conn.Close()
	case "truncated_frame":
		// Half a frame header (the 16-bit length cut), then the end.
		fc.raw(func(w io.Writer) { _, _ = w.Write([]byte{0x81, 126, 0x01}) })
		conn.Close()
	case "stall":
		p.stalled.Store(true)
	}
}

func (p *proxy) legalCase() bool { return p.inj == "ping" || p.inj == "fragmented" }

// frameConn writes server frames (unmasked), one at a time.
type frameConn struct {
	mu sync.Mutex
	c  net.Conn
}

func (f *frameConn) frame(fin bool, op byte, payload []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	b0 := op
	if fin {
		b0 |= 0x80
	}
	hdr := []byte{b0}
	switch n := len(payload); {
	case n < 126:
		hdr = append(hdr, byte(n))
	case n <= 0xFFFF:
		hdr = append(hdr, 126, byte(n>>8), byte(n))
	default:
		hdr = append(hdr, 127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	_ = f.c.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if _, err := f.c.Write(append(hdr, payload...)); err != nil {
		return err
	}
	return nil
}

func (f *frameConn) raw(fn func(io.Writer)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f.c)
}

// readClientFrame reads one masked client frame.
func readClientFrame(r *bufio.Reader) (fin bool, op byte, payload []byte, err error) {
	var h [2]byte
	if _, err = io.ReadFull(r, h[:]); err != nil {
		return
	}
	fin, op = h[0]&0x80 != 0, h[0]&0x0F
	n := uint64(h[1] & 0x7F)
	switch n {
	case 126:
		var b [2]byte
		if _, err = io.ReadFull(r, b[:]); err != nil {
			return
		}
		n = uint64(binary.BigEndian.Uint16(b[:]))
	case 127:
		var b [8]byte
		if _, err = io.ReadFull(r, b[:]); err != nil {
			return
		}
		n = binary.BigEndian.Uint64(b[:])
	}
	if n > 64<<20 {
		return false, 0, nil, fmt.Errorf("client frame of %d bytes", n)
	}
	var key [4]byte
	if h[1]&0x80 != 0 {
		if _, err = io.ReadFull(r, key[:]); err != nil {
			return
		}
	}
	payload = make([]byte, n)
	if _, err = io.ReadFull(r, payload); err != nil {
		return
	}
	for i := range payload {
		payload[i] ^= key[i%4]
	}
	return
}

// TestLaunchReadLimit: Launch runs on the same transport: a message above
// WithMaxMessageBytes ends the connection, every call then fails with
// ErrBrowserCrashed carrying the *ProtocolError, and Close still cleans up.
func TestLaunchReadLimit(t *testing.T) {
	requireBrowser(t)
	ctx := tctx(t, 60*time.Second)
	d, err := Launch(ctx, WithMaxMessageBytes(MinMaxMessageBytes))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var small proto.RuntimeEvaluateResult
	if err := d.call(ctx, d.pageSID, proto.RuntimeEvaluate{Expression: `"x".repeat(512 << 10)`, ReturnByValue: true}, &small); err != nil {
		t.Fatalf("a message under the limit: %v", err)
	}
	var big proto.RuntimeEvaluateResult
	if err := d.call(ctx, d.pageSID, proto.RuntimeEvaluate{Expression: `"x".repeat(2 << 20)`, ReturnByValue: true}, &big); err == nil {
		t.Fatal("a message above the limit was read")
	}
	_, err = d.URL(ctx)
	var pe *ProtocolError
	if !errors.Is(err, runtime.ErrBrowserCrashed) || !errors.As(err, &pe) || !strings.Contains(pe.Reason, "read limit") {
		t.Fatalf("after the limit: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if d.proc.alive() {
		t.Fatal("the launched browser survived Close")
	}
}

// TestConnectContextBoundsDialOnly: Connect's ctx bounds the connection's
// start, not its life.
func TestConnectContextBoundsDialOnly(t *testing.T) {
	ext := startExternal(t)
	s := sites(t)
	cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	d, err := Connect(cctx, ext.Endpoint())
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := tctx(t, 30*time.Second)
	if err := d.Navigate(ctx, s.Teller.URL()+"/login"); err != nil {
		t.Fatalf("Navigate after Connect's ctx ended: %v", err)
	}
}

// endpointHost is host:port of an endpoint URL.
func endpointHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Host
}

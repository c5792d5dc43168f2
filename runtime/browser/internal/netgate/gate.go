package netgate

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Limits. Each is enforced per connection.
const (
	// MaxHeaderBytes bounds a request's or a response's header block
	// (request line or status line included).
	MaxHeaderBytes = 64 << 10
	// IdleTimeout closes a connection (a client's keep-alive connection,
	// an upstream connection or a tunnel) when no byte moved in either
	// direction for this long.
	IdleTimeout = 2 * time.Minute
	// DialTimeout bounds one upstream TCP connect.
	DialTimeout = 10 * time.Second
	// ResolveTimeout bounds one DNS resolution.
	ResolveTimeout = 10 * time.Second
	// MaxConns bounds the client connections served at once; more wait
	// in the listener's backlog.
	MaxConns = 256
	// MaxRequestsPerConn bounds the requests served on one client
	// connection; the connection is closed after the last one.
	MaxRequestsPerConn = 10000
)

// Kind says what a refused request was, as far as the gate can tell.
type Kind string

// The kinds of a [Refusal].
const (
	// KindNavigation: a plain HTTP request with Sec-Fetch-Mode navigate
	// and Sec-Fetch-Dest document (a top-level page or a popup).
	KindNavigation Kind = "navigation"
	// KindFrame: a navigation request for a frame (Sec-Fetch-Dest
	// iframe, frame, embed or object).
	KindFrame Kind = "frame"
	// KindSubresource: everything else, every tunnel (CONNECT) included:
	// a tunnel carries no hint of what it is for.
	KindSubresource Kind = "subresource"
)

// Reason says why the gate refused a connection.
type Reason string

// The reasons of a [Refusal].
const (
	// ReasonScope: the host and port are not those of a scope origin
	// (or a document was asked of a subresource-only origin).
	ReasonScope Reason = "outside_scope"
	// ReasonAddress: the host is in scope but resolved only to
	// non-public addresses that no listed origin names (DNS rebinding
	// to loopback or a private network).
	ReasonAddress Reason = "address_not_allowed"
	// ReasonLoop: the target is the gate itself or an unspecified
	// address.
	ReasonLoop Reason = "loop"
)

// Refusal is one connection or request the gate refused.
type Refusal struct {
	// Origin is the refused target as an origin: scheme://host[:port]
	// for a plain HTTP request; for a tunnel, whose scheme the gate
	// cannot see, "https://host" on port 443 and "http://host:port" on
	// any other port (ws:// tunnels to an http origin's port).
	Origin string
	Kind   Kind
	Reason Reason
	// Referrer is the origin of a plain HTTP request's Referer header:
	// the document or worker that sent it, as the browser set it (a page
	// cannot name another origin there). Empty for a tunnel, whose
	// headers the gate cannot see, and for a request without one.
	Referrer string
}

// Resolver resolves host names; *net.Resolver implements it.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Option configures [New].
type Option func(*Gate)

// WithLogger sets the logger (refusals at Info, connection errors at
// Debug). Nil discards.
func WithLogger(l *slog.Logger) Option {
	return func(g *Gate) {
		if l != nil {
			g.log = l
		}
	}
}

// WithRefusalHandler sets fn to be called once for every refusal, from the
// connection's goroutine; it must not block.
func WithRefusalHandler(fn func(Refusal)) Option { return func(g *Gate) { g.onRefuse = fn } }

// WithResolver replaces the system resolver (tests simulate DNS with it).
// Nil keeps the system resolver.
func WithResolver(r Resolver) Option {
	return func(g *Gate) {
		if r != nil {
			g.resolver = r
		}
	}
}

// Gate is a forward HTTP proxy on a loopback port that lets connections
// reach only the origins of its [Scope]. Create it with [New]; Close it.
type Gate struct {
	ln       net.Listener
	self     netip.AddrPort
	log      *slog.Logger
	onRefuse func(Refusal)
	resolver Resolver
	dialer   net.Dialer
	sem      chan struct{}

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	rules  *rules // nil: everything is allowed
	conns  map[net.Conn]struct{}
	idle   map[*upstream]struct{} // upstream connections between requests
	closed bool
}

// New starts a gate listening on 127.0.0.1 with a random port. Until the
// first SetScope it lets every connection through (still resolving each
// name once and never dialling itself or an unspecified address).
func New(opts ...Option) (*Gate, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("netgate: listen: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	g := &Gate{
		ln:       ln,
		self:     ln.Addr().(*net.TCPAddr).AddrPort(),
		log:      slog.New(slog.DiscardHandler),
		resolver: net.DefaultResolver,
		dialer:   net.Dialer{Timeout: DialTimeout},
		sem:      make(chan struct{}, MaxConns),
		ctx:      ctx,
		cancel:   cancel,
		conns:    map[net.Conn]struct{}{},
		idle:     map[*upstream]struct{}{},
	}
	for _, o := range opts {
		if o != nil {
			o(g)
		}
	}
	g.wg.Add(1)
	go g.accept()
	return g, nil
}

// Addr returns the gate's address, "127.0.0.1:PORT".
func (g *Gate) Addr() string { return g.self.String() }

// SetScope installs the scope every later connection and request is
// checked against; nil lets everything through. Upstream connections
// idle between requests are closed, so no request is carried on a
// connection the new scope would not open. Open tunnels are left alone.
// An entry that is not a bare http(s) origin gives an error wrapping
// [ErrInvalidScope] and the old scope stays.
func (g *Gate) SetScope(s *Scope) error {
	var r *rules
	if s != nil {
		var err error
		if r, err = compile(*s); err != nil {
			return err
		}
	}
	g.mu.Lock()
	g.rules = r
	idle := g.idle
	g.idle = map[*upstream]struct{}{}
	g.mu.Unlock()
	for u := range idle {
		u.conn.Close()
	}
	return nil
}

// Close stops the listener, closes every connection and waits for every
// goroutine of the gate. It is idempotent.
func (g *Gate) Close() error {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil
	}
	g.closed = true
	conns := g.conns
	g.conns = map[net.Conn]struct{}{}
	g.mu.Unlock()
	g.cancel()
	err := g.ln.Close()
	for c := range conns {
		c.Close()
	}
	g.wg.Wait()
	return err
}

// track registers a connection Close must close; it reports false (and
// closes c) when the gate is already closed.
func (g *Gate) track(c net.Conn) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		c.Close()
		return false
	}
	g.conns[c] = struct{}{}
	return true
}

func (g *Gate) untrack(c net.Conn) {
	c.Close()
	g.mu.Lock()
	delete(g.conns, c)
	g.mu.Unlock()
}

func (g *Gate) accept() {
	defer g.wg.Done()
	for {
		select {
		case g.sem <- struct{}{}:
		case <-g.ctx.Done():
			return
		}
		c, err := g.ln.Accept()
		if err != nil {
			<-g.sem
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return
		}
		if !g.track(c) {
			<-g.sem
			return
		}
		g.wg.Add(1)
		go func() {
			defer g.wg.Done()
			defer func() { <-g.sem }()
			defer g.untrack(c)
			g.serve(c)
		}()
	}
}

// refuse reports a refusal.
func (g *Gate) refuse(r Refusal) {
	g.log.Info("connection refused", "origin", r.Origin, "kind", string(r.Kind), "reason", string(r.Reason))
	if g.onRefuse != nil {
		g.onRefuse(r)
	}
}

// serve reads requests from one client connection: a CONNECT becomes a
// tunnel (and ends the loop), an absolute-form http request is forwarded,
// anything else is answered 400.
func (g *Gate) serve(c net.Conn) {
	act := &activity{}
	act.touch()
	ic := &idleConn{Conn: c, act: act}
	lr := &io.LimitedReader{R: ic, N: MaxHeaderBytes}
	br := bufio.NewReader(lr)
	var up *upstream
	defer func() {
		if up != nil {
			g.dropUpstream(up)
		}
	}()
	for range MaxRequestsPerConn {
		lr.N = MaxHeaderBytes
		req, err := http.ReadRequest(br)
		if err != nil {
			if lr.N <= 0 {
				writeStatus(ic, http.StatusRequestHeaderFieldsTooLarge)
			} else if !errors.Is(err, io.EOF) && !isClosed(err) {
				writeStatus(ic, http.StatusBadRequest)
			}
			return
		}
		lr.N = math.MaxInt64
		g.log.Debug("proxy request", "method", req.Method, "target", req.URL.Host)
		if req.Method == http.MethodConnect {
			g.tunnel(ic, br, req, act)
			return
		}
		if !req.URL.IsAbs() || req.URL.Scheme != "http" || req.URL.Host == "" {
			writeStatus(ic, http.StatusBadRequest)
			return
		}
		var keep bool
		up, keep = g.forward(ic, br, req, up, act)
		if !keep {
			return
		}
	}
}

// target is a checked destination: the addresses it may be dialled at.
type target struct {
	host  string
	port  uint16
	addrs []netip.Addr
}

// decide checks host:port against the scope and, when resolve is set (a
// connection is about to be opened), resolves the host once and keeps
// the addresses that may be dialled. A refusal is returned (not yet
// reported) when the request must not leave.
func (g *Gate) decide(tunnel bool, host string, port uint16, d dest, resolve bool) (target, *Refusal, error) {
	host = normHost(host)
	g.mu.Lock()
	r := g.rules
	g.mu.Unlock()
	t := target{host: host, port: port}
	if r != nil && !r.permits(tunnel, host, port, d) {
		return t, &Refusal{Reason: ReasonScope}, nil
	}
	if !resolve {
		return t, nil, nil
	}
	addrs := fixedAddrs(host)
	if addrs == nil {
		ctx, cancel := context.WithTimeout(g.ctx, ResolveTimeout)
		got, err := g.resolver.LookupNetIP(ctx, "ip", host)
		cancel()
		if err != nil {
			return t, nil, fmt.Errorf("resolve: %w", err)
		}
		addrs = got
	}
	loop := false
	for _, ip := range addrs {
		ip = ip.Unmap()
		if ip.IsUnspecified() || netip.AddrPortFrom(ip, port) == g.self {
			loop = true
			continue
		}
		if r == nil || r.addrOK(ip, port) {
			t.addrs = append(t.addrs, ip)
		}
	}
	switch {
	case len(t.addrs) > 0:
		return t, nil, nil
	case loop:
		return t, &Refusal{Reason: ReasonLoop}, nil
	case len(addrs) == 0:
		return t, nil, errors.New("resolve: no addresses")
	}
	return t, &Refusal{Reason: ReasonAddress}, nil
}

// dial connects to the first address of t that answers.
func (g *Gate) dial(t target) (net.Conn, error) {
	var last error
	for _, ip := range t.addrs {
		c, err := g.dialer.DialContext(g.ctx, "tcp", netip.AddrPortFrom(ip, t.port).String())
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, last
}

// tunnel serves a CONNECT: check, dial, answer 200 and splice.
func (g *Gate) tunnel(c *idleConn, br *bufio.Reader, req *http.Request, act *activity) {
	host, ps, err := net.SplitHostPort(req.RequestURI)
	port, ok := effectivePort("", ps)
	if err != nil || !ok || host == "" {
		writeStatus(c, http.StatusBadRequest)
		return
	}
	t, ref, err := g.decide(true, host, port, destOther, true)
	if ref != nil {
		ref.Origin = tunnelOrigin(normHost(host), port)
		ref.Kind = KindSubresource
		g.refuse(*ref)
		writeStatus(c, http.StatusForbidden)
		return
	}
	if err != nil {
		g.log.Debug("tunnel failed", "err", err)
		writeStatus(c, http.StatusBadGateway)
		return
	}
	uc, err := g.dial(t)
	if err != nil {
		g.log.Debug("tunnel dial failed", "err", err)
		writeStatus(c, http.StatusBadGateway)
		return
	}
	if !g.track(uc) {
		return
	}
	defer g.untrack(uc)
	if _, err := io.WriteString(c, "HTTP/1.1 200 Connection Established\r\n\r\n"); err != nil {
		return
	}
	g.splice(c, br, &idleConn{Conn: uc, act: act}, nil)
}

// splice copies both ways until both directions ended (a clean end
// half-closes the other side) or an error or the idle timeout ends both.
// ar and br are readers buffered over a and b (nil: the conn itself).
func (g *Gate) splice(a net.Conn, ar io.Reader, b net.Conn, brd io.Reader) {
	if ar == nil {
		ar = a
	}
	if brd == nil {
		brd = b
	}
	errc := make(chan error, 1)
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		errc <- copyHalf(b, ar)
	}()
	err := copyHalf(a, brd)
	if err != nil {
		a.Close()
		b.Close()
	}
	if err2 := <-errc; err2 != nil {
		a.Close()
		b.Close()
	}
}

// copyHalf copies src to dst; on a clean end it half-closes dst.
func copyHalf(dst net.Conn, src io.Reader) error {
	_, err := io.Copy(dst, src)
	if err == nil {
		closeWrite(dst)
	}
	return err
}

func closeWrite(c net.Conn) {
	if ic, ok := c.(*idleConn); ok {
		c = ic.Conn
	}
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	} else {
		c.Close()
	}
}

// tunnelOrigin names the origin of a refused tunnel (see [Refusal]).
func tunnelOrigin(host string, port uint16) string {
	h := host
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	if port == 443 {
		return "https://" + h
	}
	return "http://" + h + ":" + strconv.Itoa(int(port))
}

// writeStatus answers with an empty response of code and closes the
// exchange (Connection: close).
func writeStatus(w io.Writer, code int) {
	fmt.Fprintf(w, "HTTP/1.1 %d %s\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", code, http.StatusText(code))
}

func isClosed(err error) bool {
	var ne net.Error
	return errors.Is(err, net.ErrClosed) || (errors.As(err, &ne) && ne.Timeout()) || errors.Is(err, io.ErrUnexpectedEOF)
}

// activity is the last time a byte moved on a client connection or any
// connection serving it.
type activity struct {
	mu   sync.Mutex
	last time.Time
}

func (a *activity) touch() {
	a.mu.Lock()
	a.last = time.Now()
	a.mu.Unlock()
}

func (a *activity) since() time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	return time.Since(a.last)
}

// idleConn is a connection whose reads and writes fail only when nothing
// moved on it or its partners for [IdleTimeout].
type idleConn struct {
	net.Conn
	act *activity
}

func (c *idleConn) Read(p []byte) (int, error) {
	for {
		_ = c.Conn.SetReadDeadline(time.Now().Add(IdleTimeout))
		n, err := c.Conn.Read(p)
		if n > 0 {
			c.act.touch()
		}
		var ne net.Error
		if n == 0 && err != nil && errors.As(err, &ne) && ne.Timeout() && c.act.since() < IdleTimeout {
			continue // the other direction is busy
		}
		return n, err
	}
}

func (c *idleConn) Write(p []byte) (int, error) {
	_ = c.Conn.SetWriteDeadline(time.Now().Add(IdleTimeout))
	n, err := c.Conn.Write(p)
	if n > 0 {
		c.act.touch()
	}
	return n, err
}

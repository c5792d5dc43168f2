package netgate

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"

	"github.com/vera-run/vera/internal/origin"
)

// upstream is the connection a client connection's plain HTTP requests
// are forwarded on, to one host and port, dialled at one resolved address.
type upstream struct {
	key  string // host:port as requested
	conn net.Conn
	lr   *io.LimitedReader
	br   *bufio.Reader
}

// hopHeaders are the hop-by-hop headers of RFC 9110 7.6.1 plus the
// proxy-only ones; they never cross the gate.
var hopHeaders = []string{
	"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade",
}

// stripHop removes the hop-by-hop headers and those Connection names. An
// upgrade request or response keeps "Connection: Upgrade" and Upgrade.
func stripHop(h http.Header, upgrade bool) {
	up := h.Get("Upgrade")
	for _, f := range h.Values("Connection") {
		for _, name := range strings.Split(f, ",") {
			if name = textproto.TrimString(name); name != "" {
				h.Del(name)
			}
		}
	}
	for _, name := range hopHeaders {
		h.Del(name)
	}
	if upgrade && up != "" {
		h.Set("Connection", "Upgrade")
		h.Set("Upgrade", up)
	}
}

func isUpgrade(h http.Header) bool {
	for _, f := range h.Values("Connection") {
		for _, name := range strings.Split(f, ",") {
			if strings.EqualFold(textproto.TrimString(name), "upgrade") {
				return h.Get("Upgrade") != ""
			}
		}
	}
	return false
}

// referrerOrigin is the origin of a Referer header, "" when it has none.
func referrerOrigin(ref string) string {
	if ref == "" {
		return ""
	}
	u, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	o, ok := origin.OfURL(u)
	if !ok {
		return ""
	}
	return o.String()
}

// requestDest classifies a request by the Sec-Fetch headers the browser
// sets (a page cannot).
func requestDest(h http.Header) (dest, Kind) {
	if !strings.EqualFold(h.Get("Sec-Fetch-Mode"), "navigate") {
		return destOther, KindSubresource
	}
	switch strings.ToLower(h.Get("Sec-Fetch-Dest")) {
	case "document":
		return destDocument, KindNavigation
	case "iframe", "frame", "embed", "object":
		return destFrame, KindFrame
	}
	return destOther, KindSubresource
}

// dropUpstream closes u.
func (g *Gate) dropUpstream(u *upstream) {
	g.mu.Lock()
	delete(g.idle, u)
	g.mu.Unlock()
	g.untrack(u.conn)
}

// park marks u idle between requests (SetScope closes idle upstreams)
// and unpark takes it back; unpark reports false when it was closed.
func (g *Gate) park(u *upstream) {
	g.mu.Lock()
	g.idle[u] = struct{}{}
	g.mu.Unlock()
}

func (g *Gate) unpark(u *upstream) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, ok := g.idle[u]; !ok {
		return false
	}
	delete(g.idle, u)
	return true
}

// forward checks and forwards one absolute-form request on the client
// connection c and writes the response. It returns the upstream to reuse
// for the next request and whether the client connection stays open.
func (g *Gate) forward(c *idleConn, br *bufio.Reader, req *http.Request, up *upstream, act *activity) (*upstream, bool) {
	if up != nil && !g.unpark(up) {
		g.dropUpstream(up) // closed by SetScope while idle
		up = nil
	}
	host := req.URL.Hostname()
	port, ok := effectivePort("http", req.URL.Port())
	if host == "" || !ok {
		writeStatus(c, http.StatusBadRequest)
		return up, false
	}
	d, kind := requestDest(req.Header)
	key := net.JoinHostPort(normHost(host), fmt.Sprint(port))
	if up == nil || up.key != key {
		if up != nil {
			g.dropUpstream(up)
			up = nil
		}
	}
	// The scope is checked for every request; the address only when a
	// connection is opened (one resolution per connection).
	t, ref, err := g.decide(false, host, port, d, up == nil)
	if ref != nil {
		ref.Origin = "http://" + key
		if port == 80 {
			ref.Origin = "http://" + strings.TrimSuffix(key, ":80")
		}
		ref.Kind = kind
		ref.Referrer = referrerOrigin(req.Header.Get("Referer"))
		g.refuse(*ref)
		g.blocked(c)
		return up, false
	}
	if up == nil {
		if err != nil {
			g.log.Debug("forward failed", "err", err)
			writeStatus(c, http.StatusBadGateway)
			return nil, false
		}
		uc, err := g.dial(t)
		if err != nil {
			g.log.Debug("forward dial failed", "err", err)
			writeStatus(c, http.StatusBadGateway)
			return nil, false
		}
		if !g.track(uc) {
			return nil, false
		}
		ic := &idleConn{Conn: uc, act: act}
		lr := &io.LimitedReader{R: ic, N: math.MaxInt64}
		up = &upstream{key: key, conn: ic, lr: lr, br: bufio.NewReader(lr)}
	}
	upgrade := isUpgrade(req.Header)
	out := req.Clone(req.Context())
	out.RequestURI = ""
	out.Close = false
	stripHop(out.Header, upgrade)
	if _, ok := out.Header["User-Agent"]; !ok {
		out.Header["User-Agent"] = []string{""} // Go adds none then
	}
	if err := out.Write(up.conn); err != nil {
		g.log.Debug("forward write failed", "err", err)
		g.dropUpstream(up)
		writeStatus(c, http.StatusBadGateway)
		return nil, false
	}
	var resp *http.Response
	for {
		up.lr.N = MaxHeaderBytes
		resp, err = http.ReadResponse(up.br, out)
		up.lr.N = math.MaxInt64
		if err != nil {
			g.log.Debug("forward read failed", "err", err)
			g.dropUpstream(up)
			writeStatus(c, http.StatusBadGateway)
			return nil, false
		}
		if resp.StatusCode >= 200 || resp.StatusCode == http.StatusSwitchingProtocols {
			break
		}
		// 1xx informational (103 Early Hints): relay and read on.
		stripHop(resp.Header, false)
		if err := writeHead(c, resp); err != nil {
			g.dropUpstream(up)
			return nil, false
		}
	}
	if resp.StatusCode == http.StatusSwitchingProtocols {
		if !upgrade {
			g.dropUpstream(up)
			writeStatus(c, http.StatusBadGateway)
			return nil, false
		}
		stripHop(resp.Header, true)
		if err := writeHead(c, resp); err != nil {
			g.dropUpstream(up)
			return nil, false
		}
		g.splice(c, br, up.conn, up.br)
		g.dropUpstream(up)
		return nil, false
	}
	stripHop(resp.Header, false)
	// A body of unknown length ends with the connection.
	keepClient := !req.Close && !(resp.ContentLength < 0 && len(resp.TransferEncoding) == 0 && bodyAllowed(req, resp))
	upstreamCloses := resp.Close
	resp.Close = !keepClient
	err = writeResponse(c, resp)
	resp.Body.Close()
	if err != nil || !keepClient {
		g.dropUpstream(up)
		return nil, false
	}
	if upstreamCloses {
		g.dropUpstream(up)
		return nil, true
	}
	g.park(up)
	return up, true
}

// bodyAllowed reports whether the response to req may carry a body.
func bodyAllowed(req *http.Request, resp *http.Response) bool {
	if req.Method == http.MethodHead {
		return false
	}
	s := resp.StatusCode
	return s >= 200 && s != http.StatusNoContent && s != http.StatusNotModified
}

// writeHead writes a response's status line and headers (no body).
func writeHead(w io.Writer, resp *http.Response) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "HTTP/1.1 %03d %s\r\n", resp.StatusCode, http.StatusText(resp.StatusCode))
	if err := resp.Header.Write(bw); err != nil {
		return err
	}
	bw.WriteString("\r\n")
	return bw.Flush()
}

// blocked answers a refused plain HTTP request.
func (g *Gate) blocked(w io.Writer) {
	const body = "blocked by the run's origin scope\n"
	fmt.Fprintf(w, "HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n%s", len(body), body)
}

// writeResponse writes resp to the client connection c through a buffer,
// so its status line, headers and a body at hand leave in one write,
// not one per header line (resp.Write writes each piece on its own).
// Whatever was buffered is flushed before every read of the body, so
// bytes that arrived are passed on before the gate waits for more: a
// streamed body (chunks, server-sent events) is relayed as it comes.
func writeResponse(c io.Writer, resp *http.Response) error {
	bw := bufio.NewWriter(c)
	body := resp.Body
	fb := &flushingBody{r: body, bw: bw}
	resp.Body = fb
	err := resp.Write(writerOnly{bw})
	resp.Body = body
	if err != nil {
		return err
	}
	if fb.err != nil {
		return fb.err
	}
	return bw.Flush()
}

// flushingBody is a response body that flushes bw before each read.
type flushingBody struct {
	r   io.Reader
	bw  *bufio.Writer
	err error // the first flush error
}

func (f *flushingBody) Read(p []byte) (int, error) {
	if f.bw.Buffered() > 0 {
		if err := f.bw.Flush(); err != nil {
			f.err = err
			return 0, err
		}
	}
	return f.r.Read(p)
}

func (f *flushingBody) Close() error { return nil }

// writerOnly hides every method but Write (io.Copy then never hands the
// body to the buffer's ReadFrom, which would read into the buffer the
// body's Read flushes).
type writerOnly struct{ w io.Writer }

func (w writerOnly) Write(p []byte) (int, error) { return w.w.Write(p) }

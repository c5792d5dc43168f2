package cdpws

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coder/websocket"
)

// Defaults of [Options].
const (
	// DefaultMaxMessageBytes bounds one incoming message (all its
	// fragments together): 256 MiB, the limit Puppeteer uses, so that
	// full-page screenshots and DOM snapshots of tens of MiB fit.
	DefaultMaxMessageBytes = 256 << 20
	// DefaultStallTimeout is how long a ping may wait for its pong (and a
	// write for the socket) before the endpoint counts as stalled.
	DefaultStallTimeout = 5 * time.Second
	// DefaultDialTimeout bounds the TCP connect, TLS and WebSocket
	// handshake when ctx has no earlier deadline.
	DefaultDialTimeout = 10 * time.Second
)

// idleBeforePing is how long a call must have waited with nothing
// received before the keepalive pings.
const idleBeforePing = time.Second

// keepaliveTick is how often the keepalive looks at the connection.
const keepaliveTick = 250 * time.Millisecond

// Options configure [Dial]. Zero values take the defaults.
type Options struct {
	// MaxMessageBytes bounds one incoming message; see
	// [DefaultMaxMessageBytes].
	MaxMessageBytes int64
	// StallTimeout: see [DefaultStallTimeout].
	StallTimeout time.Duration
	// DialTimeout: see [DefaultDialTimeout].
	DialTimeout time.Duration
}

// ErrClosed is the error of every Send and Read after Close.
var ErrClosed = errors.New("cdpws: connection closed locally")

// ProtocolError: the endpoint sent something that is not a CDP message
// over WebSocket (a malformed message, a message above the read limit, a
// WebSocket protocol violation).
type ProtocolError struct{ Reason string }

func (e *ProtocolError) Error() string { return "protocol violation: " + e.Reason }

// CloseError: the endpoint closed the WebSocket with a close frame.
type CloseError struct {
	Code   int
	Reason string
}

func (e *CloseError) Error() string {
	if e.Reason == "" {
		return fmt.Sprintf("closed by the endpoint (status %d)", e.Code)
	}
	return fmt.Sprintf("closed by the endpoint (status %d: %q)", e.Code, e.Reason)
}

// StallError: the endpoint stopped answering while the connection stayed
// open (no pong to a ping, or a write that did not complete).
type StallError struct {
	Timeout time.Duration
	What    string
}

func (e *StallError) Error() string {
	return fmt.Sprintf("endpoint stalled: %s within %v", e.What, e.Timeout)
}

// LostError: the connection ended without a close frame (reset, EOF, a
// truncated frame).
type LostError struct{ Err error }

func (e *LostError) Error() string { return "connection lost: " + e.Err.Error() }

func (e *LostError) Unwrap() error { return e.Err }

// Conn is a CDP WebSocket connection that satisfies go-rod's
// cdp.WebSocketable. Send may be called from many goroutines; Read from
// one at a time (rod's reader).
type Conn struct {
	ws    *websocket.Conn
	stall time.Duration
	max   int64 // read limit of one message

	ctx    context.Context // ends at Close or on failure
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	err     error
	pending map[int64]struct{} // ids sent and not answered yet

	lastIn   atomic.Int64 // unix nanoseconds of the last bytes read
	reading  atomic.Bool  // Read is waiting on the network
	progress atomic.Int64 // incremented by every read that returned bytes
}

// Dial opens a WebSocket to wsURL (ws or wss). It never uses a proxy
// from the environment and follows no redirect. ctx bounds the dial only.
func Dial(ctx context.Context, wsURL string, o Options) (*Conn, error) {
	if o.MaxMessageBytes <= 0 {
		o.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if o.StallTimeout <= 0 {
		o.StallTimeout = DefaultStallTimeout
	}
	if o.DialTimeout <= 0 {
		o.DialTimeout = DefaultDialTimeout
	}
	tr := &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: o.DialTimeout, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout: o.DialTimeout,
		DisableKeepAlives:   true,
		DisableCompression:  true,
	}
	defer tr.CloseIdleConnections()
	client := &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	dctx, cancel := context.WithTimeout(ctx, o.DialTimeout)
	defer cancel()
	ws, res, err := websocket.Dial(dctx, wsURL, &websocket.DialOptions{
		HTTPClient:      client,
		CompressionMode: websocket.CompressionDisabled,
	})
	if err != nil {
		if res != nil {
			return nil, fmt.Errorf("websocket handshake answered HTTP %d", res.StatusCode)
		}
		return nil, err
	}
	ws.SetReadLimit(o.MaxMessageBytes)
	c := &Conn{ws: ws, stall: o.StallTimeout, max: o.MaxMessageBytes, pending: map[int64]struct{}{}}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	c.lastIn.Store(time.Now().UnixNano())
	c.wg.Add(1)
	go c.keepalive()
	return c, nil
}

// Err returns the error that ended the connection, or nil while it lives
// (and for a nil Conn).
func (c *Conn) Err() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// fail records err as the connection's end (the first one wins), closes
// the socket and returns the recorded error.
func (c *Conn) fail(err error) error {
	c.mu.Lock()
	if c.err != nil {
		err = c.err
		c.mu.Unlock()
		return err
	}
	c.err = err
	c.mu.Unlock()
	c.cancel()
	_ = c.ws.CloseNow()
	return err
}

// Close drops the connection at once (no close handshake, which could
// wait for an unresponsive endpoint) and waits for the keepalive.
func (c *Conn) Close() error {
	c.fail(ErrClosed)
	c.wg.Wait()
	return nil
}

// Send writes one text message. A write that does not complete within
// the stall timeout ends the connection with a [*StallError].
func (c *Conn) Send(data []byte) error {
	if err := c.Err(); err != nil {
		return err
	}
	id, ok := requestID(data)
	if ok {
		c.mu.Lock()
		if len(c.pending) == 0 {
			// A call starts waiting now: an idle connection is not stalled.
			c.lastIn.Store(time.Now().UnixNano())
		}
		c.pending[id] = struct{}{}
		c.mu.Unlock()
	}
	ctx, cancel := context.WithTimeout(c.ctx, c.stall)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, data); err != nil {
		if c.ctx.Err() == nil && ctx.Err() != nil {
			return c.fail(&StallError{Timeout: c.stall, What: "a write did not complete"})
		}
		return c.fail(c.readError(err))
	}
	return nil
}

// requestID reads the id of a request marshalled by rod's client, whose
// first member is always "id".
func requestID(b []byte) (int64, bool) {
	rest, ok := bytes.CutPrefix(b, []byte(`{"id":`))
	if !ok {
		return 0, false
	}
	end := bytes.IndexAny(rest, ",}")
	if end < 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(string(rest[:end]), 10, 64)
	return n, err == nil
}

// Read returns the next message, which [Validate] accepted. A response
// whose id is 0 (rod never sends it) is dropped, as rod drops responses to
// ids it does not wait for. Pings are answered and fragmented messages
// reassembled by the WebSocket layer. Anything that is not a CDP message
// ends the connection with a [*ProtocolError]; a close frame with a
// [*CloseError]; a dropped connection with a [*LostError].
func (c *Conn) Read() ([]byte, error) {
	for {
		if err := c.Err(); err != nil {
			return nil, err
		}
		c.reading.Store(true)
		b, err := c.readMessage()
		c.reading.Store(false)
		if err != nil {
			return nil, c.fail(c.readError(err))
		}
		kind, id, err := Validate(b)
		if err != nil {
			return nil, c.fail(&ProtocolError{Reason: err.Error()})
		}
		if kind == Response {
			c.mu.Lock()
			delete(c.pending, id)
			c.mu.Unlock()
			if id == 0 {
				continue
			}
		}
		return b, nil
	}
}

// readMessage reads one data message, noting progress on every chunk so
// that a large message arriving slowly (during which a pong cannot be
// read) never looks like a stall.
func (c *Conn) readMessage() ([]byte, error) {
	_, r, err := c.ws.Reader(c.ctx)
	if err != nil {
		return nil, err
	}
	c.seen()
	return io.ReadAll(progressReader{c, r})
}

// seen notes that bytes arrived.
func (c *Conn) seen() {
	c.lastIn.Store(time.Now().UnixNano())
	c.progress.Add(1)
}

type progressReader struct {
	c *Conn
	r io.Reader
}

func (p progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.c.seen()
	}
	return n, err
}

// readError classifies an error of the WebSocket layer.
func (c *Conn) readError(err error) error {
	if e := c.Err(); e != nil {
		return e
	}
	var ce websocket.CloseError
	switch {
	case errors.As(err, &ce):
		return &CloseError{Code: int(ce.Code), Reason: ce.Reason}
	case errors.Is(err, websocket.ErrMessageTooBig):
		return &ProtocolError{Reason: fmt.Sprintf("a message exceeds the read limit of %d bytes", c.max)}
	case isNetError(err):
		return &LostError{Err: err}
	}
	// Anything else is the WebSocket layer refusing a frame: reserved
	// bits, a bad opcode, a fragmented control frame, a continuation
	// without a start, a bad close payload.
	return &ProtocolError{Reason: err.Error()}
}

// isNetError reports whether err is the network failing or the stream
// ending (a truncated frame ends in io.ErrUnexpectedEOF).
func isNetError(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// keepalive pings the endpoint while a call waits and nothing has
// arrived for a second; a ping without a pong within the stall timeout,
// while the reader waits on the network and no byte arrives, ends the
// connection with a [*StallError].
func (c *Conn) keepalive() {
	defer c.wg.Done()
	t := time.NewTicker(keepaliveTick)
	defer t.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-t.C:
		}
		c.mu.Lock()
		waiting := len(c.pending) > 0
		c.mu.Unlock()
		if !waiting || time.Since(time.Unix(0, c.lastIn.Load())) < idleBeforePing {
			continue
		}
		_ = c.check()
	}
}

// Probe checks that the endpoint still answers: it pings and waits for
// the pong up to the stall timeout. It returns nil when the endpoint
// answered (or sent anything) or when the reader is busy delivering a
// message (the endpoint is not the one waiting), and the connection's
// error when it is over or found stalled.
func (c *Conn) Probe() error {
	if c == nil {
		return ErrClosed
	}
	if err := c.Err(); err != nil {
		return err
	}
	return c.check()
}

func (c *Conn) check() error {
	if !c.reading.Load() {
		return nil
	}
	gen := c.progress.Load()
	ctx, cancel := context.WithTimeout(c.ctx, c.stall)
	defer cancel()
	err := c.ws.Ping(ctx)
	switch {
	case err == nil:
		c.lastIn.Store(time.Now().UnixNano())
		return nil
	case c.ctx.Err() != nil:
		return c.Err()
	case ctx.Err() != nil && c.progress.Load() == gen && c.reading.Load():
		return c.fail(&StallError{Timeout: c.stall, What: "no pong to a ping"})
	}
	return c.Err()
}

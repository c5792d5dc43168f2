package testsite

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"
)

// MaxRecordedRequests bounds the per-server request log returned by
// [Server.Requests]; older entries are dropped first. Hit counters are never
// truncated.
const MaxRecordedRequests = 1000

// Options configures the servers started by [Start] and the per-app
// constructors. The zero value is valid: logs are discarded and escape pages
// have no outside origin.
type Options struct {
	// Logger receives one Debug record per request (app, method, path,
	// status) and one Info record per started server. Nil discards logs.
	Logger *slog.Logger
	// OutsideOrigin is the origin the Teller escape pages point to. [Start]
	// always sets it to its own Outside server; a test that starts only the
	// Teller may set it with [WithOutsideOrigin] or [Teller.SetOutsideOrigin].
	OutsideOrigin string
}

// Option changes [Options].
type Option func(*Options)

// WithLogger injects the logger used by every started server.
func WithLogger(l *slog.Logger) Option { return func(o *Options) { o.Logger = l } }

// WithOutsideOrigin sets [Options.OutsideOrigin] for the Teller escape pages.
func WithOutsideOrigin(origin string) Option {
	return func(o *Options) { o.OutsideOrigin = origin }
}

func buildOptions(opts []Option) Options {
	var o Options
	for _, fn := range opts {
		if fn != nil {
			fn(&o)
		}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// Request is one request received by a [Server], as recorded by
// [Server.Requests].
type Request struct {
	Method string
	// Path is the request URL path (decoded, without query).
	Path string
	// RawQuery is the request's raw query string, usually empty.
	RawQuery string
}

// Server is one loopback HTTP server of an app: its origin, per-path hit
// counters and request log. Every app embeds one (the Invoicing app has a
// second one for its workspace origin). All methods are safe for concurrent
// use.
type Server struct {
	name   string
	origin string
	srv    *httptest.Server
	logger *slog.Logger
	done   chan struct{}

	closeOnce sync.Once

	mu    sync.Mutex
	hits  map[string]int
	total int
	conns int // TCP connections accepted
	reqs  []Request
}

// newServer starts handler on 127.0.0.1 with a random port. host is the
// host name used in the reported origin: "127.0.0.1" or "localhost" (the
// listener is always 127.0.0.1, which "localhost" resolves to).
func newServer(name, host string, handler http.Handler, logger *slog.Logger) (*Server, error) {
	return newServerAt(name, host, "127.0.0.1:0", handler, logger)
}

// newServerAt is newServer listening on addr.
func newServerAt(name, host, addr string, handler http.Handler, logger *slog.Logger) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("testsite: %s: listen: %w", name, err)
	}
	s := &Server{
		name:   name,
		logger: logger,
		done:   make(chan struct{}),
		hits:   make(map[string]int),
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if host == "" {
		host = ln.Addr().(*net.TCPAddr).IP.String()
	}
	s.origin = "http://" + net.JoinHostPort(host, strconv.Itoa(port))
	s.srv = &httptest.Server{
		Listener: &countingListener{Listener: ln, s: s},
		Config:   &http.Server{Handler: s.wrap(handler), ReadHeaderTimeout: 10 * time.Second},
	}
	s.srv.Start()
	logger.Info("testsite server started", "app", name, "origin", s.origin)
	return s, nil
}

// URL returns the server's origin, e.g. "http://127.0.0.1:41234", with no
// trailing slash. Append a path to address a page.
func (s *Server) URL() string { return s.origin }

// Origin returns the same string as [Server.URL]; it exists so callers
// building a capability's allowed origins read naturally.
func (s *Server) Origin() string { return s.origin }

// Hits returns how many requests (any method) reached path, the decoded URL
// path without query, e.g. "/members/100234".
func (s *Server) Hits(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// TotalHits returns how many requests reached the server on any path.
func (s *Server) TotalHits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

// Connections returns how many TCP connections the server's listener
// accepted: a connection that never sends a request (a preconnect) counts
// here and nowhere else.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns
}

// ResetHits zeroes every counter (connections included) and clears the
// request log.
func (s *Server) ResetHits() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.hits)
	s.total = 0
	s.conns = 0
	s.reqs = nil
}

// countingListener counts the connections its server accepts.
type countingListener struct {
	net.Listener
	s *Server
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.s.mu.Lock()
		l.s.conns++
		l.s.mu.Unlock()
	}
	return c, err
}

// Requests returns a copy of the last [MaxRecordedRequests] requests, oldest
// first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Close stops the server. Handlers that are sleeping (latency, slow pages,
// stalled exports, the never-ending fetch) return at once; open connections
// are closed. Close is idempotent.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.done)
		s.srv.CloseClientConnections()
		s.srv.Close()
		s.logger.Info("testsite server closed", "app", s.name, "origin", s.origin)
	})
}

// sleep waits for d, the request's cancellation or the server's Close,
// whichever comes first. It reports whether the full delay elapsed.
func (s *Server) sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.done:
		return false
	}
}

func (s *Server) record(r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hits[r.URL.Path]++
	s.total++
	if len(s.reqs) >= MaxRecordedRequests {
		s.reqs = append(s.reqs[:0], s.reqs[1:]...)
	}
	s.reqs = append(s.reqs, Request{Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery})
}

func (s *Server) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.record(r)
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		s.logger.Debug("testsite request", "app", s.name, "method", r.Method,
			"path", r.URL.Path, "status", sw.statusOr200())
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) statusOr200() int {
	if w.status == 0 {
		return http.StatusOK
	}
	return w.status
}

// Unwrap lets http.ResponseController reach the underlying writer (Flush).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/tool"
)

// Errors of this package, usable with errors.Is.
var (
	// ErrDuplicate: a tool of the same name is already served.
	ErrDuplicate = errors.New("mcpserver: duplicate tool name")
	// ErrRejected: a bundle failed bundle.Verify (wrapped with the
	// verification error in a [Rejection]).
	ErrRejected = errors.New("mcpserver: bundle rejected")
	// ErrClosed: the server was closed.
	ErrClosed = errors.New("mcpserver: closed")
)

// DefaultApprovalTimeout bounds how long a run waits at a gate for the
// person's answer through elicitation; then it stops at the gate
// (approver_error).
const DefaultApprovalTimeout = 5 * time.Minute

// ProtocolMultiRoundTrip is the first MCP protocol version in which a
// server asks the client for input by returning input requests from the
// tool call (SEP-2322) instead of sending its own elicitation request.
const ProtocolMultiRoundTrip = "2026-07-28"

// Option configures a [Server].
type Option func(*config)

type config struct {
	name, version   string
	logger          *slog.Logger
	toolOpts        []tool.Option
	verifyOpts      []bundle.Option
	approvalTimeout time.Duration
	maxConcurrent   int
}

// WithImplementation names the server to clients (default "vera", "v1").
func WithImplementation(name, version string) Option {
	return func(c *config) { c.name, c.version = name, version }
}

// WithLogger sets the logger (default: discard). Argument values are never
// logged.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithToolOptions are the options of every tool made from a bundle
// (tool.WithDriver is needed to call them; tool.WithRunner replaces the
// server's shared semaphore).
func WithToolOptions(opts ...tool.Option) Option {
	return func(c *config) { c.toolOpts = append(c.toolOpts, opts...) }
}

// WithVerifyOptions are passed to bundle.Verify for every bundle (for
// example bundle.WithAllowLaunchedBrowser()).
func WithVerifyOptions(opts ...bundle.Option) Option {
	return func(c *config) { c.verifyOpts = append(c.verifyOpts, opts...) }
}

// WithApprovalTimeout bounds the wait for an elicitation answer (default
// [DefaultApprovalTimeout]).
func WithApprovalTimeout(d time.Duration) Option { return func(c *config) { c.approvalTimeout = d } }

// WithMaxConcurrent bounds the concurrent calls of all bundle tools
// together (one shared tool.Semaphore; default tool.DefaultMaxConcurrent).
func WithMaxConcurrent(n int) Option { return func(c *config) { c.maxConcurrent = n } }

// Rejection is a bundle that is not served and why.
type Rejection struct {
	Dir string
	Err error
}

// Server serves tools over MCP. Make one with [New] or [Load]; it is safe
// for concurrent use. Close it to end runs parked at a gate.
type Server struct {
	cfg  config
	mcp  *mcp.Server
	sem  *tool.Semaphore
	ctx  context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup

	mu       sync.Mutex
	closed   bool
	tools    map[string]*tool.Tool
	parked   map[string]*call
	rejected []Rejection
}

// New returns a server with no tools.
func New(opts ...Option) *Server {
	cfg := config{name: "vera", version: "v1", approvalTimeout: DefaultApprovalTimeout, maxConcurrent: tool.DefaultMaxConcurrent}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.logger == nil {
		cfg.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.approvalTimeout <= 0 {
		cfg.approvalTimeout = DefaultApprovalTimeout
	}
	s := &Server{cfg: cfg, sem: tool.NewSemaphore(cfg.maxConcurrent), tools: map[string]*tool.Tool{}, parked: map[string]*call{}}
	s.ctx, s.stop = context.WithCancel(context.Background())
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: cfg.name, Version: cfg.version}, &mcp.ServerOptions{Logger: cfg.logger})
	return s
}

// Load returns a server of every verified bundle in dir (see
// [Server.LoadBundles]).
func Load(ctx context.Context, dir string, opts ...Option) (*Server, error) {
	s := New(opts...)
	if _, err := s.LoadBundles(ctx, dir); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// LoadBundles serves every bundle in dir: each subfolder holding a
// bundle.lock.json (and dir itself, when it holds one) is verified with
// bundle.Verify and, when it verifies, its capability (the verified
// bytes) becomes one tool. A bundle that does not verify, or whose
// capability cannot be a tool or duplicates a served name, is not served:
// it is returned (and kept, see [Server.Rejected]) as a [Rejection]
// wrapping [ErrRejected]. The error is for dir itself and ctx.
func (s *Server) LoadBundles(ctx context.Context, dir string) ([]Rejection, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var dirs []string
	if _, err := os.Lstat(filepath.Join(dir, bundle.FileLock)); err == nil {
		dirs = append(dirs, dir)
	}
	for _, e := range ents {
		if e.IsDir() {
			if _, err := os.Lstat(filepath.Join(dir, e.Name(), bundle.FileLock)); err == nil {
				dirs = append(dirs, filepath.Join(dir, e.Name()))
			}
		}
	}
	var rejected []Rejection
	for _, d := range dirs {
		if err := ctx.Err(); err != nil {
			return rejected, err
		}
		if err := s.loadBundle(ctx, d); err != nil {
			r := Rejection{Dir: d, Err: fmt.Errorf("%w: %s: %w", ErrRejected, filepath.Base(d), err)}
			s.cfg.logger.Warn("bundle not served", "dir", d, "err", err)
			rejected = append(rejected, r)
		}
	}
	s.mu.Lock()
	s.rejected = append(s.rejected, rejected...)
	s.mu.Unlock()
	return rejected, nil
}

func (s *Server) loadBundle(ctx context.Context, dir string) error {
	rep, err := bundle.Verify(ctx, dir, s.cfg.verifyOpts...)
	if err != nil {
		return err
	}
	if err := rep.Err(); err != nil {
		return err
	}
	if rep.Verified == nil {
		return errors.New("no verified capability")
	}
	opts := append([]tool.Option{tool.WithRunner(s.sem), tool.WithLogger(s.cfg.logger)}, s.cfg.toolOpts...)
	t, err := tool.New(rep.Verified, opts...)
	if err != nil {
		return err
	}
	return s.Add(t)
}

// Add serves t as one MCP tool. A second tool of the same name is
// [ErrDuplicate].
func (s *Server) Add(t *tool.Tool) error {
	d := t.Description()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if _, dup := s.tools[d.Name]; dup {
		return fmt.Errorf("%w: %s", ErrDuplicate, d.Name)
	}
	s.tools[d.Name] = t
	destructive := d.Annotations.Destructive
	open := d.Annotations.OpenWorld
	s.mcp.AddTool(&mcp.Tool{
		Name:         d.Name,
		Title:        d.Title,
		Description:  d.Description,
		InputSchema:  d.InputSchema,
		OutputSchema: d.OutputSchema,
		Annotations: &mcp.ToolAnnotations{
			Title:           d.Title,
			ReadOnlyHint:    d.Annotations.ReadOnly,
			DestructiveHint: &destructive,
			IdempotentHint:  d.Annotations.Idempotent,
			OpenWorldHint:   &open,
		},
	}, s.handler(t))
	return nil
}

// Tools lists the served tool names, sorted.
func (s *Server) Tools() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.tools))
	for n := range s.tools {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Rejected lists the bundles that were not served.
func (s *Server) Rejected() []Rejection {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Rejection(nil), s.rejected...)
}

// MCP is the underlying SDK server, for any transport.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// ServeStdio serves one client over standard input and output until ctx
// ends or the client disconnects.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.mcp.Run(ctx, &mcp.StdioTransport{})
}

// HTTPHandler serves clients over streamable HTTP.
func (s *Server) HTTPHandler() http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, nil)
}

// Close ends every run (a run parked at a gate stops there with
// approver_error) and waits for them. It is idempotent.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.stop()
	s.wg.Wait()
	return nil
}

// newID is an unguessable request state.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// toolResult is the MCP form of a result: structured content and the same
// JSON as text; a failed run is a tool error the model sees.
func toolResult(res *tool.Result) *mcp.CallToolResult {
	raw, _ := json.Marshal(res)
	return &mcp.CallToolResult{
		StructuredContent: json.RawMessage(raw),
		Content:           []mcp.Content{&mcp.TextContent{Text: string(raw)}},
		IsError:           res.Status == runtime.StateFailed,
	}
}

// errorResult is a refused call (bad arguments, no driver): a tool error
// naming the problem, never an argument value.
func errorResult(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
	"github.com/vera-run/vera/runtime/tool"
	"github.com/vera-run/vera/runtime/tool/mcpserver"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpserver:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// errUsage marks command-line mistakes (exit status 2).
var errUsage = errors.New("usage")

// run is the whole program: it serves until ctx ends or the stdio client
// disconnects. Standard output is the MCP channel; everything else goes to
// stderr.
func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("mcpserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bundles := fs.String("bundles", "", "folder of sealed bundles (each subfolder with a "+bundle.FileLock+")")
	connect := fs.String("connect", "", "DevTools WebSocket endpoint of a running Chrome (default: launch a Chromium per call)")
	browserPath := fs.String("browser", "", "Chrome or Chromium to launch (default: $"+browser.EnvBrowser+", then the usual install locations)")
	httpAddr := fs.String("http", "", "serve streamable HTTP on this address instead of stdio (for example 127.0.0.1:8765)")
	runs := fs.String("runs", "", "parent folder of the run evidence (default: a new folder under "+os.TempDir()+")")
	maxCalls := fs.Int("max", tool.DefaultMaxConcurrent, "calls running at once")
	allowLaunched := fs.Bool("allow-launched", false, "accept bundles validated in a launched browser (bundle.WithAllowLaunchedBrowser)")
	verbose := fs.Bool("v", false, "debug logging")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *bundles == "" || fs.NArg() > 0 {
		return fmt.Errorf("%w: want -bundles DIR and no arguments", errUsage)
	}
	if *connect != "" && *browserPath != "" {
		return fmt.Errorf("%w: -connect and -browser exclude each other", errUsage)
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	if *runs == "" {
		dir, err := os.MkdirTemp("", "vera-mcpserver-runs-")
		if err != nil {
			return err
		}
		*runs = dir
	}
	driver := func(ctx context.Context) (runtime.Driver, error) {
		if *connect != "" {
			return browser.Connect(ctx, *connect, browser.WithLogger(logger))
		}
		return browser.Launch(ctx, browser.WithBrowserPath(*browserPath), browser.WithLogger(logger))
	}
	var verify []bundle.Option
	if *allowLaunched {
		verify = append(verify, bundle.WithAllowLaunchedBrowser())
	}
	srv, err := mcpserver.Load(ctx, *bundles,
		mcpserver.WithLogger(logger),
		mcpserver.WithMaxConcurrent(*maxCalls),
		mcpserver.WithVerifyOptions(verify...),
		mcpserver.WithToolOptions(tool.WithDriver(driver), tool.WithRunDir(*runs), tool.WithLogger(logger)))
	if err != nil {
		return err
	}
	defer srv.Close()
	for _, r := range srv.Rejected() {
		fmt.Fprintf(stderr, "rejected %s\n", r.Err)
	}
	for _, name := range srv.Tools() {
		fmt.Fprintf(stderr, "serving  %s\n", name)
	}
	fmt.Fprintf(stderr, "runs     %s\n", *runs)
	if len(srv.Tools()) == 0 {
		fmt.Fprintf(stderr, "warning  no verified bundle in %s\n", *bundles)
	}

	if *httpAddr == "" {
		return srv.ServeStdio(ctx)
	}
	ln, err := net.Listen("tcp", *httpAddr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "http     http://%s/\n", ln.Addr())
	hs := &http.Server{Handler: srv.HTTPHandler(), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	<-done
	return nil
}

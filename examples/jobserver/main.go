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
	"github.com/vera-run/vera/examples/internal/jobservice"
	"github.com/vera-run/vera/runtime/browser"
	"github.com/vera-run/vera/runtime/jobs"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stderr, nil)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "jobserver:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// errUsage marks command-line mistakes (exit status 2).
var errUsage = errors.New("usage")

// errNotLoopback refuses a listener that is not on loopback without
// -allow-remote.
var errNotLoopback = errors.New("listen address is not loopback")

// run is the whole program: it serves until ctx ends. ready, when not
// nil, receives the listener's address once it serves.
func run(ctx context.Context, args []string, stderr io.Writer, ready chan<- string) error {
	fs := flag.NewFlagSet("jobserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	state := fs.String("state", "", "state folder (runs and token hashes; created 0700); required")
	listen := fs.String("listen", "127.0.0.1:18081", "listen address (loopback unless -allow-remote)")
	allowRemote := fs.Bool("allow-remote", false, "allow a non-loopback listen address (put an authenticated transport in front)")
	bundles := fs.String("bundles", "", "folder of sealed bundles a request may name")
	allowLaunched := fs.Bool("allow-launched", false, "accept bundles validated in a launched browser (bundle.WithAllowLaunchedBrowser)")
	connect := fs.String("connect", "", "DevTools endpoint of a running Chrome (default: launch one Chromium)")
	browserPath := fs.String("browser", "", "Chrome or Chromium to launch (default: $"+browser.EnvBrowser+", then the usual install locations)")
	active := fs.Int("active", jobs.DefaultActiveBrowsers, "runs at once")
	queued := fs.Int("queued", jobs.DefaultMaxQueued, "runs waiting for a slot")
	noTrial := fs.Bool("no-trial", false, "offer no trial (GET /v1/trial); never offered with -connect")
	verbose := fs.Bool("v", false, "debug logging")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *state == "" || fs.NArg() > 0 {
		return fmt.Errorf("%w: want -state DIR and no arguments", errUsage)
	}
	if *connect != "" && *browserPath != "" {
		return fmt.Errorf("%w: -connect and -browser exclude each other", errUsage)
	}
	if !*allowRemote {
		if err := checkLoopback(*listen); err != nil {
			return err
		}
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	var b *browser.Browser
	var err error
	if *connect != "" {
		b, err = browser.ConnectBrowser(ctx, *connect, browser.WithLogger(logger))
	} else {
		b, err = browser.LaunchBrowser(ctx, browser.WithBrowserPath(*browserPath), browser.WithLogger(logger))
	}
	if err != nil {
		return err
	}
	defer b.Close()
	available := func() error {
		select {
		case <-b.Done():
			return errors.New("the browser process has exited")
		default:
			return nil
		}
	}
	opts := []jobservice.Option{jobservice.WithLogger(logger), jobservice.WithAvailability(available),
		jobservice.WithViewportSource(b.OpenViewport),
		jobservice.WithActiveBrowsers(*active), jobservice.WithMaxQueued(*queued)}
	if *bundles != "" {
		opts = append(opts, jobservice.WithBundles(*bundles))
	}
	if *connect == "" && !*noTrial {
		// The trial fixture is on this host's loopback: only a browser
		// launched here reaches it.
		opts = append(opts, jobservice.WithTrial())
	}
	if *allowLaunched {
		opts = append(opts, jobservice.WithVerifyOptions(bundle.WithAllowLaunchedBrowser()))
	}
	svc, err := jobservice.New(*state, b.Open, opts...)
	if err != nil {
		return err
	}
	closeSvc := func() {
		cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := svc.Close(cctx); err != nil {
			logger.Warn("service close", "err", err)
		}
	}
	defer closeSvc()
	// The launch probe runs at startup (and at most once a minute after).
	if d := svc.Preflight(ctx); !d.Available {
		logger.Warn("preflight: browser unavailable")
	}

	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "listening http://%s\n", ln.Addr())
	if ready != nil {
		ready <- ln.Addr().String()
	}
	hs := &http.Server{Handler: svc.Handler(), ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 30 * time.Second, IdleTimeout: 60 * time.Second, ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Close the service first: waiting status requests return at once.
	closeSvc()
	if err := hs.Shutdown(sctx); err != nil {
		return err
	}
	<-done
	return nil
}

// checkLoopback refuses an address whose host is not a loopback IP or
// "localhost" (an empty host listens on every interface).
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%w: -listen %q: %v", errUsage, addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%w: %q (use -allow-remote to listen there on purpose)", errNotLoopback, addr)
}

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
	"net/url"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
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
	active := fs.Int("active", jobs.DefaultActiveBrowsers, "runs at once (one browser; a pool's slots are its endpoints')")
	var remotes endpointFlags
	fs.Var(&remotes, "endpoint", "a remote CDP endpoint of the pool, NAME=ws-or-http-url[,slots=N] (N default 1; repeatable)")
	browsers := fs.Int("browsers", 0, "launch N Chromium processes as the pool's endpoints local-0 ... (one slot each)")
	queued := fs.Int("queued", jobs.DefaultMaxQueued, "runs waiting for a slot")
	noTrial := fs.Bool("no-trial", false, "offer no trial (GET /v1/trial); never offered with -connect or -endpoint")
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
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := checkPool(set, len(remotes), *browsers); err != nil {
		return err
	}
	pool := len(remotes) > 0 || *browsers > 0
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

	var opts []jobservice.Option
	var source jobs.DriverSource
	if pool {
		eps, closeAll, err := startPool(ctx, remotes, *browsers, *browserPath, logger)
		defer closeAll()
		if err != nil {
			return err
		}
		opts = append(opts, jobservice.WithEndpoints(eps...))
	} else {
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
		source = b.Open
		opts = append(opts, jobservice.WithAvailability(available), jobservice.WithViewportSource(b.OpenViewport),
			jobservice.WithActiveBrowsers(*active))
	}
	opts = append(opts, jobservice.WithLogger(logger), jobservice.WithMaxQueued(*queued))
	if *bundles != "" {
		opts = append(opts, jobservice.WithBundles(*bundles))
	}
	if *connect == "" && len(remotes) == 0 && !*noTrial {
		// The trial fixture is on this host's loopback: only browsers
		// launched here reach it.
		opts = append(opts, jobservice.WithTrial())
	}
	if *allowLaunched {
		opts = append(opts, jobservice.WithVerifyOptions(bundle.WithAllowLaunchedBrowser()))
	}
	svc, err := jobservice.New(*state, source, opts...)
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

// maxSlots bounds one endpoint's slots (-endpoint ...,slots=N) and
// maxBrowsers the launched pool (-browsers N).
const (
	maxSlots    = 64
	maxBrowsers = 16
)

// remoteEndpoint is one -endpoint flag: NAME=URL[,slots=N].
type remoteEndpoint struct {
	name  string
	url   string
	slots int
}

// endpointFlags are the repeatable -endpoint flags.
type endpointFlags []remoteEndpoint

// endpointName is jobs.Endpoint's rule for a name; "local-" names are
// the launched browsers'.
var endpointName = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

func (f *endpointFlags) String() string { return "" }

// Set parses NAME=URL[,slots=N]: the URL is ws, wss, http or https,
// with a host and no comma. Its own errors name the endpoint, not the
// URL, which may hold a credential.
func (f *endpointFlags) Set(v string) error {
	name, rest, ok := strings.Cut(v, "=")
	if !ok || !endpointName.MatchString(name) {
		return errors.New("want NAME=URL[,slots=N] with NAME 1 to 64 bytes of A-Z, a-z, 0-9, '.', '-', '_'")
	}
	if strings.HasPrefix(name, "local-") {
		return fmt.Errorf("endpoint %q: names local-N are the launched browsers'", name)
	}
	for _, e := range *f {
		if e.name == name {
			return fmt.Errorf("endpoint %q twice", name)
		}
	}
	raw, opts, _ := strings.Cut(rest, ",")
	e := remoteEndpoint{name: name, url: raw, slots: 1}
	u, err := url.Parse(raw)
	switch {
	case raw == "":
		return fmt.Errorf("endpoint %q: no URL", name)
	case err != nil:
		return fmt.Errorf("endpoint %q: the URL does not parse", name)
	case u.Scheme != "ws" && u.Scheme != "wss" && u.Scheme != "http" && u.Scheme != "https" || !strings.HasPrefix(raw, u.Scheme+"://"):
		return fmt.Errorf("endpoint %q: the URL's scheme is not ws, wss, http or https", name)
	case u.Host == "" || u.Hostname() == "":
		return fmt.Errorf("endpoint %q: the URL has no host", name)
	}
	if opts != "" || strings.HasSuffix(rest, ",") {
		n, ok := strings.CutPrefix(opts, "slots=")
		if !ok {
			return fmt.Errorf("endpoint %q: after the URL only ,slots=N", name)
		}
		slots, err := strconv.Atoi(n)
		if err != nil || slots < 1 || slots > maxSlots || n != strconv.Itoa(slots) {
			return fmt.Errorf("endpoint %q: slots must be 1 to %d", name, maxSlots)
		}
		e.slots = slots
	}
	*f = append(*f, e)
	return nil
}

// checkPool refuses flags that do not go with a pool (set names the
// flags given).
func checkPool(set map[string]bool, remotes, browsers int) error {
	if browsers < 0 || browsers > maxBrowsers {
		return fmt.Errorf("%w: -browsers must be 0 to %d", errUsage, maxBrowsers)
	}
	if remotes == 0 && browsers == 0 {
		return nil
	}
	switch {
	case set["connect"]:
		return fmt.Errorf("%w: -connect is one browser; name it with -endpoint in a pool", errUsage)
	case set["active"]:
		return fmt.Errorf("%w: -active is one browser's; a pool's slots are its endpoints' (,slots=N)", errUsage)
	case set["browser"] && browsers == 0:
		return fmt.Errorf("%w: -browser names the Chromium that -browsers launches", errUsage)
	}
	return nil
}

// startPool connects the remote endpoints and launches n local
// browsers; closeAll closes every browser it started, also when it
// fails.
func startPool(ctx context.Context, remotes []remoteEndpoint, n int, path string, logger *slog.Logger) (eps []jobs.Endpoint, closeAll func(), err error) {
	var bs []*browser.Browser
	closeAll = func() {
		for _, b := range bs {
			_ = b.Close()
		}
	}
	for _, r := range remotes {
		b, err := browser.ConnectBrowser(ctx, r.url, browser.WithLogger(logger.With("endpoint", r.name)))
		if err != nil {
			return nil, closeAll, fmt.Errorf("endpoint %s: %w", r.name, err)
		}
		bs = append(bs, b)
		eps = append(eps, jobs.Endpoint{Name: r.name, Slots: r.slots, Open: b.Open, OpenViewport: b.OpenViewport})
	}
	for i := range n {
		name := "local-" + strconv.Itoa(i)
		b, err := browser.LaunchBrowser(ctx, browser.WithBrowserPath(path), browser.WithLogger(logger.With("endpoint", name)))
		if err != nil {
			return nil, closeAll, fmt.Errorf("endpoint %s: %w", name, err)
		}
		bs = append(bs, b)
		eps = append(eps, jobs.Endpoint{Name: name, Slots: 1, Open: b.Open, OpenViewport: b.OpenViewport, Done: b.Done()})
	}
	return eps, closeAll, nil
}

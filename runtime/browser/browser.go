package browser

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/vera-run/vera/runtime"
)

// Browser is one Chrome or Chromium that serves many runs at once: it is
// launched ([LaunchBrowser]) or connected to ([ConnectBrowser]) once and
// hands out a fresh [*Driver] per run ([Browser.NewDriver]), each with its
// own CDP connection, browser context (Target.createBrowserContext),
// page, network gate and download folder, as [Connect] opens one; new
// targets are held and handed to the driver owning their context by one
// attach connection of the Browser, so drivers never see or delay each
// other's targets (see the package doc, "One browser, many runs"). Runs in different drivers share no cookies, storage, cache,
// pages or origin scope, so they cannot read each other's answers. Its
// methods are safe for concurrent use; each Driver it hands out is, like
// every Driver, used by one run at a time.
//
// Closing a driver closes its browser context and leaves the browser
// running; [Browser.Close] closes every driver still open and then, for a
// launched browser, kills it and deletes its profile.
type Browser struct {
	log       *slog.Logger
	o         options
	proc      *process // LaunchBrowser only
	wsURL     string
	endpoint  string    // redacted, for logs and errors
	downloads string    // launched without WithDownloadDirectory: the parent of the per-driver folders
	att       *attacher // the one attach path of every driver (attach.go)

	lifeCtx    context.Context // cancelled by Close: ends opens in progress
	lifeCancel context.CancelFunc

	mu      sync.Mutex
	closed  bool
	seq     uint64
	drivers map[*Driver]string // open drivers and their private download folder ("" for none)
	// attachErr: the attach connection ended while the Browser was open.
	attachErr error
	opening   sync.WaitGroup

	closeOnce sync.Once
	closeErr  error
}

// LaunchBrowser starts a provider-owned headless Chromium, as [Launch]
// does (same executable search, switches, options and errors), and
// returns it as a [Browser] for many concurrent runs. Its drivers report
// [runtime.ModeLiveLaunched] and the [runtime.DownloadBrowserPath] route;
// without [WithDownloadDirectory] each driver saves into its own folder inside
// the browser's temporary directory, deleted when that driver closes.
// ctx bounds the start only. A nil ctx is refused with
// [runtime.ErrInvalidArgument].
func LaunchBrowser(ctx context.Context, opts ...Option) (*Browser, error) {
	o, proc, wsURL, downloads, err := launchTarget(ctx, opts)
	if err != nil {
		return nil, err
	}
	if o.downloadDir != "" {
		downloads = ""
	}
	b := newBrowser(o, wsURL)
	b.proc = proc
	b.downloads = downloads
	if err := b.startAttach(ctx); err != nil {
		proc.kill()
		return nil, fmt.Errorf("%w: %w", runtime.ErrBrowserLaunchFailed, err)
	}
	o.logger.Info("browser launched", "pid", proc.pid(), "shared", true)
	return b, nil
}

// ConnectBrowser attaches to an externally owned Chrome through its
// DevTools endpoint, with [Connect]'s endpoint rules and options, and
// returns it as a [Browser] for many concurrent runs. The endpoint is
// resolved and checked once, here (a /json/version lookup for an http
// endpoint), and the Browser's attach connection opened; each
// [Browser.NewDriver] then connects as Connect does.
// Its drivers report [runtime.ModeLiveConnected]. With [WithDownloadDirectory]
// each driver saves into its own new subfolder of that folder,
// "run-<random>" (owner-only, kept after the driver closes: the files
// are the caller's), because the directory route attributes a download by
// watching the folder and two runs must not watch the same one. Close closes only the
// contexts it opened; the browser keeps running. A nil ctx is refused
// with [runtime.ErrInvalidArgument].
func ConnectBrowser(ctx context.Context, endpointURL string, opts ...Option) (*Browser, error) {
	o, wsURL, ep, err := connectTarget(ctx, endpointURL, opts)
	if err != nil {
		return nil, err
	}
	b := newBrowser(o, wsURL)
	if err := b.startAttach(ctx); err != nil {
		return nil, err
	}
	o.logger.Info("browser connected", "endpoint", ep.redacted(), "shared", true)
	return b, nil
}

func newBrowser(o options, wsURL string) *Browser {
	lifeCtx, lifeCancel := context.WithCancel(context.Background())
	return &Browser{
		log:        o.logger,
		o:          o,
		wsURL:      wsURL,
		endpoint:   redactURL(wsURL),
		lifeCtx:    lifeCtx,
		lifeCancel: lifeCancel,
		drivers:    map[*Driver]string{},
	}
}

// startAttach opens the Browser's attach connection (attach.go). When it
// ends while the Browser is open, every open driver is marked crashed:
// no new target of theirs could be held before its first request.
func (b *Browser) startAttach(ctx context.Context) error {
	att, err := dialAttacher(ctx, b.wsURL, b.o, func(cause error) {
		b.mu.Lock()
		b.attachErr = cause
		ds := make([]*Driver, 0, len(b.drivers))
		for d := range b.drivers {
			ds = append(ds, d)
		}
		b.mu.Unlock()
		b.log.Warn("browser attach connection lost", "err", cause)
		for _, d := range ds {
			d.markCrashed("browser attach connection lost: " + cause.Error())
		}
	})
	if err != nil {
		return err
	}
	b.att = att
	return nil
}

// NewDriver opens a driver for one run in a new browser context of the
// browser, bounded by ctx (and by Close, which ends an open in progress
// with [runtime.ErrClosed]). The caller closes the driver when the run
// is done; Close of the Browser closes any it did not. After Close it
// fails with [runtime.ErrClosed]; when a launched browser has exited,
// with [runtime.ErrBrowserCrashed]; when the browser cannot be reached,
// with [runtime.ErrBrowserUnavailable]. A nil ctx is refused with
// [runtime.ErrInvalidArgument].
func (b *Browser) NewDriver(ctx context.Context) (*Driver, error) {
	if b == nil {
		return nil, fmt.Errorf("%w: nil Browser", runtime.ErrInvalidArgument)
	}
	return b.newDriver(ctx, b.o)
}

// newDriver is NewDriver with the driver's options o (the Browser's,
// or a copy with another viewport: OpenViewport).
func (b *Browser) newDriver(ctx context.Context, o options) (*Driver, error) {
	if b == nil {
		return nil, fmt.Errorf("%w: nil Browser", runtime.ErrInvalidArgument)
	}
	if ctx == nil {
		return nil, errNilContext
	}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil, fmt.Errorf("browser: new driver: %w", runtime.ErrClosed)
	}
	if b.proc != nil && !b.proc.alive() {
		b.mu.Unlock()
		return nil, fmt.Errorf("browser: new driver: %w: browser process exited", runtime.ErrBrowserCrashed)
	}
	if b.attachErr != nil {
		err := b.attachErr
		b.mu.Unlock()
		return nil, fmt.Errorf("browser: new driver: %w: %w", runtime.ErrBrowserUnavailable, err)
	}
	b.seq++
	n := b.seq
	b.opening.Add(1)
	b.mu.Unlock()
	defer b.opening.Done()

	// Close ends an open in progress.
	octx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(b.lifeCtx, cancel)
	defer func() { stop(); cancel() }()

	o.host = b
	downloads := o.downloadDir
	private := ""
	if b.downloads != "" {
		private = filepath.Join(b.downloads, "run-"+strconv.FormatUint(n, 10))
		if err := os.Mkdir(private, 0o700); err != nil {
			return nil, fmt.Errorf("%w: download folder: %v", runtime.ErrBrowserUnavailable, err)
		}
		downloads = private
	} else if b.proc == nil && o.downloadDir != "" {
		// Connected with WithDownloadDirectory (the directory route): the
		// runtime attributes a download by watching the folder, so two
		// concurrent runs must not share one. Each driver saves into
		// its own subfolder, which stays: the files are the caller's.
		keep, err := os.MkdirTemp(o.downloadDir, "run-")
		if err != nil {
			return nil, fmt.Errorf("%w: download folder: %v", runtime.ErrBrowserUnavailable, err)
		}
		downloads = keep
	}
	d, err := open(octx, b.wsURL, o, nil, downloads)
	if err != nil {
		if private != "" {
			_ = os.RemoveAll(private)
		}
		if b.lifeCtx.Err() != nil {
			return nil, fmt.Errorf("browser: new driver: %w", runtime.ErrClosed)
		}
		if b.proc != nil && !b.proc.alive() {
			return nil, fmt.Errorf("browser: new driver: %w: browser process exited: %w", runtime.ErrBrowserCrashed, err)
		}
		return nil, err
	}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		_ = d.Close()
		return nil, fmt.Errorf("browser: new driver: %w", runtime.ErrClosed)
	}
	if err := b.attachErr; err != nil {
		// The attach connection ended while the driver opened: it
		// missed the crash mark the open drivers got.
		b.mu.Unlock()
		_ = d.Close()
		return nil, fmt.Errorf("browser: new driver: %w: %w", runtime.ErrBrowserUnavailable, err)
	}
	b.drivers[d] = private
	b.mu.Unlock()
	b.log.Debug("driver opened", "browser_context", string(d.browserCtxID))
	return d, nil
}

// Open is [Browser.NewDriver] as a [runtime.Driver]: the signature
// runtime.Preflight and runtime/jobs take as a driver source.
func (b *Browser) Open(ctx context.Context) (runtime.Driver, error) {
	d, err := b.NewDriver(ctx)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// Active returns how many drivers the browser handed out that are not
// closed yet.
func (b *Browser) Active() int {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.drivers)
}

// Done is closed when a launched browser's process has exited (crashed,
// killed or closed). For a connected browser it is nil: the browser is
// not the Browser's to watch, and each driver reports its own
// disconnection.
func (b *Browser) Done() <-chan struct{} {
	if b == nil || b.proc == nil {
		return nil
	}
	return b.proc.exited
}

// release forgets a closed driver and deletes its private download
// folder. Driver.Close calls it.
func (b *Browser) release(d *Driver) {
	b.mu.Lock()
	private, ok := b.drivers[d]
	delete(b.drivers, d)
	b.mu.Unlock()
	if ok && private != "" {
		_ = os.RemoveAll(private)
	}
}

// Close closes every driver still open (each disposes its browser
// context), ends opens in progress, and then kills a launched browser
// with every process it started and deletes its temporary profile; a
// connected browser keeps running. No goroutine or process of the
// Browser outlives Close. It is idempotent; every call returns the first
// call's result, the first error of a driver's Close.
func (b *Browser) Close() error {
	if b == nil {
		return fmt.Errorf("%w: nil Browser", runtime.ErrInvalidArgument)
	}
	b.closeOnce.Do(func() {
		b.mu.Lock()
		b.closed = true
		ds := make([]*Driver, 0, len(b.drivers))
		for d := range b.drivers {
			ds = append(ds, d)
		}
		b.mu.Unlock()
		b.lifeCancel()
		b.opening.Wait()
		var wg sync.WaitGroup
		errs := make([]error, len(ds))
		for i, d := range ds {
			wg.Go(func() { errs[i] = d.Close() })
		}
		wg.Wait()
		b.closeErr = errors.Join(errs...)
		b.att.close()
		if b.proc != nil {
			b.proc.kill()
			b.log.Info("browser closed")
		} else {
			b.log.Info("browser disconnected")
		}
	})
	return b.closeErr
}

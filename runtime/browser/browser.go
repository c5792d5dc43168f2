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
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/vera-run/vera/locator"
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
// running; [Browser.Close] closes every driver still open (and the
// spare, [WithSpare]: a driver opened ahead for the next run) and then,
// for a launched browser, kills it and deletes its profile.
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

	// spare is the driver the next NewDriver hands out, being opened or
	// ready (WithSpare); nil when there is none. spareWG counts the
	// goroutines that open one.
	spare   *spareSlot
	spareWG sync.WaitGroup

	closeOnce sync.Once
	closeErr  error
}

// spareSlot is one spare driver: done is closed when its open ended, with
// d and private (its download folder) or err. orphan: nobody holds the
// slot any more and it was not ready; the goroutine opening it discards
// it when the open ends. wanted: a NewDriver waits for it, so its open
// ends without the warm-up (a waiting run would wait for that too). Its
// fields are guarded by the Browser's mu.
type spareSlot struct {
	done    chan struct{}
	d       *Driver
	private string
	err     error
	orphan  bool
	wanted  bool
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
	if !o.spareSet {
		o.spare = true
	}
	b := newBrowser(o, wsURL)
	b.proc = proc
	b.downloads = downloads
	if err := b.startAttach(ctx); err != nil {
		proc.kill()
		return nil, fmt.Errorf("%w: %w", runtime.ErrBrowserLaunchFailed, err)
	}
	o.logger.Info("browser launched", "pid", proc.pid(), "shared", true)
	b.keepSpare()
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
	b.keepSpare()
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
// with [runtime.ErrClosed]). With a spare ([WithSpare]: a launched
// Browser keeps one by default) it hands out the driver the Browser
// opened ahead, once a page round trip showed it alive (waiting for it
// when its open is under way; when it failed or is not alive, it opens a
// fresh one). The caller closes the driver when the run is done, which
// starts the open of the next spare; Close of the Browser closes any
// driver it did not. After Close it
// fails with [runtime.ErrClosed]; when a launched browser has exited,
// with [runtime.ErrBrowserCrashed]; when the browser cannot be reached,
// with [runtime.ErrBrowserUnavailable]. A nil ctx is refused with
// [runtime.ErrInvalidArgument].
func (b *Browser) NewDriver(ctx context.Context) (*Driver, error) {
	if b == nil {
		return nil, fmt.Errorf("%w: nil Browser", runtime.ErrInvalidArgument)
	}
	return b.newDriver(ctx, b.o, true)
}

// newDriver is NewDriver with the driver's options o (the Browser's,
// or a copy with another viewport: OpenViewport). spare: o are the
// Browser's own options, so the spare may serve (and is then replaced).
func (b *Browser) newDriver(ctx context.Context, o options, spare bool) (*Driver, error) {
	if b == nil {
		return nil, fmt.Errorf("%w: nil Browser", runtime.ErrInvalidArgument)
	}
	if ctx == nil {
		return nil, errNilContext
	}
	b.mu.Lock()
	if err := b.usableLocked(); err != nil {
		b.mu.Unlock()
		return nil, err
	}
	var s *spareSlot
	if spare {
		s, b.spare = b.spare, nil
	}
	b.opening.Add(1)
	b.mu.Unlock()
	defer b.opening.Done()

	if s != nil {
		d, err := b.fromSpare(ctx, s)
		if d != nil || err != nil {
			return d, err
		}
	}
	d, private, err := b.openDriver(ctx, o)
	if err != nil {
		return nil, err
	}
	if err := b.register(d, private); err != nil {
		return nil, err
	}
	return d, nil
}

// usableLocked reports why no driver can be opened now: the Browser is
// closed, its launched browser exited, or its attach connection ended.
func (b *Browser) usableLocked() error {
	switch {
	case b.closed:
		return fmt.Errorf("browser: new driver: %w", runtime.ErrClosed)
	case b.proc != nil && !b.proc.alive():
		return fmt.Errorf("browser: new driver: %w: browser process exited", runtime.ErrBrowserCrashed)
	case b.attachErr != nil:
		return fmt.Errorf("browser: new driver: %w: %w", runtime.ErrBrowserUnavailable, b.attachErr)
	}
	return nil
}

// openDriver opens a driver with options o, not yet handed out: its
// private download folder is returned beside it (see register).
func (b *Browser) openDriver(ctx context.Context, o options) (*Driver, string, error) {
	b.mu.Lock()
	b.seq++
	n := b.seq
	b.mu.Unlock()

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
			return nil, "", fmt.Errorf("%w: download folder: %v", runtime.ErrBrowserUnavailable, err)
		}
		downloads = private
	} else if b.proc == nil && o.downloadDir != "" {
		// Connected with WithDownloadDirectory (the directory route): the
		// runtime attributes a download by watching the folder, so two
		// concurrent runs must not share one. Each driver saves into
		// its own subfolder, which stays: the files are the caller's.
		keep, err := os.MkdirTemp(o.downloadDir, "run-")
		if err != nil {
			return nil, "", fmt.Errorf("%w: download folder: %v", runtime.ErrBrowserUnavailable, err)
		}
		downloads = keep
	}
	d, err := open(octx, b.wsURL, o, nil, downloads)
	if err != nil {
		if private != "" {
			_ = os.RemoveAll(private)
		}
		if b.lifeCtx.Err() != nil {
			return nil, "", fmt.Errorf("browser: new driver: %w", runtime.ErrClosed)
		}
		if b.proc != nil && !b.proc.alive() {
			return nil, "", fmt.Errorf("browser: new driver: %w: browser process exited: %w", runtime.ErrBrowserCrashed, err)
		}
		return nil, "", err
	}
	return d, private, nil
}

// register hands out d: the Browser counts it as open from now on, or
// closes it when the Browser closed or lost its attach connection
// meanwhile.
func (b *Browser) register(d *Driver, private string) error {
	b.mu.Lock()
	var err error
	switch {
	case b.closed:
		err = fmt.Errorf("browser: new driver: %w", runtime.ErrClosed)
	case b.attachErr != nil:
		// The attach connection ended while the driver opened (or
		// waited as the spare): it missed the crash mark the open
		// drivers got.
		err = fmt.Errorf("browser: new driver: %w: %w", runtime.ErrBrowserUnavailable, b.attachErr)
	default:
		b.drivers[d] = private
	}
	b.mu.Unlock()
	if err != nil {
		_ = d.Close()
		if private != "" {
			_ = os.RemoveAll(private)
		}
		return err
	}
	b.log.Debug("driver opened", "browser_context", string(d.browserCtxID))
	return nil
}

// spareOpenTimeout bounds the open of a spare driver, and
// spareProbeTimeout the round trip that shows a spare alive before it is
// handed out (a connection a remote end dropped in silence while the
// spare waited fails it; a fresh driver is opened instead).
const (
	spareOpenTimeout  = time.Minute
	spareProbeTimeout = 2 * time.Second
	// spareWarmTimeout bounds the warm-up (warmUp): a renderer that
	// does not answer it within that leaves the spare to the probe.
	spareWarmTimeout = 5 * time.Second
)

// keepSpare starts opening a spare driver with the Browser's options,
// unless spares are off, one exists or is being opened, or the Browser
// can open none.
func (b *Browser) keepSpare() {
	if !b.o.spare {
		return
	}
	b.mu.Lock()
	if b.spare != nil || b.usableLocked() != nil {
		b.mu.Unlock()
		return
	}
	s := &spareSlot{done: make(chan struct{})}
	b.spare = s
	b.spareWG.Add(1)
	b.mu.Unlock()
	go func() {
		defer b.spareWG.Done()
		ctx, cancel := context.WithTimeout(b.lifeCtx, spareOpenTimeout)
		d, private, err := b.openDriver(ctx, b.o)
		cancel()
		b.mu.Lock()
		warm := err == nil && !s.wanted
		b.mu.Unlock()
		if warm {
			wctx, cancel := context.WithTimeout(b.lifeCtx, spareWarmTimeout)
			d.warmUp(wctx)
			cancel()
		}
		b.mu.Lock()
		s.d, s.private, s.err = d, private, err
		orphan := s.orphan
		close(s.done)
		b.mu.Unlock()
		if err != nil {
			b.log.Debug("spare driver not opened", "err", err)
		}
		if orphan {
			b.discard(s)
		}
	}()
}

// warmCounts are the candidates of the spare's warm-up look: a run's
// first look (its unknown-modal and outcome checks) asks these kinds.
var warmCounts = []locator.Candidate{
	{Strategy: locator.Role, Role: "dialog"},
	{Strategy: locator.Role, Role: "alertdialog"},
	{Strategy: locator.Text, Text: "vera warm-up"},
}

// warmUp runs the page helpers a run's first look and first lookups use
// (the counts, find, label and role helpers) once on the spare's blank
// page, unless a NewDriver already waits for the spare (spareSlot.wanted),
// so that their scripts are compiled in its renderer before a run
// waits on them: V8 keeps compiled scripts per process, and the run's
// first document loads in the process of the page's initial blank one.
// Measured on the teller's login page: the first FindCounts after a
// warm-up 8-12 ms, without 19-28 ms. It changes nothing a run sees (the
// blank document, with the helpers the driver recorded for it, is
// replaced by the run's first navigation) and an error only leaves the
// renderer colder; the probe at handout decides whether the spare lives.
func (d *Driver) warmUp(ctx context.Context) {
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		return
	}
	_, _ = d.FindCounts(ctx, top, nil, warmCounts)
	_, _ = d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.Label, Label: "vera warm-up"})
	_, _ = d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.Role, Role: "textbox", Name: "vera warm-up"})
}

// fromSpare hands out the spare s once its open ended, within ctx. It
// returns nil and no error when s failed or is no longer usable (it is
// discarded): the caller opens a driver instead.
func (b *Browser) fromSpare(ctx context.Context, s *spareSlot) (*Driver, error) {
	b.mu.Lock()
	s.wanted = true
	b.mu.Unlock()
	select {
	case <-s.done:
	case <-ctx.Done():
		b.giveBack(s)
		return nil, fmt.Errorf("browser: new driver: %w: %w", runtime.ErrBrowserUnavailable, ctx.Err())
	case <-b.lifeCtx.Done():
		b.giveBack(s)
		return nil, fmt.Errorf("browser: new driver: %w", runtime.ErrClosed)
	}
	if s.err != nil {
		return nil, nil
	}
	if err := b.probeSpare(ctx, s.d); err != nil {
		b.log.Debug("spare driver unusable; opening another", "err", err)
		b.discard(s)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("browser: new driver: %w: %w", runtime.ErrBrowserUnavailable, ctx.Err())
		}
		return nil, nil
	}
	if err := b.register(s.d, s.private); err != nil {
		return nil, err
	}
	return s.d, nil
}

// probeSpare shows that spare d still has its browser, connection and
// page: none of them ended while it waited, and its page answers a round
// trip.
func (b *Browser) probeSpare(ctx context.Context, d *Driver) error {
	if b.proc != nil && !b.proc.alive() {
		return errors.New("browser process exited")
	}
	// begin fails as any call would: closed, crashed, connection gone.
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	pctx, cancel := context.WithTimeout(cctx, spareProbeTimeout)
	defer cancel()
	return d.call(pctx, d.pageSID, proto.RuntimeEvaluate{Expression: "1", ReturnByValue: true}, nil)
}

// giveBack makes s the spare again when there is none (a caller stopped
// waiting for it), else discards it.
func (b *Browser) giveBack(s *spareSlot) {
	b.mu.Lock()
	s.wanted = false
	if !b.closed && b.spare == nil {
		b.spare = s
		b.mu.Unlock()
		return
	}
	b.mu.Unlock()
	b.discard(s)
}

// discard closes spare s and deletes its download folder, now when its
// open ended, else when it does.
func (b *Browser) discard(s *spareSlot) {
	b.mu.Lock()
	select {
	case <-s.done:
	default:
		s.orphan = true
		b.mu.Unlock()
		return
	}
	b.mu.Unlock()
	if s.err == nil {
		_ = s.d.Close()
	}
	if s.private != "" {
		_ = os.RemoveAll(s.private)
	}
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
// folder; a driver handed out and now closed starts the open of the next
// spare. Driver.Close calls it.
func (b *Browser) release(d *Driver) {
	b.mu.Lock()
	private, ok := b.drivers[d]
	delete(b.drivers, d)
	b.mu.Unlock()
	if ok && private != "" {
		_ = os.RemoveAll(private)
	}
	if ok {
		b.keepSpare()
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
		b.spareWG.Wait()
		b.mu.Lock()
		s := b.spare
		b.spare = nil
		b.mu.Unlock()
		if s != nil {
			b.discard(s)
		}
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

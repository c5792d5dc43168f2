package browser

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/runtime/browser/internal/cdpws"
	"github.com/vera-run/vera/runtime/browser/internal/netgate"
)

// DefaultMaxMessageBytes is the read limit of one CDP message (all its
// WebSocket fragments together) when no [WithMaxMessageBytes] is given:
// 256 MiB, Puppeteer's limit, which full-page screenshots and DOM
// snapshots of tens of MiB fit. A message above the limit ends the
// connection with a [*ProtocolError].
const DefaultMaxMessageBytes = cdpws.DefaultMaxMessageBytes

// MinMaxMessageBytes and MaxMaxMessageBytes bound [WithMaxMessageBytes].
const (
	MinMaxMessageBytes = 1 << 20
	MaxMaxMessageBytes = 1 << 40
)

// StallTimeout is how long the driver waits for a CDP endpoint to answer
// a ping (sent while a call waits and nothing has arrived for a second)
// or to take a write, before it counts the endpoint as stalled
// ([ErrEndpointStalled]) and the browser as gone.
const StallTimeout = cdpws.DefaultStallTimeout

// Option configures [Launch] or [Connect].
type Option func(*options)

type options struct {
	// callTrace is Driver.callTrace from the first call on (tests).
	callTrace     func(method string, start time.Time)
	logger        *slog.Logger
	browserPath   string
	remote        bool
	downloadDir   string
	extraFlags    []string
	maxMessage    int64 // 0: cdpws default
	maxMessageSet bool
	// noGate: the browser is remote (Connect with a non-loopback
	// endpoint) and cannot reach a proxy on this host's loopback.
	noGate      bool
	forceNoGate bool // withoutGate
	// resolver replaces the system resolver of the network gate (tests
	// simulate DNS rebinding with it); nil is the system resolver.
	resolver netgate.Resolver
	// viewport: WithViewport (viewport.go).
	viewportW, viewportH int
	viewportSet          bool
	// host is the Browser a driver is opened for (Browser.NewDriver).
	host *Browser
	// attachTrace is attacher.routed (tests: LaunchBrowser and
	// ConnectBrowser only).
	attachTrace func(info *proto.TargetTargetInfo, to *Driver)
	// auth: WithGrant, WithCeiling and the decided authorization (grant.go).
	auth authOptions
	// spare: WithSpare; spareSet: given (else LaunchBrowser keeps one,
	// ConnectBrowser none).
	spare, spareSet bool
}

// check reports an option value outside its range.
func (o options) check() error {
	if o.maxMessageSet && (o.maxMessage < MinMaxMessageBytes || o.maxMessage > MaxMaxMessageBytes) {
		return fmt.Errorf("%w: WithMaxMessageBytes(%d): must be from %d to %d", ErrInvalidOption, o.maxMessage, MinMaxMessageBytes, int64(MaxMaxMessageBytes))
	}
	return o.checkViewport()
}

// withAttachTrace sets attacher.routed: fn sees every target a
// Browser's attach path attached and the driver it went to (tests).
func withAttachTrace(fn func(info *proto.TargetTargetInfo, to *Driver)) Option {
	return func(o *options) { o.attachTrace = fn }
}

// withoutGate turns the network gate off, leaving only the first layer.
// Unexported: tests use it as the control that shows what the gate stops.
func withoutGate() Option { return func(o *options) { o.forceNoGate = true } }

// withResolver makes the driver's network gate resolve names with r
// instead of the system resolver. Unexported: tests only.
func withResolver(r netgate.Resolver) Option { return func(o *options) { o.resolver = r } }

func buildOptions(opts []Option) options {
	var o options
	for _, fn := range opts {
		if fn != nil {
			fn(&o)
		}
	}
	if o.logger == nil {
		o.logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// WithLogger injects the logger the driver reports to (browser start and
// stop, blocked requests by origin, dialogs, crashes). Nil discards logs.
// Private values (typed text, page content, full URLs) are never logged.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithBrowserPath names the Chrome or Chromium executable [Launch] starts.
// It takes precedence over the VERA_BROWSER environment variable and the
// search of the usual install locations. Connect ignores it.
func WithBrowserPath(path string) Option { return func(o *options) { o.browserPath = path } }

// WithRemoteEndpoint lets [Connect] attach to a non-loopback ws:// or wss://
// CDP endpoint, such as a browser grid. The risk: whoever runs that
// endpoint sees every page, typed value and cookie of the run, and a
// remote browser's "localhost" is the remote machine, not yours. By
// default Connect accepts only loopback endpoints with an explicit port.
// Launch ignores it.
func WithRemoteEndpoint() Option { return func(o *options) { o.remote = true } }

// WithDownloadDirectory sets the folder downloads are saved into.
//
// Launched browser ([runtime.DownloadBrowserPath] route): files are saved
// under their download GUID. The folder must exist and the driver never
// deletes it. By default a launched driver uses a folder inside its
// temporary profile, which Close deletes with every file in it, so
// callers must verify or copy a download before Close.
//
// Connected browser ([runtime.DownloadDirectory] route): by default the
// driver leaves downloads to the browser's own settings (its Downloads
// folder or a save prompt; a headless browser cancels them). With this
// option the driver's own browser context (never the operator's other
// contexts or settings) saves into the folder, which the driver reports
// as [runtime.DriverInfo].DownloadFolder and the runtime then watches (no
// second runtime.WithDownloadDirectory needed): each completed download is named after its suggested name, or
// "stem (n).ext" when that name is taken; an existing file is never
// replaced.
func WithDownloadDirectory(dir string) Option { return func(o *options) { o.downloadDir = dir } }

// WithExtraFlags appends command-line switches ("--lang=it") to the ones
// [Launch] passes. They cannot remove the fixed switches (headless, the
// temporary profile, the debugging port). Connect ignores it.
func WithExtraFlags(flags ...string) Option {
	return func(o *options) { o.extraFlags = append(o.extraFlags, flags...) }
}

// WithSpare turns the spare driver of a [Browser] on or off. With it the
// Browser opens the next run's driver (its connection, browser context,
// network gate and page: most of the time a driver's open takes) ahead:
// once when it starts and again whenever a driver it handed out is
// closed. [Browser.NewDriver] hands the spare out (after a page round
// trip showed it alive; else it opens a fresh driver), waiting for it
// when its open is under way. A host with time between runs then starts
// each run without waiting for a new page, at the cost of one more idle
// browser context and page (a renderer process) while the Browser is
// open; a host that runs back to back waits for the spare as long as a
// fresh open would take. The spare is not opened while a run is being
// handed out, only after one ended, so it never competes with the start
// of the run that asked for a driver. Drivers of other sizes
// ([Browser.OpenViewport]) never use it. [LaunchBrowser] keeps a spare
// unless WithSpare(false) is given; [ConnectBrowser] only with
// WithSpare(true), because the browser is not the Browser's own (a
// headed Chrome would show the spare's window, a browser grid count it
// as a session). Launch and Connect ignore it.
func WithSpare(on bool) Option { return func(o *options) { o.spare, o.spareSet = on, true } }

// WithMaxMessageBytes sets the read limit of one incoming CDP message, all
// its WebSocket fragments together (default [DefaultMaxMessageBytes]).
// The buffer grows with the bytes actually received, so a frame that
// only claims to be huge costs nothing; a message that passes the limit
// ends the connection with a [*ProtocolError]. Values outside
// [MinMaxMessageBytes]..[MaxMaxMessageBytes] make Launch and Connect fail
// with [ErrInvalidOption].
func WithMaxMessageBytes(n int64) Option {
	return func(o *options) { o.maxMessage, o.maxMessageSet = n, true }
}

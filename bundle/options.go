package bundle

import (
	"io"
	"log/slog"

	"github.com/vera-run/vera/receipt"
)

// Option configures [Seal] and [Verify].
type Option func(*config)

type config struct {
	logger       *slog.Logger
	expectedHash string
	expectedID   string
	claimOpts    []receipt.FinalizeOption
}

func newConfig(opts []Option) *config {
	c := &config{}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	if c.logger == nil {
		c.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return c
}

// WithLogger sets the logger Seal and Verify report progress to (at debug
// level) and problems to (at warn level). Nothing is logged by default.
// Log records name paths and codes, never content.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithExpectedExecutionHash makes [Verify] require that capability.json
// has this execution hash ("sha256:<hex>"), the hash a receiver was told
// to expect out of band. A different capability is [ErrCapability].
// Seal ignores it.
func WithExpectedExecutionHash(h string) Option { return func(c *config) { c.expectedHash = h } }

// WithExpectedID makes [Verify] require that capability.json has this id.
// A different capability is [ErrCapability]. Seal ignores it.
func WithExpectedID(id string) Option { return func(c *config) { c.expectedID = id } }

// WithAllowLaunchedBrowser accepts a validated_local claim whose two runs
// executed in a provider-launched browser (live_launched_browser), as the
// receipt package's [receipt.WithAllowLaunchedBrowser] policy does. By default
// only runs in the operator's connected Chrome (live_connected_chrome)
// support the claim. It applies to Seal and Verify alike.
func WithAllowLaunchedBrowser() Option {
	return func(c *config) { c.claimOpts = append(c.claimOpts, receipt.WithAllowLaunchedBrowser()) }
}

package browser

import (
	"context"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/chromeproc"
	"github.com/vera-run/vera/runtime/grant"
)

// authOptions are the authorization options of Launch, Connect,
// LaunchBrowser, ConnectBrowser and StartLocal.
type authOptions struct {
	grant      *grant.Grant
	ceiling    *grant.Ceiling
	ceilingSet bool
	// authz is the decided authorization (set by launchTarget and
	// connectTarget, copied into every driver by open).
	authz grant.Authorization
}

// WithGrant authorizes the browser target with g: a grant made or checked
// by a [grant.Ceiling] in this process for exactly this target (launch:
// the executable, which WithGrant also selects when no
// [WithBrowserPath] is given; connect: the endpoint string passed to
// Connect). Without WithGrant, Launch, Connect, LaunchBrowser,
// ConnectBrowser and StartLocal start or reach nothing unless the
// ceiling opts in to auto-grant; the refusal wraps [grant.ErrNotGranted]
// and says what to grant. The driver's runs are then covered by g when
// it is for their capability (runtime.WithGrant gives a run another
// grant for the same target).
func WithGrant(g *grant.Grant) Option { return func(o *options) { o.auth.grant = g } }

// WithCeiling sets the ceiling that decides auto-grant (and only that:
// an explicit [WithGrant] grant was checked when it was made). Without
// it the ceiling is read from the environment ([grant.FromEnv]); a bad
// environment ceiling is an error wrapping [grant.ErrCeiling]. A nil c
// is the zero ceiling, which allows nothing.
func WithCeiling(c *grant.Ceiling) Option {
	return func(o *options) { o.auth.ceiling, o.auth.ceilingSet = c, true }
}

// Authorization returns what the driver was opened under: its checked
// target, its explicit grant (nil under auto-grant) and the auto-grant
// ceiling (nil without one). runtime.Execute asks it for each run's
// grant.
func (d *Driver) Authorization() grant.Authorization { return d.authz }

// Authorization returns what the browser was launched or connected
// under; every driver it hands out has the same.
func (b *Browser) Authorization() grant.Authorization { return b.o.auth.authz }

// ceiling is WithCeiling's, else the environment's.
func (a authOptions) ceilingOrEnv() (*grant.Ceiling, error) {
	if a.ceilingSet {
		if a.ceiling == nil {
			return &grant.Ceiling{}, nil
		}
		return a.ceiling, nil
	}
	return grant.FromEnv()
}

// launchPath is the executable a launch starts: WithBrowserPath, else the
// grant's executable, else the usual search (VERA_BROWSER, then the
// install locations).
func (o options) launchPath() string {
	if o.browserPath == "" && o.auth.grant != nil {
		return o.auth.grant.Executable
	}
	return o.browserPath
}

// authorizeLaunch finds the executable and authorizes launching it,
// before anything is started. It returns the authorization, whose
// target holds the resolved executable to start.
func authorizeLaunch(_ context.Context, o options) (grant.Authorization, error) {
	c, err := o.auth.ceilingOrEnv()
	if err != nil {
		return grant.Authorization{}, err
	}
	bin, err := chromeproc.Find(o.launchPath())
	if err != nil {
		return grant.Authorization{}, err
	}
	return grant.Authorize(grant.Target{Mode: grant.ModeLaunch, Executable: bin}, o.auth.grant, c)
}

// authorizeConnect authorizes connecting to endpointURL before any
// request reaches it.
func authorizeConnect(o options, endpointURL string) (grant.Authorization, error) {
	c, err := o.auth.ceilingOrEnv()
	if err != nil {
		return grant.Authorization{}, err
	}
	return grant.Authorize(grant.Target{Mode: grant.ModeConnect, Endpoint: endpointURL}, o.auth.grant, c)
}

// LocalGrant is the one line with which a program grants its own launch
// of c on this machine: the executable found as [Launch] finds it (path,
// else [EnvBrowser], else the usual install locations) and
// [grant.Local] for it, which allows loopback origins only. Pass the
// result to Launch or LaunchBrowser with [WithGrant]. Without a browser
// the error wraps [runtime.ErrBrowserUnavailable]; a capability reaching
// beyond loopback needs a real ceiling ([grant.FromEnv] or one in code).
func LocalGrant(c *capability.Capability, path string) (*grant.Grant, error) {
	bin, err := chromeproc.Find(path)
	if err != nil {
		return nil, err
	}
	return grant.Local(c, grant.LaunchTarget(bin))
}

package runtime

import (
	"errors"
	"fmt"

	"github.com/vera-run/vera/receipt"

	"github.com/vera-run/vera/runtime/grant"
)

// ErrNotGranted is wrapped when [Execute] refuses a live run before its
// first driver call because no grant covers it; the error also wraps
// grant.ErrNotGranted or grant.ErrNotCovered and says what to grant.
var ErrNotGranted = errors.New("runtime: live run not granted")

// Authorized is implemented by live drivers (browser.Driver): what the
// driver was launched or connected under. [Execute] refuses a live run
// on a driver that does not implement it, and asks it for the run's
// grant ([grant.Authorization.ForRun]).
type Authorized interface {
	Authorization() grant.Authorization
}

// WithGrant gives the run its own grant: one made or checked by a
// grant.Ceiling in this process, for the driver's browser target and
// this capability's execution hash and origins. Without it the run uses
// the grant the driver was opened with (browser.WithGrant) when that
// covers the capability, else one derived by an auto-grant ceiling. A
// simulated run (the fake driver) needs no grant and records none.
func WithGrant(g *grant.Grant) Option { return func(c *config) { c.grant = g } }

// authorizeRun decides the grant of a live run before the first driver
// call: nil for a simulated driver, else the driver's authorization's
// grant for this run. The error wraps grant.ErrNotGranted (saying what to
// grant) or grant.ErrNotCovered, and ErrNotGranted of this package.
func authorizeRun(cfg *config, info DriverInfo, execHash string, origins, env []string) (*grant.Grant, error) {
	if info.Mode == ModeSimulated {
		return nil, nil
	}
	az, ok := cfg.driver.(Authorized)
	if !ok {
		return nil, fmt.Errorf("%w: %w: the %s driver %T reports no authorization (a live driver implements runtime.Authorized)",
			ErrNotGranted, grant.ErrNotGranted, info.Mode, cfg.driver)
	}
	g, err := az.Authorization().ForRun(cfg.grant, execHash, origins, env...)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotGranted, err)
	}
	return g, nil
}

// grantRecord is the receipt's record of the run's grant, nil for none.
func grantRecord(g *grant.Grant) *receipt.GrantRecord {
	if g == nil {
		return nil
	}
	d, err := g.Digest()
	if err != nil {
		return nil // unreachable: a checked grant validates
	}
	return &receipt.GrantRecord{Digest: d, Commitment: g.Commitment()}
}

package grant

import (
	"errors"
	"fmt"
)

// Authorization is what a live driver was opened under: the checked
// target it launched or connected to, the explicit grant it was given
// (nil under auto-grant) and the auto-grant ceiling (nil without one).
// The browser package makes it before any side effect; the runtime asks
// it for each run's grant ([Authorization.ForRun]).
type Authorization struct {
	// Target is the browser as it was checked (resolved executable or
	// endpoint).
	Target Target
	// Grant is the explicit grant given to the driver, or nil.
	Grant *Grant
	// Ceiling is the ceiling that may derive a grant (AutoGrant set), or
	// nil.
	Ceiling *Ceiling
}

// Authorize decides, before any side effect, whether a browser target
// may be launched or connected to: with an explicit grant g (checked by
// a ceiling in this process, for exactly this target), or, without one,
// under the ceiling c when it opts in to auto-grant. Anything else wraps
// [ErrNotGranted] (no grant: the message says what to grant),
// [ErrExceedsCeiling] or [ErrNotCovered] (a grant for another target).
// target.Executable may be empty for a launch with a grant: the grant's
// executable is used.
func Authorize(target Target, g *Grant, c *Ceiling) (Authorization, error) {
	var auto *Ceiling
	if c != nil && c.AutoGrant {
		auto = c
	}
	if g != nil {
		if !g.Checked() {
			return Authorization{}, fmt.Errorf("%w: the grant was not checked against a ceiling (use Ceiling.Grant, Launch, Connect or Check)", ErrNotGranted)
		}
		if g.Mode != target.Mode {
			return Authorization{}, fmt.Errorf("%w: the grant is for %s, not %s", ErrNotCovered, g.Target(), target.Mode)
		}
		if target.Mode == ModeLaunch && target.Executable == "" {
			target.Executable = g.Executable
		}
		// The target is checked again now, against the grant: an
		// executable path that resolves elsewhere than when it was
		// granted is another executable.
		if target.Mode == ModeLaunch {
			cur, err := (&Ceiling{Enabled: true, ExecutableRoots: []string{"/"}}).checkExecutable(target.Executable)
			if err != nil {
				return Authorization{}, err
			}
			if cur != g.Executable {
				return Authorization{}, fmt.Errorf("%w: the grant is for %s, the executable resolves to %q", ErrNotCovered, g.Target(), cur)
			}
			target.Executable = cur
		} else if target.Endpoint != g.Endpoint {
			return Authorization{}, fmt.Errorf("%w: the grant is for %s, not %s", ErrNotCovered, g.Target(), Target{Mode: ModeConnect, Endpoint: target.Endpoint})
		}
		return Authorization{Target: target, Grant: g, Ceiling: auto}, nil
	}
	if c == nil {
		return Authorization{}, notGranted(target, "no grant and no ceiling")
	}
	if err := c.Validate(); err != nil {
		return Authorization{}, err
	}
	if !c.AutoGrant {
		return Authorization{}, notGranted(target, "no grant, and the ceiling does not opt in to auto-grant")
	}
	t, err := c.CheckTarget(target)
	if err != nil {
		return Authorization{}, err
	}
	return Authorization{Target: t, Ceiling: auto}, nil
}

// ForRun returns the grant of one run of the capability with execution
// hash execHash and allowed origins origins: runGrant when given (it must
// be checked and for the authorization's target), else the driver's
// grant when it covers the run, else a grant derived by the auto-grant
// ceiling. Without any it wraps [ErrNotGranted]; a grant that does not
// cover the run wraps [ErrNotCovered].
func (a Authorization) ForRun(runGrant *Grant, execHash string, origins []string, env ...string) (*Grant, error) {
	g := runGrant
	if g != nil {
		if !g.Checked() {
			return nil, fmt.Errorf("%w: the run's grant was not checked against a ceiling", ErrNotGranted)
		}
		if g.Target() != a.Target {
			return nil, fmt.Errorf("%w: the run's grant is for %s, the driver is %s", ErrNotCovered, g.Target(), a.Target)
		}
	} else {
		g = a.Grant
	}
	var coverErr error
	if g != nil {
		if coverErr = g.Covers(execHash, origins, env...); coverErr == nil {
			return g, nil
		}
		if runGrant != nil || a.Ceiling == nil {
			return nil, coverErr
		}
	}
	if a.Ceiling == nil {
		return nil, notGranted(a.Target, "the driver has no grant for this run")
	}
	ag, err := a.Ceiling.Auto(Request{Target: a.Target, ExecutionHash: execHash, Origins: origins, Env: env})
	if err != nil {
		if coverErr != nil {
			return nil, errors.Join(coverErr, err)
		}
		return nil, err
	}
	return ag, nil
}

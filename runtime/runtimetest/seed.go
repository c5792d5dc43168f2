package runtimetest

import (
	"context"
	"fmt"
	"slices"

	"github.com/vera-run/vera/runtime"
)

// MethodSeed is the logged method of [Driver.Seed].
const MethodSeed Method = "Seed"

var _ runtime.Seeder = (*Driver)(nil)

// Seed implements [runtime.Seeder] for policy tests: it checks that every
// cookie and storage origin is inside the installed scope (else
// [runtime.ErrOriginBlocked] and nothing is recorded) and records the
// state, which [Driver.Seeded] returns. Fixtures do not read cookies or
// storage: the fake records what the runtime asked for, the browser
// driver's tests show what a page sees.
func (d *Driver) Seed(ctx context.Context, s runtime.SeedState) error {
	return d.do(ctx, Call{Method: MethodSeed}, func() error {
		var origins []string
		for _, c := range s.Cookies {
			origins = append(origins, c.Origin)
		}
		for _, e := range slices.Concat(s.LocalStorage, s.SessionStorage) {
			origins = append(origins, e.Origin)
		}
		for _, o := range origins {
			if n := normOrigin(o); n == "" || !d.allowed[n] {
				d.violations = append(d.violations, runtime.Violation{Kind: runtime.ViolationNavigation, Origin: o})
				return fmt.Errorf("runtimetest: seed: %w: %s", runtime.ErrOriginBlocked, o)
			}
		}
		d.seeded = append(d.seeded, cloneSeed(s))
		return nil
	})
}

// Seeded returns a copy of every state [Driver.Seed] recorded, in order.
func (d *Driver) Seeded() []runtime.SeedState {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]runtime.SeedState, len(d.seeded))
	for i, s := range d.seeded {
		out[i] = cloneSeed(s)
	}
	return out
}

func cloneSeed(s runtime.SeedState) runtime.SeedState {
	return runtime.SeedState{
		Cookies:        slices.Clone(s.Cookies),
		LocalStorage:   slices.Clone(s.LocalStorage),
		SessionStorage: slices.Clone(s.SessionStorage),
	}
}

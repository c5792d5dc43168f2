package runtime

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
)

// ErrDriverBusy is returned by [Execute] when the driver given with
// [WithDriver] is already running another Execute. A [Driver] drives one
// page: two runs interleaving their navigations, fills and reads on it
// would each read the other's page and could report a plausible but wrong
// answer (a "no such member" business outcome for a member that exists).
// The second run is refused before any driver call, with no Result and no
// evidence, like every other setup refusal; it never becomes a terminal
// state. Retry when the first run has returned, or give each concurrent
// run its own driver (browser.Browser hands out one per run).
var ErrDriverBusy = errors.New("runtime: driver busy: another run is in flight on it")

// claims holds the drivers with an Execute in flight. The claim is the
// runtime's, not the driver's: every Driver (the rod driver, the fake,
// a host's own) is protected without a method of its own, and the
// Driver interface stays mechanical. It is keyed by the driver value
// passed to WithDriver (for the drivers Vera ships, the pointer).
var claims = struct {
	mu   sync.Mutex
	held map[Driver]struct{}
}{held: map[Driver]struct{}{}}

// claimDriver takes the per-driver claim of one run, or fails with
// [ErrDriverBusy] when another run holds it. A driver whose dynamic type
// is not comparable (a struct value holding a slice or map) cannot be
// told apart from its copies and is refused with [ErrInvalidArgument].
// release is idempotent.
func claimDriver(d Driver) (release func(), err error) {
	if !reflect.TypeOf(d).Comparable() {
		return nil, fmt.Errorf("%w: WithDriver: a driver of type %T cannot be claimed for one run (its type is not comparable; pass a pointer)", ErrInvalidArgument, d)
	}
	claims.mu.Lock()
	defer claims.mu.Unlock()
	if _, busy := claims.held[d]; busy {
		return nil, fmt.Errorf("%w (driver %T)", ErrDriverBusy, d)
	}
	claims.held[d] = struct{}{}
	var once sync.Once
	return func() {
		once.Do(func() {
			claims.mu.Lock()
			delete(claims.held, d)
			claims.mu.Unlock()
		})
	}, nil
}

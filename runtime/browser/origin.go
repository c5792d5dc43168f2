package browser

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/vera-run/vera/internal/origin"
	"github.com/vera-run/vera/runtime"
)

// normalizeOrigin validates a scope entry and returns its canonical form
// (internal/origin's rules: lower-case scheme and host, default port
// dropped, no trailing slash).
func normalizeOrigin(s string) (string, error) {
	o, err := origin.Normalize(strings.TrimSpace(s))
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrInvalidOrigin, err)
	}
	return o, nil
}

// originOf returns the canonical origin of a request URL and whether the
// URL is a network URL the scope governs (http, https, ws, wss). Other
// schemes (data:, blob:, about:) never leave the browser. A network URL
// whose origin cannot be read is "null", which no scope allows.
func originOf(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return "null", true
	}
	if origin.DefaultPort(u.Scheme) == 0 {
		return "", false
	}
	o, ok := origin.OfURL(u)
	if !ok {
		return "null", true
	}
	return o.String(), true
}

// wsEquivalent maps a ws(s) origin to the http(s) origin that would allow
// it: a page allowed to talk to https://x may open wss://x.
func wsEquivalent(o string) string {
	if p, ok := origin.Of(o); ok {
		return p.HTTPEquivalent().String()
	}
	return o
}

// originScope is the installed, normalized origin scope.
type originScope struct {
	allowed      map[string]bool
	subresources map[string]bool
	// csp is the Content-Security-Policy the driver adds to every
	// document response while this scope is installed (see connectPolicy).
	csp string
}

func newOriginScope(s runtime.OriginScope) (*originScope, error) {
	sc := &originScope{allowed: map[string]bool{}, subresources: map[string]bool{}}
	for _, o := range s.Allowed {
		n, err := normalizeOrigin(o)
		if err != nil {
			return nil, err
		}
		sc.allowed[n] = true
	}
	for _, o := range s.Subresources {
		n, err := normalizeOrigin(o)
		if err != nil {
			return nil, err
		}
		sc.subresources[n] = true
	}
	sc.csp = connectPolicy(sc)
	return sc, nil
}

// connectPolicy is a Content-Security-Policy with only a connect-src
// directive listing every origin of the scope, each with its WebSocket
// twin (http -> ws, https -> wss), plus blob: and data: (which never leave
// the browser). The browser enforces it on fetch, XHR, EventSource,
// beacons and, which Fetch interception cannot see, WebSocket handshakes.
// A page's own policies still apply: every policy must allow a request.
func connectPolicy(s *originScope) string {
	set := map[string]bool{}
	for _, m := range []map[string]bool{s.allowed, s.subresources} {
		for o := range m {
			set[o] = true
			switch {
			case strings.HasPrefix(o, "http://"):
				set["ws://"+strings.TrimPrefix(o, "http://")] = true
			case strings.HasPrefix(o, "https://"):
				set["wss://"+strings.TrimPrefix(o, "https://")] = true
			}
		}
	}
	srcs := make([]string, 0, len(set)+2)
	for o := range set {
		srcs = append(srcs, o)
	}
	slices.Sort(srcs)
	return "connect-src " + strings.Join(append(srcs, "blob:", "data:"), " ")
}

// permits reports whether a request to origin is inside the scope. A nil
// scope (RestrictOrigins not called yet) permits everything.
func (s *originScope) permits(origin string, document bool) bool {
	if s == nil {
		return true
	}
	o := wsEquivalent(origin)
	if s.allowed[o] {
		return true
	}
	return !document && s.subresources[o]
}

package grant

import (
	"net/netip"
	"strings"

	"github.com/vera-run/vera/internal/origin"
)

// NetworkClass is how far from this host an origin's server is:
// [Loopback] < [Private] < [Public]. A grant's class is the highest class
// of its origins.
type NetworkClass string

// The network classes, in increasing order.
const (
	// Loopback: the host is 127.0.0.1, localhost or ::1 (internal/origin's
	// three loopback hosts, and no other spelling).
	Loopback NetworkClass = "loopback"
	// Private: an IP literal in a private, shared, link-local or
	// non-Vera-loopback range (10/8, 172.16/12, 192.168/16, 100.64/10,
	// 169.254/16, other 127/8 addresses, fc00::/7, fe80::/10), or a DNS
	// name under a private-use suffix (.local, .internal, .home.arpa,
	// .lan, .localhost).
	Private NetworkClass = "private"
	// Public: every other host. A DNS name is never resolved (a lookup is a
	// network side effect and its answer can change), so an ordinary name
	// is public even when it happens to resolve to a private address.
	Public NetworkClass = "public"
)

// rank orders the classes; 0 is not a class.
func (n NetworkClass) rank() int {
	switch n {
	case Loopback:
		return 1
	case Private:
		return 2
	case Public:
		return 3
	}
	return 0
}

// Valid reports whether n is one of the three classes.
func (n NetworkClass) Valid() bool { return n.rank() > 0 }

// privateSuffixes are the DNS suffixes reserved for private use.
var privateSuffixes = []string{".local", ".internal", ".home.arpa", ".lan", ".localhost"}

var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// ClassifyHost returns the network class of a host as a URL's Hostname
// holds it (IPv6 without brackets, any case).
func ClassifyHost(host string) NetworkClass {
	h := strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	if origin.IsLoopbackHost(h) {
		return Loopback
	}
	if a, err := netip.ParseAddr(h); err == nil {
		a = a.Unmap()
		if a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsUnspecified() || (a.Is4() && cgnat.Contains(a)) {
			return Private
		}
		return Public
	}
	for _, s := range privateSuffixes {
		if strings.HasSuffix(h, s) || h == s[1:] {
			return Private
		}
	}
	return Public
}

// ClassifyOrigins returns the highest class of the origins' hosts, or
// [Loopback] for none. An origin that does not parse is [Public] (the
// most demanding class), never an error: the caller validates origins.
func ClassifyOrigins(origins []string) NetworkClass {
	best := Loopback
	for _, s := range origins {
		c := Public
		if o, err := origin.Parse(s); err == nil {
			c = ClassifyHost(o.Host)
		}
		if c.rank() > best.rank() {
			best = c
		}
	}
	return best
}

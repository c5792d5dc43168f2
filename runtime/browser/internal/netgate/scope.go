package netgate

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/vera-run/vera/internal/origin"
)

// ErrInvalidScope is wrapped by every error [Gate.SetScope] returns for an
// entry that is not a bare http(s) origin.
var ErrInvalidScope = errors.New("netgate: invalid scope origin")

// Scope is the set of origins a [Gate] lets connections reach. Entries are
// bare http or https origins ("https://app.example", "http://127.0.0.1:8080");
// the driver passes its normalized scope.
type Scope struct {
	// Allowed origins may serve documents and subresources.
	Allowed []string
	// Subresources origins may serve subresources only.
	Subresources []string
}

// endpoint is one origin of the scope: scheme, host (lower case, IPv6
// without brackets), effective port, and whether it may serve documents.
type endpoint struct {
	scheme string
	host   string
	port   uint16
	doc    bool
}

// rules is a compiled scope.
type rules struct {
	eps []endpoint
	// literals are the sockets a listed origin names by address: an IP
	// literal host, or "localhost" (127.0.0.1 and ::1), at its effective
	// port. A non-public address may be dialled only when it is one of
	// them.
	literals map[netip.AddrPort]bool
}

func compile(s Scope) (*rules, error) {
	r := &rules{literals: map[netip.AddrPort]bool{}}
	add := func(list []string, doc bool) error {
		for _, o := range list {
			ep, err := parseOrigin(o)
			if err != nil {
				return err
			}
			ep.doc = doc
			r.eps = append(r.eps, ep)
			for _, ip := range fixedAddrs(ep.host) {
				r.literals[netip.AddrPortFrom(ip, ep.port)] = true
			}
		}
		return nil
	}
	if err := add(s.Allowed, true); err != nil {
		return nil, err
	}
	if err := add(s.Subresources, false); err != nil {
		return nil, err
	}
	return r, nil
}

// parseOrigin reads one scope entry with internal/origin's rules.
func parseOrigin(o string) (endpoint, error) {
	p, err := origin.Parse(o)
	if err != nil {
		return endpoint{}, fmt.Errorf("%w: %v", ErrInvalidScope, err)
	}
	return endpoint{scheme: p.Scheme, host: p.Host, port: p.Port}, nil
}

// effectivePort is the port a URL of scheme with port string p connects to.
func effectivePort(scheme, p string) (uint16, bool) {
	if p == "" {
		d := origin.DefaultPort(scheme)
		return d, d != 0
	}
	n, err := strconv.ParseUint(p, 10, 16)
	if err != nil || n == 0 {
		return 0, false
	}
	return uint16(n), true
}

// normHost lower-cases a host and drops IPv6 brackets.
func normHost(h string) string {
	return strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
}

// isLocalhost reports whether host is "localhost" or a name under it,
// which browsers resolve to loopback without asking DNS (RFC 6761).
func isLocalhost(host string) bool {
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}

// fixedAddrs returns the addresses a host stands for without DNS: itself
// for an IP literal, 127.0.0.1 and ::1 for localhost, nothing otherwise.
func fixedAddrs(host string) []netip.Addr {
	if ip, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{ip.Unmap()}
	}
	if isLocalhost(host) {
		return []netip.Addr{netip.AddrFrom4([4]byte{127, 0, 0, 1}), netip.IPv6Loopback()}
	}
	return nil
}

// dest classifies a plain HTTP request by its Sec-Fetch headers, which a
// page cannot set.
type dest int

const (
	destOther dest = iota
	destDocument
	destFrame
)

// permits reports whether the scope lets a request reach host:port. A
// tunnel (CONNECT) may reach the host and effective port of any origin of
// the scope (https, or ws/wss to an http origin's port); a plain HTTP
// request needs an http origin, and one for a document or frame an
// Allowed one.
func (r *rules) permits(tunnel bool, host string, port uint16, d dest) bool {
	for _, ep := range r.eps {
		if ep.host != host || ep.port != port {
			continue
		}
		if tunnel {
			return true
		}
		if ep.scheme == "http" && (ep.doc || d == destOther) {
			return true
		}
	}
	return false
}

// addrOK reports whether ip:port may be dialled: a public address always,
// a non-public one only when a listed origin names it.
func (r *rules) addrOK(ip netip.Addr, port uint16) bool {
	if Public(ip) {
		return true
	}
	return r.literals[netip.AddrPortFrom(ip, port)]
}

// cgnat is the shared address space of RFC 6598.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// thisNet is 0.0.0.0/8 ("this network"), which Linux routes to the host.
var thisNet = netip.MustParsePrefix("0.0.0.0/8")

// Public reports whether ip is a public unicast address: not loopback,
// private (RFC 1918, fc00::/7), shared (100.64.0.0/10), link-local,
// multicast, unspecified or in 0.0.0.0/8. IPv4-mapped IPv6 addresses are
// judged as the IPv4 address they carry.
func Public(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || !ip.IsGlobalUnicast() || ip.IsPrivate() {
		return false
	}
	if ip.Is4() && (cgnat.Contains(ip) || thisNet.Contains(ip)) {
		return false
	}
	return true
}

package origin

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// ErrInvalid is wrapped by every error [Parse] returns.
var ErrInvalid = errors.New("invalid origin")

// Origin is a parsed, normalized origin.
type Origin struct {
	// Scheme is http, https, ws or wss, lower case.
	Scheme string
	// Host is the lower-case DNS name or IP literal, IPv6 without brackets.
	Host string
	// Port is the effective port (the scheme's default when none is
	// written).
	Port uint16
}

// String is the origin as a browser serializes it: scheme://host[:port]
// with the default port left out and an IPv6 host bracketed.
func (o Origin) String() string {
	h := o.Host
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	if o.Port == DefaultPort(o.Scheme) {
		return o.Scheme + "://" + h
	}
	return o.Scheme + "://" + h + ":" + strconv.Itoa(int(o.Port))
}

// HTTPEquivalent maps a ws(s) origin to the http(s) origin with the same
// host and port (a page allowed to talk to https://x may open wss://x);
// other origins are returned unchanged.
func (o Origin) HTTPEquivalent() Origin {
	switch o.Scheme {
	case "ws":
		o.Scheme = "http"
	case "wss":
		o.Scheme = "https"
	}
	return o
}

// Loopback reports whether the host is one of the three loopback hosts
// (see [IsLoopbackHost]).
func (o Origin) Loopback() bool { return IsLoopbackHost(o.Host) }

// Secure applies the HTTPS rule: https (or wss), or http (ws) on a
// loopback host with an explicit, non-default port.
func (o Origin) Secure() bool {
	switch o.Scheme {
	case "https", "wss":
		return true
	case "http", "ws":
		return o.Loopback() && o.Port != DefaultPort(o.Scheme)
	}
	return false
}

// DefaultPort is the port a URL of scheme connects to when none is
// written: 80 for http and ws, 443 for https and wss, 0 otherwise.
func DefaultPort(scheme string) uint16 {
	switch scheme {
	case "http", "ws":
		return 80
	case "https", "wss":
		return 443
	}
	return 0
}

// IsLoopbackHost reports whether host (a URL's Hostname: IPv6 without
// brackets, any case) is 127.0.0.1, localhost or ::1. These three, and no
// other spelling or address, are loopback to Vera.
func IsLoopbackHost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	return h == "127.0.0.1" || h == "localhost" || h == "::1"
}

// Parse parses a bare http or https origin, tolerating upper case, a
// default port and one trailing "/", and returns it normalized. The error
// wraps [ErrInvalid] and says what is wrong.
func Parse(s string) (Origin, error) {
	o, msg := parse(s, false)
	if msg != "" {
		return Origin{}, fmt.Errorf("%w %q: %s", ErrInvalid, s, msg)
	}
	return o, nil
}

// Normalize is Parse(s).String().
func Normalize(s string) (string, error) {
	o, err := Parse(s)
	if err != nil {
		return "", err
	}
	return o.String(), nil
}

// OfURL returns the origin of an absolute URL whose scheme is http, https,
// ws or wss. ok is false for other schemes (data:, blob:, about:, which
// never leave the browser) and for a URL without a host. The host is
// taken as the URL holds it (lower-cased), with no further checks: an
// origin a browser reports is never refused here, only compared.
func OfURL(u *url.URL) (o Origin, ok bool) {
	scheme := strings.ToLower(u.Scheme)
	if DefaultPort(scheme) == 0 || u.Host == "" {
		return Origin{}, false
	}
	host := strings.ToLower(u.Hostname())
	if host == "" {
		return Origin{}, false
	}
	port := DefaultPort(scheme)
	if p := u.Port(); p != "" {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil || n == 0 {
			return Origin{}, false
		}
		port = uint16(n)
	}
	return Origin{Scheme: scheme, Host: host, Port: port}, true
}

// Of is OfURL of a URL string; ok is false when raw does not parse.
func Of(raw string) (o Origin, ok bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return Origin{}, false
	}
	return OfURL(u)
}

// Problem classifies what [Check] found.
type Problem int

// The problems [Check] reports.
const (
	// OK: the origin is in writer form and secure.
	OK Problem = iota
	// Malformed: not scheme://host[:port] in writer form.
	Malformed
	// Insecure: well formed but breaks the HTTPS rule.
	Insecure
)

// Check is the strict writer form of a capability's allowed origin: an
// http or https origin exactly as [Origin.String] writes it (lower case,
// no default port, no trailing slash) that keeps the HTTPS rule. It
// returns OK and "", or the problem and a sentence saying what is wrong.
func Check(s string) (Problem, string) {
	o, msg := parse(s, true)
	if msg != "" {
		return Malformed, msg
	}
	if !o.Secure() {
		if o.Loopback() {
			return Insecure, "a loopback HTTP origin needs an explicit port"
		}
		return Insecure, "every non-loopback origin uses HTTPS; HTTP is allowed only as http://127.0.0.1:<port>, http://localhost:<port> or http://[::1]:<port>"
	}
	return OK, ""
}

// parse reads scheme://host[:port]. strict refuses every spelling other
// than the normalized one; otherwise case, a default port and one trailing
// slash are tolerated.
func parse(s string, strict bool) (Origin, string) {
	rest, scheme := s, ""
	low := strings.ToLower(s)
	switch {
	case strings.HasPrefix(low, "https://"):
		scheme, rest = "https", s[len("https://"):]
	case strings.HasPrefix(low, "http://"):
		scheme, rest = "http", s[len("http://"):]
	default:
		return Origin{}, "an origin is http:// or https:// followed by a host and an optional port"
	}
	if strict && !strings.HasPrefix(s, scheme) {
		return Origin{}, "the scheme must be lowercase"
	}
	if !strict {
		rest = strings.TrimSuffix(rest, "/")
	}
	if rest == "" {
		return Origin{}, "the origin has no host"
	}
	if i := strings.IndexAny(rest, "/?#@\\ \t\r\n"); i >= 0 {
		switch rest[i] {
		case '/':
			return Origin{}, "an origin has no path (not even a trailing slash)"
		case '?':
			return Origin{}, "an origin has no query"
		case '#':
			return Origin{}, "an origin has no fragment"
		case '@':
			return Origin{}, "an origin has no user information"
		}
		return Origin{}, "an origin contains no spaces or backslashes"
	}
	host, port := rest, ""
	if strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return Origin{}, "unterminated IPv6 host"
		}
		host, port = rest[1:end], rest[end+1:]
		a, err := netip.ParseAddr(host)
		if !strict {
			host = strings.ToLower(host)
		}
		if err != nil || !a.Is6() || a.Zone() != "" || a.String() != host {
			return Origin{}, "the IPv6 host is not in canonical form"
		}
		if port != "" && port[0] != ':' {
			return Origin{}, "unexpected characters after the IPv6 host"
		}
	} else {
		if i := strings.LastIndexByte(rest, ':'); i >= 0 {
			host, port = rest[:i], rest[i:]
		}
		if !strict {
			host = strings.ToLower(host)
		}
		if msg := hostForm(host); msg != "" {
			return Origin{}, msg
		}
	}
	o := Origin{Scheme: scheme, Host: host, Port: DefaultPort(scheme)}
	if port != "" {
		p := port[1:]
		n, err := strconv.Atoi(p)
		if p == "" || p[0] == '0' || err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != p {
			return Origin{}, "the port is not a number from 1 to 65535 without leading zeros"
		}
		if strict && uint16(n) == o.Port {
			return Origin{}, "the default port is never written (browsers serialise the origin without it)"
		}
		o.Port = uint16(n)
	}
	return o, ""
}

// hostForm checks a lowercase DNS name or IPv4 address.
func hostForm(h string) string {
	if h == "" || len(h) > 253 {
		return "the host is empty or too long"
	}
	labels := strings.Split(h, ".")
	for _, label := range labels {
		if label == "" || len(label) > 63 {
			return "the host has an empty or overlong label (a trailing dot names another origin)"
		}
		if label[0] == '-' || label[len(label)-1] == '-' {
			return "a host label starts or ends with a hyphen"
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			switch {
			case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-':
			case c >= 'A' && c <= 'Z':
				return "the host must be lowercase"
			case c >= 0x80:
				return "the host is not ASCII: write its xn-- (IDNA) form"
			default:
				return "the host contains a character outside a-z, 0-9, '-' and '.'"
			}
		}
	}
	if last := labels[len(labels)-1]; strings.Trim(last, "0123456789") == "" {
		// A numeric last label makes browsers parse the host as IPv4.
		if a, err := netip.ParseAddr(h); err != nil || !a.Is4() || a.String() != h {
			return "the IPv4 host is not in canonical dotted-decimal form"
		}
	}
	return ""
}

package capability

import (
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/vera-run/vera/internal/canonjson"
)

// Patterns of the identifier-like strings of a capability, as regular
// expressions (the JSON Schema uses them verbatim; Validate uses equivalent
// hand-written matchers).
const (
	// IDPattern is the pattern of the capability id and of milestone and
	// action ids (at most [MaxIDLen] bytes): lowercase words separated by
	// single dots, hyphens or underscores.
	IDPattern = `^[a-z][a-z0-9]*([._-][a-z0-9]+)*$`
	// NamePattern is the pattern of input, output and field names, business
	// outcome codes and data classes (at most [MaxIDLen] bytes): snake_case,
	// because names become JSON keys, template references ({{name}}) and
	// reason codes.
	NamePattern = `^[a-z][a-z0-9]*(_[a-z0-9]+)*$`
	// SemverPattern is Semantic Versioning 2.0.0 (the regular expression the
	// specification recommends).
	SemverPattern = `^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`
	// DigestPattern is a sha256 digest as every Vera document writes it.
	DigestPattern = `^sha256:[0-9a-f]{64}$`
	// OriginPattern approximates an allowed origin for JSON Schema users:
	// scheme, lowercase host and optional port, nothing else. [CheckOrigin]
	// is the exact rule (port range, default ports, loopback HTTP).
	OriginPattern = `^https?://([a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(:[1-9][0-9]{0,4})?$`
)

// MaxVersionLen bounds a version string, in bytes.
const MaxVersionLen = 128

var semverRE = regexp.MustCompile(SemverPattern)

// validID reports whether s matches [IDPattern] within [MaxIDLen].
func validID(s string) bool { return matchWords(s, "._-") }

// ValidID reports whether s is a valid capability, milestone or action id:
// [IDPattern] within [MaxIDLen] bytes.
func ValidID(s string) bool { return validID(s) }

// ValidName reports whether s is a valid input, output, field, outcome or
// data-class name: [NamePattern] within [MaxIDLen] bytes.
func ValidName(s string) bool { return validName(s) }

// validName reports whether s matches [NamePattern] within [MaxIDLen].
func validName(s string) bool { return matchWords(s, "_") }

// matchWords matches ^[a-z][a-z0-9]*([seps][a-z0-9]+)*$ up to MaxIDLen.
func matchWords(s, seps string) bool {
	if len(s) == 0 || len(s) > MaxIDLen || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	prevSep := false
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			prevSep = false
		case strings.IndexByte(seps, c) >= 0:
			if prevSep {
				return false
			}
			prevSep = true
		default:
			return false
		}
	}
	return !prevSep
}

func validSemver(s string) bool { return len(s) <= MaxVersionLen && semverRE.MatchString(s) }

func validDigest(s string) bool { return canonjson.ValidDigest(s) }

// validTimestamp accepts RFC 3339 timestamps (with a time zone).
func validTimestamp(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// validDate accepts a calendar date YYYY-MM-DD.
func validDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil && len(s) == len(time.DateOnly)
}

// loopbackHosts are the only hosts an HTTP origin may name.
var loopbackHosts = [...]string{"127.0.0.1", "localhost", "[::1]"}

// originForm checks that s is scheme://host[:port] with nothing else and
// returns a problem description, or "" when well formed. It does not apply
// the HTTPS rule.
func originForm(s string) string {
	var rest string
	switch {
	case strings.HasPrefix(s, "https://"):
		rest = s[len("https://"):]
	case strings.HasPrefix(s, "http://"):
		rest = s[len("http://"):]
	default:
		return "an origin is http:// or https:// followed by a host and an optional port"
	}
	if rest == "" {
		return "the origin has no host"
	}
	if i := strings.IndexAny(rest, "/?#@\\ \t\r\n"); i >= 0 {
		switch rest[i] {
		case '/':
			return "an origin has no path (not even a trailing slash)"
		case '?':
			return "an origin has no query"
		case '#':
			return "an origin has no fragment"
		case '@':
			return "an origin has no user information"
		}
		return "an origin contains no spaces or backslashes"
	}
	host, port := rest, ""
	if strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return "unterminated IPv6 host"
		}
		host, port = rest[:end+1], rest[end+1:]
		a, err := netip.ParseAddr(host[1 : len(host)-1])
		if err != nil || !a.Is6() || a.Zone() != "" || "["+a.String()+"]" != host {
			return "the IPv6 host is not in canonical form"
		}
		if port != "" && port[0] != ':' {
			return "unexpected characters after the IPv6 host"
		}
	} else if i := strings.LastIndexByte(rest, ':'); i >= 0 {
		host, port = rest[:i], rest[i:]
	}
	if port != "" {
		p := port[1:]
		n, err := strconv.Atoi(p)
		if p == "" || p[0] == '0' || err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != p {
			return "the port is not a number from 1 to 65535 without leading zeros"
		}
		if (n == 443 && strings.HasPrefix(s, "https:")) || (n == 80 && strings.HasPrefix(s, "http:")) {
			return "the default port is never written (browsers serialise the origin without it)"
		}
	}
	if !strings.HasPrefix(host, "[") {
		if msg := hostForm(host); msg != "" {
			return msg
		}
	}
	return ""
}

// hostForm checks a lowercase DNS name or IPv4 address.
func hostForm(h string) string {
	if h == "" || len(h) > 253 {
		return "the host is empty or too long"
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 {
			return "the host has an empty or overlong label"
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
			default:
				return "the host contains a character outside a-z, 0-9, '-' and '.'"
			}
		}
	}
	labels := strings.Split(h, ".")
	if last := labels[len(labels)-1]; strings.Trim(last, "0123456789") == "" {
		// A numeric last label makes browsers parse the host as IPv4.
		if a, err := netip.ParseAddr(h); err != nil || !a.Is4() || a.String() != h {
			return "the IPv4 host is not in canonical dotted-decimal form"
		}
	}
	return ""
}

// originSecurity applies the HTTPS rule to a well-formed origin.
func originSecurity(s string) string {
	if strings.HasPrefix(s, "https://") {
		return ""
	}
	rest := s[len("http://"):]
	for _, h := range loopbackHosts {
		if rest == h {
			return "a loopback HTTP origin needs an explicit port"
		}
		if strings.HasPrefix(rest, h+":") {
			return ""
		}
	}
	return "every non-loopback origin uses HTTPS; HTTP is allowed only as http://127.0.0.1:<port>, http://localhost:<port> or http://[::1]:<port>"
}

// CheckOrigin reports whether origin is an acceptable allowed origin:
// scheme://host[:port] with nothing else (no path, trailing slash, query,
// fragment or user information), a lowercase host, no default port, HTTPS
// for every non-loopback host and HTTP only as http://127.0.0.1:<port>,
// http://localhost:<port> or http://[::1]:<port>. The error is an *Error
// with code [CodeInvalidOrigin] or [CodeInsecureOrigin] and an empty path.
func CheckOrigin(origin string) error {
	if msg := originForm(origin); msg != "" {
		return &Error{Code: CodeInvalidOrigin, Message: msg, BadValue: safeBadValue(origin)}
	}
	if msg := originSecurity(origin); msg != "" {
		return &Error{Code: CodeInsecureOrigin, Message: msg, BadValue: safeBadValue(origin)}
	}
	return nil
}

package capability

import (
	"github.com/vera-run/vera/internal/timestamp"
	"regexp"
	"time"

	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/ident"
	"github.com/vera-run/vera/internal/origin"
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
func validID(s string) bool { return ident.ValidID(s) }

// validName reports whether s matches [NamePattern] within [MaxIDLen].
func validName(s string) bool { return ident.ValidName(s) }

func validSemver(s string) bool { return len(s) <= MaxVersionLen && semverRE.MatchString(s) }

func validDigest(s string) bool { return canonjson.ValidDigest(s) }

// validTimestamp accepts RFC 3339 timestamps (with a time zone).
func validTimestamp(s string) bool {
	return timestamp.Valid(s)
}

// validDate accepts a calendar date YYYY-MM-DD.
func validDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil && len(s) == len(time.DateOnly)
}

// originForm checks that s is scheme://host[:port] in writer form and
// returns a problem description, or "" when well formed. It does not apply
// the HTTPS rule. The rules are internal/origin's.
func originForm(s string) string {
	if p, msg := origin.Check(s); p == origin.Malformed {
		return msg
	}
	return ""
}

// originSecurity applies the HTTPS rule to a well-formed origin.
func originSecurity(s string) string {
	if p, msg := origin.Check(s); p == origin.Insecure {
		return msg
	}
	return ""
}

// CheckOrigin reports whether origin is an acceptable allowed origin:
// scheme://host[:port] with nothing else (no path, trailing slash, query,
// fragment or user information), a lowercase host, no default port, HTTPS
// for every non-loopback host and HTTP only as http://127.0.0.1:<port>,
// http://localhost:<port> or http://[::1]:<port>. The error is an *Error
// with code [CodeInvalidOrigin] or [CodeInsecureOrigin] and an empty path.
func CheckOrigin(o string) error {
	if msg := originForm(o); msg != "" {
		return &Error{Code: CodeInvalidOrigin, Message: msg, BadValue: safeBadValue(o)}
	}
	if msg := originSecurity(o); msg != "" {
		return &Error{Code: CodeInsecureOrigin, Message: msg, BadValue: safeBadValue(o)}
	}
	return nil
}

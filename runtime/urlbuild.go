package runtime

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/vera-run/vera/capability"
)

// resolveURL resolves a capability navigation target (runtime.start or a
// navigate url, with its query entries) to the absolute URL the driver
// loads. It never concatenates strings into a URL: the target is parsed
// with net/url, the origin comes from the parsed allowed origin, the path
// from the parsed target, the query from the entries and the fragment from
// the target, assembled as a url.URL; the result is parsed back and its
// origin must equal the allowed origin it was built on.
//
//   - A relative target is an absolute path ("/x", written with a literal
//     slash: "%2f..." is refused) and resolves against the first allowed
//     origin; an absolute target must be on an allowed origin. No user
//     information, no raw query, templates only in the fragment.
//   - The query is built from the entries in order: name=value joined by
//     '&', every name and value percent-encoded by encodeQueryComponent
//     after template substitution, so a substituted value is inert (its
//     '&', '=', '#' and '+' are data, never a second entry).
//   - Fragment templates are substituted with encodeURIComponent.
//
// With vals nil, templates are not substituted (the shape only).
func resolveURL(raw string, query []capability.QueryEntry, allowed []string, vals map[string]inputValue) (string, error) {
	if raw == "" {
		return "", errors.New("empty URL")
	}
	if len(allowed) == 0 {
		return "", errors.New("no allowed origin")
	}
	base, frag, hasFrag := strings.Cut(raw, "#")
	if strings.Contains(base, "{{") {
		return "", errors.New("templates are allowed only in the URL fragment")
	}
	for i := 0; i < len(base); i++ {
		if c := base[i]; c <= ' ' || c == 0x7f || c == '\\' {
			return "", errors.New("a capability URL contains no spaces, control characters or backslashes")
		}
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", errors.New("not a URL")
	}
	if u.RawQuery != "" || u.ForceQuery || u.User != nil || u.Opaque != "" {
		return "", errors.New("a capability URL is query-free and carries no user info")
	}
	origin := allowed[0]
	if u.IsAbs() {
		if u.Host == "" {
			return "", errors.New("an absolute URL needs a host")
		}
		origin = originOf(u)
		if !containsString(allowed, origin) {
			return "", errors.New("the URL's origin is not allowed")
		}
	} else if u.Host != "" || !strings.HasPrefix(base, "/") || strings.HasPrefix(base, "//") {
		return "", errors.New("a relative URL must be an absolute path")
	}
	ou, err := url.Parse(origin)
	if err != nil || ou.Scheme == "" || ou.Host == "" {
		return "", errors.New("the allowed origin does not parse")
	}
	out := &url.URL{Scheme: ou.Scheme, Host: ou.Host, Path: u.Path, RawPath: u.RawPath}
	if out.Path == "" {
		out.Path = "/"
	}
	rq, err := buildQuery(query, vals)
	if err != nil {
		return "", err
	}
	out.RawQuery = rq
	if hasFrag {
		if vals != nil {
			frag = substitute(frag, vals, encodeURIComponent)
		}
		f, err := url.PathUnescape(frag)
		if err != nil {
			return "", errors.New("the URL fragment holds a malformed escape")
		}
		out.Fragment, out.RawFragment = f, frag
	}
	s := out.String()
	// The invariant, checked on what the driver will be handed.
	back, err := url.Parse(s)
	if err != nil || !back.IsAbs() || back.User != nil || originOf(back) != origin || back.RawQuery != rq {
		return "", errors.New("the resolved URL left its allowed origin")
	}
	return s, nil
}

// buildQuery encodes the entries in order. With vals nil
// templates are not substituted.
func buildQuery(query []capability.QueryEntry, vals map[string]inputValue) (string, error) {
	if len(query) == 0 {
		return "", nil
	}
	if len(query) > capability.MaxQueryEntries {
		return "", fmt.Errorf("at most %d query entries", capability.MaxQueryEntries)
	}
	var b strings.Builder
	for i, e := range query {
		if strings.TrimSpace(e.Name) == "" || strings.Contains(e.Name, "{{") {
			return "", fmt.Errorf("query entry %d needs a fixed, non-blank name", i)
		}
		v := e.Value
		if vals != nil {
			v = substitute(v, vals, nil)
		}
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(encodeQueryComponent(e.Name))
		b.WriteByte('=')
		b.WriteString(encodeQueryComponent(v))
	}
	return b.String(), nil
}

// encodeQueryComponent percent-encodes s as an RFC 3986 component: every
// byte but the unreserved A-Z a-z 0-9 - . _ ~ becomes %XX (upper-case hex),
// so a space is %20 (never '+') and '+', '&', '=', '#', '%' are data.
// Browsers keep such a query byte for byte, so the URL a condition reads
// back is the URL the runtime sent.
func encodeQueryComponent(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

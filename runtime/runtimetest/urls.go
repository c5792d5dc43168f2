package runtimetest

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/vera-run/vera/internal/origin"
)

// originOf returns scheme://host[:port] of an absolute http(s) URL, with the
// scheme and host lower-cased and a default port dropped, as a browser
// serialises an origin (internal/origin's rules).
func originOf(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("%q is not an absolute http(s) URL", raw)
	}
	o, ok := origin.OfURL(u)
	if !ok {
		return "", fmt.Errorf("%q has no host", raw)
	}
	return o.String(), nil
}

// normOrigin normalises an origin string given to RestrictOrigins.
func normOrigin(o string) string {
	o = strings.TrimSpace(o)
	if n, err := origin.Normalize(o); err == nil {
		return n
	}
	return strings.TrimSuffix(strings.ToLower(o), "/")
}

// splitFragment splits a URL at its first '#'. frag excludes the '#';
// has reports whether there was one.
func splitFragment(u string) (base, frag string, has bool) {
	base, frag, has = strings.Cut(u, "#")
	return
}

// resolveRef resolves a URL reference against an absolute base URL the way
// a browser does for location.href assignments. The fragment is kept
// verbatim (it is never re-encoded).
func resolveRef(base, ref string) (string, error) {
	refBase, frag, hasFrag := splitFragment(ref)
	baseNoFrag, _, _ := splitFragment(base)
	var out string
	if refBase == "" {
		out = baseNoFrag
	} else {
		b, err := url.Parse(baseNoFrag)
		if err != nil {
			return "", err
		}
		r, err := url.Parse(refBase)
		if err != nil {
			return "", err
		}
		res := b.ResolveReference(r)
		if res.Scheme != "http" && res.Scheme != "https" {
			return "", fmt.Errorf("%q does not resolve to an http(s) URL", ref)
		}
		if res.User != nil {
			return "", errors.New("URLs with user info are not supported")
		}
		if res.Path == "" {
			res.Path = "/"
		}
		out = res.String()
	}
	if hasFrag {
		out += "#" + frag
	}
	return out, nil
}

// sameDocument reports whether navigating from cur to next only changes the
// fragment: next has a fragment and both agree on everything before it.
func sameDocument(cur, next string) bool {
	cb, _, _ := splitFragment(cur)
	nb, _, has := splitFragment(next)
	return has && cb == nb
}

// encodeURIComponent percent-encodes s exactly as JavaScript's
// encodeURIComponent: everything but A-Z a-z 0-9 - _ . ! ~ * ' ( ) is
// encoded as UTF-8 bytes with upper-case hex. Invalid UTF-8 is encoded as
// U+FFFD, as a browser would after decoding the string.
func encodeURIComponent(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 {
			c := byte(r)
			if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
				b.WriteByte(c)
				continue
			}
		}
		var buf [4]byte
		n := utf8.EncodeRune(buf[:], r)
		for _, c := range buf[:n] {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// checkPageKey reports why key is not a canonical page key: an absolute
// http(s) URL with a lower-case scheme and host, an explicit path, no
// default port, no user info, no fragment, and not under the reserved
// /__vera/ path.
func checkPageKey(key string) error {
	u, err := url.Parse(key)
	if err != nil {
		return err
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return errors.New("not an absolute http(s) URL")
	case u.Host == "" || u.Host != strings.ToLower(u.Host):
		return errors.New("host must be present and lower-case")
	case u.User != nil:
		return errors.New("user info is not allowed")
	case strings.Contains(key, "#"):
		return errors.New("a page key has no fragment")
	case u.Opaque != "" || !strings.HasPrefix(u.EscapedPath(), "/"):
		return errors.New(`a page key needs an explicit path (at least "/")`)
	case strings.HasPrefix(u.Path, reservedPrefix):
		return fmt.Errorf("the path prefix %s is reserved", reservedPrefix)
	}
	o, _ := originOf(key)
	if !strings.HasPrefix(key, o+"/") {
		return errors.New("scheme://host[:port] must be in canonical form (lower case, no default port)")
	}
	return nil
}

// reservedPrefix is the path prefix the HTML handler uses for its own
// endpoints (downloads).
const reservedPrefix = "/__vera/"

// requestKey is the page key for a request URI on an origin.
func requestKey(origin, requestURI string) string {
	return origin + requestURI
}

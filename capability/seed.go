package capability

import (
	"fmt"
	"strings"

	"github.com/vera-run/vera/internal/origin"
	"github.com/vera-run/vera/internal/redact"
)

// Seed is the browser state a run starts from (seed 002 "explicit
// storage"): cookies and local and session storage the runtime sets in
// the run's fresh browser context before the first navigation, so the
// first page load already sees them and a capability can start from an
// existing session instead of typing a password. Every value is a public
// literal or a reference to a declared secret ([SeedValue]); every origin
// is one of site.allowed_origins.
type Seed struct {
	// Cookies are set as host-only cookies of their origin, at most
	// [MaxSeedCookies].
	Cookies []SeedCookie `json:"cookies,omitempty" validate:"max=32,dive"`
	// LocalStorage entries are set with localStorage.setItem on their
	// origin, at most [MaxSeedStorage].
	LocalStorage []SeedStorage `json:"local_storage,omitempty" validate:"max=64,dive"`
	// SessionStorage entries are set with sessionStorage.setItem on their
	// origin in the run's tab, at most [MaxSeedStorage].
	SessionStorage []SeedStorage `json:"session_storage,omitempty" validate:"max=64,dive"`
}

// Empty reports whether the seed sets nothing (a nil seed is empty).
func (s *Seed) Empty() bool {
	return s == nil || len(s.Cookies)+len(s.LocalStorage)+len(s.SessionStorage) == 0
}

// SeedCookie is one seeded cookie. It is host-only (no Domain attribute:
// a domain cookie would reach every subdomain, outside the scope), a
// session cookie (no expiry: it ends with the run's browser context),
// Secure exactly when its origin is https, and SameSite Lax unless
// same_site says strict.
type SeedCookie struct {
	// Origin is the allowed origin the cookie belongs to.
	Origin string `json:"origin" validate:"required,max=2048"`
	// Name is an RFC 6265 token, at most [MaxSeedNameBytes] bytes.
	Name string `json:"name" validate:"nonblank,max=256"`
	// Value is the cookie value.
	Value SeedValue `json:"value"`
	// Path is the cookie path, "/" when omitted; it starts with "/".
	Path string `json:"path,omitempty" validate:"max=1024"`
	// HTTPOnly hides the cookie from page scripts.
	HTTPOnly bool `json:"http_only,omitempty" validate:"-"`
	// SameSite is "lax" (the default when omitted) or "strict"; "none"
	// would send the cookie on cross-site requests and is not offered.
	SameSite string `json:"same_site,omitempty" validate:"omitempty,oneof=lax strict"`
}

// SeedStorage is one seeded local or session storage entry.
type SeedStorage struct {
	// Origin is the allowed origin whose storage holds the entry.
	Origin string `json:"origin" validate:"required,max=2048"`
	// Key is the storage key, at most [MaxSeedKeyBytes] bytes.
	Key string `json:"key" validate:"nonblank,max=1024"`
	// Value is the stored value.
	Value SeedValue `json:"value"`
}

// SeedValue is a seeded value: exactly one of an explicitly public
// literal and a reference to a declared secret.
type SeedValue struct {
	// Public is a public literal, at most [MaxSeedValueBytes] bytes; it
	// may be empty but must be present for a literal. Never credential
	// shaped, and never the value of a credential-named cookie or key
	// ([CodeSeedCredentialLiteral]).
	Public *string `json:"public,omitempty" validate:"omitempty,max=4096"`
	// SecretRef names a declared secret whose resolved value is set
	// (secret_ref, like an input's: a member named "secret" would read
	// as a credential to every scanner of 5.4.1).
	SecretRef string `json:"secret_ref,omitempty" validate:"-"`
}

// Seed limits.
const (
	MaxSeedCookies    = 32   // cookies of one seed
	MaxSeedStorage    = 64   // entries of local_storage, and of session_storage
	MaxSeedNameBytes  = 256  // a cookie name
	MaxSeedKeyBytes   = 1024 // a storage key
	MaxSeedValueBytes = 4096 // a public value; a cookie's name and value together
)

// Seed validation codes.
const (
	// CodeInvalidSeedValue: a seeded value sets neither or both of public
	// and secret_ref, or a templated public.
	CodeInvalidSeedValue Code = "invalid_seed_value"
	// CodeInvalidSeedCookie: a cookie name that is not an RFC 6265 token,
	// a public value with bytes a cookie cannot carry (control
	// characters, space, '"', ',', ';', '\'), a path that does not start
	// with "/" or holds ';' or control characters, name and value longer
	// than [MaxSeedValueBytes] together, or a __Secure- / __Host- name on
	// an http origin (and a __Host- one with a path other than "/").
	CodeInvalidSeedCookie Code = "invalid_seed_cookie"
	// CodeSeedCredentialLiteral: a public literal as the value of a cookie
	// or storage key whose name carries credentials (session, sid, token,
	// auth, ...): that value is a credential and is written as a secret
	// reference.
	CodeSeedCredentialLiteral Code = "seed_credential_literal"
	// CodeDuplicateSeed: the same cookie (origin, path, name) or storage
	// entry (origin, key) is seeded twice.
	CodeDuplicateSeed Code = "duplicate_seed"
)

// seedCodes are the codes of this file, for [Codes].
var seedCodes = []Code{CodeInvalidSeedValue, CodeInvalidSeedCookie, CodeSeedCredentialLiteral, CodeDuplicateSeed}

// eachValue calls fn with the path prefix and value of every seeded
// entry. It is safe on a nil seed.
func (s *Seed) eachValue(fn func(path string, v *SeedValue)) {
	if s == nil {
		return
	}
	for i := range s.Cookies {
		fn(fmt.Sprintf("seed.cookies[%d]", i), &s.Cookies[i].Value)
	}
	for i := range s.LocalStorage {
		fn(fmt.Sprintf("seed.local_storage[%d]", i), &s.LocalStorage[i].Value)
	}
	for i := range s.SessionStorage {
		fn(fmt.Sprintf("seed.session_storage[%d]", i), &s.SessionStorage[i].Value)
	}
}

// EachSecret calls fn with the JSON path and secret name of every seeded
// value that refers to a secret, in document order. It is safe on a nil
// seed.
func (s *Seed) EachSecret(fn func(path, name string)) {
	s.eachValue(func(path string, v *SeedValue) {
		if v.SecretRef != "" {
			fn(path+".value.secret_ref", v.SecretRef)
		}
	})
}

// seedRefs reports the secret references of the seeded values to ref.
func (v *validation) seedRefs(ref func(pth, string)) {
	v.c.Seed.eachValue(func(path string, sv *SeedValue) {
		if sv.SecretRef != "" {
			ref(at(path).f("value").f("secret_ref"), sv.SecretRef)
		}
	})
}

// seed checks the seeded state.
func (v *validation) seed() {
	s := v.c.Seed
	if s == nil {
		return
	}
	cookies := map[string]int{}
	for i := range s.Cookies {
		ck := &s.Cookies[i]
		p := at("seed.cookies").i(i)
		sec := v.seedOrigin(p.f("origin"), ck.Origin)
		v.seedValue(p.f("value"), &ck.Value)
		v.cookieRules(p, ck, sec)
		if ck.Name != "" && strings.Contains(ck.Name, "{{") {
			v.add(p.f("name"), CodeInvalidSeedCookie, "a seeded cookie's name is fixed (no templates)", ck.Name)
		}
		key := ck.Origin + "\x00" + cookiePath(ck.Path) + "\x00" + ck.Name
		if _, dup := cookies[key]; dup {
			v.add(p.f("name"), CodeDuplicateSeed, "the same cookie (origin, path, name) is seeded twice", ck.Name)
		} else {
			cookies[key] = i
		}
		v.seedCredential(p, ck.Name, &ck.Value)
	}
	for _, list := range []struct {
		name    string
		entries []SeedStorage
	}{{"seed.local_storage", s.LocalStorage}, {"seed.session_storage", s.SessionStorage}} {
		keys := map[string]int{}
		for i := range list.entries {
			e := &list.entries[i]
			p := at(list.name).i(i)
			v.seedOrigin(p.f("origin"), e.Origin)
			v.seedValue(p.f("value"), &e.Value)
			k := e.Origin + "\x00" + e.Key
			if _, dup := keys[k]; dup {
				v.add(p.f("key"), CodeDuplicateSeed, "the same storage entry (origin, key) is seeded twice", e.Key)
			} else {
				keys[k] = i
			}
			v.seedCredential(p, e.Key, &e.Value)
		}
	}
}

// seedOrigin checks that o is an allowed origin and reports whether it is
// https.
func (v *validation) seedOrigin(p pth, o string) bool {
	if o == "" {
		return false // reported by the field rules (required)
	}
	if msg := originForm(o); msg != "" {
		v.add(p, CodeInvalidOrigin, msg, o)
		return false
	}
	if !v.allowed[o] {
		v.add(p, CodeOriginNotAllowed, "a seeded origin is one of site.allowed_origins", o)
	}
	po, err := origin.Parse(o)
	return err == nil && po.Scheme == "https"
}

// seedValue checks that exactly one of public and secret is set.
func (v *validation) seedValue(p pth, sv *SeedValue) {
	if (sv.Public == nil) == (sv.SecretRef == "") {
		v.add(p, CodeInvalidSeedValue, `a seeded value is exactly one of {"public": "..."} and {"secret_ref": "<declared secret>"}`, "")
	}
	if sv.Public != nil && strings.Contains(*sv.Public, "{{") {
		v.add(p.f("public"), CodeInvalidSeedValue, "a seeded value takes no templates: it is a public literal or a secret reference", "")
	}
}

// seedCredential refuses a public literal for a credential-named entry.
func (v *validation) seedCredential(p pth, name string, sv *SeedValue) {
	if sv.Public != nil && *sv.Public != "" && redact.CredentialQueryName(name) {
		v.add(p.f("value").f("public"), CodeSeedCredentialLiteral,
			fmt.Sprintf("%q carries credentials: write its value as a secret reference, never as a literal", name), "")
	}
}

// cookiePath is the effective path of a seeded cookie.
func cookiePath(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// cookieRules checks the RFC 6265 shape of a seeded cookie.
func (v *validation) cookieRules(p pth, ck *SeedCookie, secure bool) {
	if ck.Name != "" && !cookieToken(ck.Name) {
		v.add(p.f("name"), CodeInvalidSeedCookie, "a cookie name is an RFC 6265 token (no control characters, spaces or separators such as = ; , \" /)", ck.Name)
	}
	if ck.Value.Public != nil {
		if !CookieValue(*ck.Value.Public) {
			v.add(p.f("value").f("public"), CodeInvalidSeedCookie, `a cookie value holds no control characters, spaces, '"', ',', ';' or '\'`, "")
		}
		if len(ck.Name)+len(*ck.Value.Public) > MaxSeedValueBytes {
			v.add(p.f("value").f("public"), CodeInvalidSeedCookie, fmt.Sprintf("a cookie's name and value are at most %d bytes together", MaxSeedValueBytes), "")
		}
	}
	if ck.Path != "" && (!strings.HasPrefix(ck.Path, "/") || strings.ContainsFunc(ck.Path, func(r rune) bool { return r < ' ' || r == 0x7f || r == ';' })) {
		v.add(p.f("path"), CodeInvalidSeedCookie, "a cookie path starts with / and holds no ';' or control characters", ck.Path)
	}
	lower := strings.ToLower(ck.Name)
	if (strings.HasPrefix(lower, "__secure-") || strings.HasPrefix(lower, "__host-")) && !secure && ck.Origin != "" {
		v.add(p.f("name"), CodeInvalidSeedCookie, "a __Secure- or __Host- cookie needs an https origin", ck.Name)
	}
	if strings.HasPrefix(lower, "__host-") && cookiePath(ck.Path) != "/" {
		v.add(p.f("path"), CodeInvalidSeedCookie, `a __Host- cookie has path "/"`, ck.Path)
	}
}

// cookieToken reports whether s is an RFC 2616 token (a cookie name).
func cookieToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("()<>@,;:\\\"/[]?={}", c) >= 0 {
			return false
		}
	}
	return s != ""
}

// CookieValue reports whether s may be a seeded cookie's value: RFC 6265
// cookie-octets (printable ASCII but space, '"', ',', ';' and '\') and,
// beyond ASCII, any UTF-8 (browsers keep it). The runtime applies it to
// a resolved secret too.
func CookieValue(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x80 && (c <= ' ' || c == 0x7f || c == '"' || c == ',' || c == ';' || c == '\\') {
			return false
		}
	}
	return true
}

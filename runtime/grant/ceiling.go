package grant

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/vera-run/vera/internal/origin"
)

// The environment variables of the ceiling ([FromEnv]): the seed's names
// with Vera's prefix.
const (
	// EnvEnabled is "true" or "false"; unset or empty is false.
	EnvEnabled = "VERA_BROWSER_ENABLED"
	// EnvExecutableRoots is a JSON array of absolute, clean directories.
	EnvExecutableRoots = "VERA_BROWSER_EXECUTABLE_ROOTS_JSON"
	// EnvCDPEndpoints is a JSON array of CDP endpoints
	// (scheme://host:port).
	EnvCDPEndpoints = "VERA_BROWSER_CDP_ENDPOINTS_JSON"
	// EnvAllowedOrigins is a JSON array of origins.
	EnvAllowedOrigins = "VERA_BROWSER_ALLOWED_ORIGINS_JSON"
	// EnvAllowedEnv is a JSON array of environment variable names.
	EnvAllowedEnv = "VERA_BROWSER_ALLOWED_ENV_JSON"
	// EnvAutoGrant is "true" or "false"; unset or empty is false.
	EnvAutoGrant = "VERA_BROWSER_AUTO_GRANT"
)

// EnvNames lists the ceiling's environment variables in the order
// [ParseEnv] reads them.
func EnvNames() []string {
	return []string{EnvEnabled, EnvExecutableRoots, EnvCDPEndpoints, EnvAllowedOrigins, EnvAllowedEnv, EnvAutoGrant}
}

// Limits of a ceiling, enforced by [ParseEnv] and [Ceiling.Validate].
const (
	// MaxEnvValueBytes bounds the value of each ceiling variable.
	MaxEnvValueBytes = 64 << 10
	// MaxEntries bounds each list of a ceiling and of a grant.
	MaxEntries = 256
	// MaxEnvNameBytes bounds an environment variable name.
	MaxEnvNameBytes = 128
)

// Ceiling is what the administrator allows browser automation to do on
// this host. The zero value allows nothing. Set it in code or read it
// from the environment with [FromEnv]; [Ceiling.Validate] checks an
// in-code value with the environment's rules.
type Ceiling struct {
	// Enabled turns browser automation on at all. A disabled ceiling
	// refuses every grant, automatic or not.
	Enabled bool
	// ExecutableRoots are absolute, clean directories: a launched
	// executable must resolve (symlinks followed) to a file inside one of
	// them (resolved too).
	ExecutableRoots []string
	// CDPEndpoints are the DevTools endpoints Connect may reach, each
	// scheme://host:port (http, https, ws or wss, explicit port, no path).
	// An http and a ws entry with the same host and port are the same
	// endpoint. A loopback host (127.0.0.1, localhost, [::1]) is a local
	// endpoint; listing any other host is how a ceiling allows a remote
	// one.
	CDPEndpoints []string
	// AllowedOrigins are the origins a granted run may list.
	AllowedOrigins []string
	// AllowedEnv are the environment variable names a granted run may
	// read (secret references).
	AllowedEnv []string
	// AutoGrant derives a missing grant from the ceiling and the
	// capability (still checked against the ceiling, and still recorded).
	// Only for trusted unattended environments.
	AutoGrant bool
	// MaxNetwork is the highest network class a grant may have. Empty
	// means the highest class of AllowedOrigins (loopback when it is
	// empty). It has no environment variable: the environment ceiling
	// always derives it.
	MaxNetwork NetworkClass
}

// FromEnv reads the ceiling from the process environment ([ParseEnv]
// with os.LookupEnv).
func FromEnv() (*Ceiling, error) { return ParseEnv(os.LookupEnv) }

// ParseEnv reads the ceiling from the six variables of [EnvNames] through
// lookup. Unset and empty variables are false or empty lists. A boolean
// is exactly "true" or "false"; a list is one JSON array of strings (no
// null, no other type, no trailing data) whose entries follow the
// [Ceiling.Validate] rules. Every bad variable is reported: the error
// joins one [*EnvError] per variable (each wraps [ErrCeiling]).
func ParseEnv(lookup func(string) (string, bool)) (*Ceiling, error) {
	if lookup == nil {
		return nil, fmt.Errorf("%w: nil lookup", ErrCeiling)
	}
	var errs []error
	get := func(name string) string {
		v, _ := lookup(name)
		if len(v) > MaxEnvValueBytes {
			errs = append(errs, &EnvError{Var: name, Reason: fmt.Sprintf("longer than %d bytes", MaxEnvValueBytes)})
			return ""
		}
		return v
	}
	boolean := func(name string) bool {
		switch v := get(name); v {
		case "", "false":
			return false
		case "true":
			return true
		default:
			errs = append(errs, &EnvError{Var: name, Reason: `not "true" or "false"`})
			return false
		}
	}
	list := func(name string, check func([]string) string) []string {
		v := get(name)
		if strings.TrimSpace(v) == "" {
			return nil
		}
		xs, reason := jsonStrings(v)
		if reason == "" {
			reason = check(xs)
		}
		if reason != "" {
			errs = append(errs, &EnvError{Var: name, Reason: reason})
			return nil
		}
		return xs
	}
	c := &Ceiling{
		Enabled:         boolean(EnvEnabled),
		ExecutableRoots: list(EnvExecutableRoots, checkRoots),
		CDPEndpoints:    list(EnvCDPEndpoints, checkEndpoints),
		AllowedOrigins:  list(EnvAllowedOrigins, checkOrigins),
		AllowedEnv:      list(EnvAllowedEnv, checkEnvNames),
		AutoGrant:       boolean(EnvAutoGrant),
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return c, nil
}

// jsonStrings decodes one JSON array of strings.
func jsonStrings(v string) ([]string, string) {
	t := bytes.TrimSpace([]byte(v))
	if len(t) == 0 || t[0] != '[' {
		return nil, "not a JSON array of strings"
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	var xs []string
	if err := dec.Decode(&xs); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, "an entry is not a string"
		}
		return nil, "bad JSON: " + err.Error()
	}
	if dec.More() || dec.InputOffset() != int64(len(t)) {
		return nil, "bad JSON: data after the array"
	}
	if len(xs) > MaxEntries {
		return nil, fmt.Sprintf("more than %d entries", MaxEntries)
	}
	return xs, ""
}

// Validate checks an in-code ceiling with the rules [ParseEnv] applies:
// roots absolute and clean, endpoints scheme://host:port, origins that
// parse, variable names [A-Za-z_][A-Za-z0-9_]*, no duplicates (after
// normalization), at most [MaxEntries] each, and MaxNetwork empty or a
// class. The error wraps [ErrCeiling].
func (c *Ceiling) Validate() error {
	if c == nil {
		return fmt.Errorf("%w: nil ceiling", ErrCeiling)
	}
	var errs []error
	add := func(field string, xs []string, check func([]string) string) {
		if len(xs) > MaxEntries {
			errs = append(errs, fmt.Errorf("%w: %s: more than %d entries", ErrCeiling, field, MaxEntries))
			return
		}
		if r := check(xs); r != "" {
			errs = append(errs, fmt.Errorf("%w: %s: %s", ErrCeiling, field, r))
		}
	}
	add("ExecutableRoots", c.ExecutableRoots, checkRoots)
	add("CDPEndpoints", c.CDPEndpoints, checkEndpoints)
	add("AllowedOrigins", c.AllowedOrigins, checkOrigins)
	add("AllowedEnv", c.AllowedEnv, checkEnvNames)
	if c.MaxNetwork != "" && !c.MaxNetwork.Valid() {
		errs = append(errs, fmt.Errorf("%w: MaxNetwork %q is not loopback, private or public", ErrCeiling, c.MaxNetwork))
	}
	return errors.Join(errs...)
}

// network is the ceiling's effective highest class.
func (c *Ceiling) network() NetworkClass {
	if c.MaxNetwork != "" {
		return c.MaxNetwork
	}
	best := Loopback
	for _, a := range c.AllowedOrigins {
		if _, ok := strings.CutSuffix(a, ":"+AnyPort); ok {
			continue // loopback only
		}
		if cl := ClassifyOrigins([]string{a}); cl.rank() > best.rank() {
			best = cl
		}
	}
	return best
}

func checkRoots(xs []string) string {
	seen := map[string]bool{}
	for i, r := range xs {
		switch {
		case r == "" || strings.ContainsRune(r, 0):
			return fmt.Sprintf("entry %d is empty or contains NUL", i)
		case !filepath.IsAbs(r):
			return fmt.Sprintf("entry %d (%q) is not an absolute path", i, r)
		case filepath.Clean(r) != r:
			return fmt.Sprintf("entry %d (%q) is not clean (no \"..\", \".\", doubled or trailing separators)", i, r)
		case seen[r]:
			return fmt.Sprintf("entry %d (%q) is a duplicate", i, r)
		}
		seen[r] = true
	}
	return ""
}

// endpointKey is the endpoint's identity: the http form of its origin
// (ws://h:p and http://h:p are one endpoint).
func endpointKey(raw string, entry bool) (origin.Origin, string) {
	if base, ok := strings.CutSuffix(raw, ":"+AnyPort); ok && entry {
		u, err := url.Parse(base)
		if err != nil || u.Host == "" || u.Port() != "" || (u.Path != "" && u.Path != "/") || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return origin.Origin{}, "a port of \"*\" is written as scheme://host:*"
		}
		o, ok := origin.OfURL(u)
		if !ok || !o.Loopback() {
			return origin.Origin{}, "a port of \"*\" is allowed only on a loopback host"
		}
		o = o.HTTPEquivalent()
		o.Port = 0 // any port
		return o, ""
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return origin.Origin{}, "not an absolute URL with a host"
	}
	if u.User != nil {
		return origin.Origin{}, "user information is not allowed"
	}
	if u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(raw, "?#") {
		return origin.Origin{}, "a query or fragment is not allowed"
	}
	if u.Port() == "" {
		return origin.Origin{}, "an endpoint needs an explicit port"
	}
	if entry && u.Path != "" && u.Path != "/" {
		return origin.Origin{}, "a ceiling endpoint is scheme://host:port, with no path"
	}
	o, ok := origin.OfURL(u)
	if !ok {
		return origin.Origin{}, "the scheme must be http, https, ws or wss and the port 1 to 65535"
	}
	return o.HTTPEquivalent(), ""
}

func checkEndpoints(xs []string) string {
	seen := map[origin.Origin]bool{}
	for i, e := range xs {
		k, r := endpointKey(e, true)
		if r != "" {
			return fmt.Sprintf("entry %d (%q): %s", i, e, r)
		}
		if seen[k] {
			return fmt.Sprintf("entry %d (%q) is a duplicate", i, e)
		}
		seen[k] = true
	}
	return ""
}

// AnyPort is the port of a ceiling entry that allows every port of a
// loopback host: "http://127.0.0.1:*" in AllowedOrigins or CDPEndpoints.
const AnyPort = "*"

// ceilingOrigin reads one AllowedOrigins entry: its key (the normalized
// origin, or scheme://host:* for a loopback any-port entry).
func ceilingOrigin(s string) (string, error) {
	if base, ok := strings.CutSuffix(s, ":"+AnyPort); ok {
		o, err := origin.Parse(base)
		if err != nil {
			return "", err
		}
		if !o.Loopback() || !strings.EqualFold(o.String(), base) {
			return "", fmt.Errorf("%w %q: a port of %q is allowed only on a loopback host with no port written", origin.ErrInvalid, s, AnyPort)
		}
		return anyPortKey(o), nil
	}
	return origin.Normalize(s)
}

// anyPortKey is scheme://host:* of an origin.
func anyPortKey(o origin.Origin) string {
	h := o.Host
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	return o.Scheme + "://" + h + ":" + AnyPort
}

func checkOrigins(xs []string) string {
	seen := map[string]bool{}
	for i, s := range xs {
		n, err := ceilingOrigin(s)
		if err != nil {
			return fmt.Sprintf("entry %d: %v", i, err)
		}
		if seen[n] {
			return fmt.Sprintf("entry %d (%q) is a duplicate", i, s)
		}
		seen[n] = true
	}
	return ""
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ValidEnvName reports whether name is an environment variable name a
// ceiling or grant may list: [A-Za-z_][A-Za-z0-9_]*, at most
// [MaxEnvNameBytes] bytes.
func ValidEnvName(name string) bool {
	return len(name) <= MaxEnvNameBytes && envName.MatchString(name)
}

func checkEnvNames(xs []string) string {
	seen := map[string]bool{}
	for i, s := range xs {
		if !ValidEnvName(s) {
			return fmt.Sprintf("entry %d is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*, at most %d bytes)", i, MaxEnvNameBytes)
		}
		if seen[s] {
			return fmt.Sprintf("entry %d (%q) is a duplicate", i, s)
		}
		seen[s] = true
	}
	return ""
}

// checkExecutable resolves a launch executable and checks it against the
// roots: it returns the resolved path.
func (c *Ceiling) checkExecutable(path string) (string, error) {
	refuse := func(reason string) error {
		return &ExceedError{Field: FieldExecutable, Value: path, Reason: reason}
	}
	if path == "" || !filepath.IsAbs(path) {
		return "", refuse("launch needs an absolute executable path")
	}
	if filepath.Clean(path) != path {
		return "", refuse("the path is not clean (no \"..\" or \".\" elements)")
	}
	resolved, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", refuse("it cannot be resolved: " + errText(err))
	}
	st, err := os.Stat(resolved)
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		return "", refuse("it is not an executable regular file")
	}
	for _, root := range c.ExecutableRoots {
		rr, err := filepath.EvalSymlinks(root)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(rr, resolved); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && rel != "." {
			return resolved, nil
		}
	}
	if len(c.ExecutableRoots) == 0 {
		return "", refuse("the ceiling allows no executable root (" + EnvExecutableRoots + ")")
	}
	return "", refuse(fmt.Sprintf("it resolves to %q, outside every allowed root %q", resolved, c.ExecutableRoots))
}

// errText is an error's text without the path os errors repeat.
func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// checkEndpoint checks a connect endpoint against the listed ones.
func (c *Ceiling) checkEndpoint(raw string) error {
	k, r := endpointKey(raw, false)
	if r != "" {
		return &ExceedError{Field: FieldEndpoint, Value: redactEndpoint(raw), Reason: r}
	}
	for _, e := range c.CDPEndpoints {
		ek, r := endpointKey(e, true)
		if r == "" && (ek == k || ek.Port == 0 && ek.Scheme == k.Scheme && ek.Host == k.Host) {
			return nil
		}
	}
	return &ExceedError{Field: FieldEndpoint, Value: redactEndpoint(raw), Reason: fmt.Sprintf("not listed by the ceiling (%s): %q", EnvCDPEndpoints, c.CDPEndpoints)}
}

// redactEndpoint is scheme://host of an endpoint, for errors.
func redactEndpoint(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(unparsable endpoint)"
	}
	return u.Scheme + "://" + u.Host
}

// checkOriginsAllowed checks each normalized origin against the ceiling.
func (c *Ceiling) checkOriginsAllowed(origins []string) error {
	allowed := map[string]bool{}
	for _, a := range c.AllowedOrigins {
		if n, err := ceilingOrigin(a); err == nil {
			allowed[n] = true
		}
	}
	for _, o := range origins {
		p, err := origin.Parse(o)
		if !allowed[o] && (err != nil || !allowed[anyPortKey(p)]) {
			return &ExceedError{Field: FieldOrigin, Value: o, Reason: fmt.Sprintf("not in the ceiling's allowed origins (%s)", EnvAllowedOrigins)}
		}
	}
	return nil
}

func (c *Ceiling) checkEnvAllowed(names []string) error {
	for _, n := range names {
		if !slices.Contains(c.AllowedEnv, n) {
			return &ExceedError{Field: FieldEnv, Value: n, Reason: fmt.Sprintf("not in the ceiling's allowed environment names (%s)", EnvAllowedEnv)}
		}
	}
	return nil
}

package runtime

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/origin"
	"github.com/vera-run/vera/receipt"
)

// Secrets (issue 17, seed 002): a capability declares environment-backed
// secrets ([capability.Secret]) and refers to them from inputs
// (secret_ref) and seeded values. Execute resolves every referenced secret
// through the env lookup ([WithEnvLookup], default os.LookupEnv), only
// from the names [WithAllowedEnv] lists, before any driver call.

// ErrSecretUnavailable: a referenced secret could not be resolved before
// the run (its environment variable is unset, empty, too long, too short
// or not usable where it goes). The error is a *[SecretError] listing
// every problem; no value is ever echoed. The driver was not called.
var ErrSecretUnavailable = errors.New("runtime: secret unavailable")

// ErrSeedUnsupported: the capability seeds browser state (cookies or
// storage) and the driver does not implement [Seeder]. Execute refuses
// the run before any driver call.
var ErrSeedUnsupported = errors.New("runtime: the driver cannot seed browser state")

// Secret problem codes reported in [SecretError].
const (
	SecretMissing  = "secret_missing"   // the environment variable is not set
	SecretEmpty    = "secret_empty"     // it is set to the empty string
	SecretTooShort = "secret_too_short" // fewer than MinSecretValueBytes bytes
	SecretTooLong  = "secret_too_long"  // more than capability.MaxSecretValueBytes bytes
	SecretInvalid  = "secret_invalid"   // invalid UTF-8, a control character, or not a cookie value where a cookie takes it
)

// MinSecretValueBytes is the shortest secret value Execute accepts. A
// resolved value is replaced by its reference wherever it would reach a
// durable result; a value of one to three bytes would blank out ordinary
// words (and guards nothing worth a secret).
const MinSecretValueBytes = 4

// SecretProblem is one problem with one secret. It never holds the value.
type SecretProblem struct {
	// Secret is the declared secret's name, Env its variable.
	Secret, Env string
	Code        string
	Message     string
}

// SecretError lists every secret that could not be resolved, sorted by
// secret name then code.
type SecretError struct {
	Problems []SecretProblem
}

// Error implements error.
func (e *SecretError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "runtime: %d secret problem(s)", len(e.Problems))
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "; %s (%s): %s [%s]", p.Secret, p.Env, p.Message, p.Code)
	}
	return b.String()
}

// Is matches [ErrSecretUnavailable].
func (e *SecretError) Is(target error) bool { return target == ErrSecretUnavailable }

// Has reports whether the error lists code for the named secret.
func (e *SecretError) Has(secret, code string) bool {
	for _, p := range e.Problems {
		if p.Secret == secret && p.Code == code {
			return true
		}
	}
	return false
}

// InputFromSecret: the host supplied an input whose value comes from a
// secret (secret_ref); reported in an [InputError].
const InputFromSecret = "input_from_secret"

// WithEnvLookup sets how secrets are read from the environment (default
// os.LookupEnv). Only names listed with [WithAllowedEnv] are ever looked
// up. A nil lookup is refused.
func WithEnvLookup(lookup func(name string) (string, bool)) Option {
	return func(c *config) {
		if lookup == nil {
			c.bad("WithEnvLookup", "nil lookup")
			return
		}
		c.envLookup = lookup
	}
}

// WithAllowedEnv lists the environment variables a capability's secrets
// may read. In a live run the run's grant decides (runtime/grant: the
// grant commits the variables, within the ceiling's
// VERA_BROWSER_ALLOWED_ENV_JSON, and an auto grant asks for the
// capability's secrets' variables); WithAllowedEnv then narrows it to
// the names it lists. In a simulated run it is the whole list. A
// capability whose secret names another variable is refused with
// [ErrInvalidCapability] and code secret_env_not_allowed before any
// driver call that acts. Without it (and without a grant) no variable is allowed, so a capability with
// secrets does not run. Repeated options add names; a malformed or
// reserved name (capability.ValidEnvName) is refused.
func WithAllowedEnv(names ...string) Option {
	return func(c *config) {
		for _, n := range names {
			if !capability.ValidEnvName(n) {
				c.bad("WithAllowedEnv", "%q is not an allowed environment variable name (%s, not reserved)", n, capability.EnvPattern)
				return
			}
			if !slices.Contains(c.allowedEnv, n) {
				c.allowedEnv = append(c.allowedEnv, n)
			}
		}
		c.allowedEnvSet = true
	}
}

// grantedEnv is the allowed list of a live run: the grant's variables,
// narrowed to the host's WithAllowedEnv list when one was given.
func grantedEnv(grantEnv, host []string, hostSet bool) []string {
	if !hostSet {
		return slices.Clone(grantEnv)
	}
	var out []string
	for _, n := range grantEnv {
		if slices.Contains(host, n) {
			out = append(out, n)
		}
	}
	return out
}

// Seeder is the optional [Driver] capability of setting browser state
// before the first navigation. Execute calls Seed once, after
// RestrictOrigins and before the start navigation, when the capability
// declares a seed; a driver without it cannot run such a capability
// ([ErrSeedUnsupported]). Seed sets every cookie and storage entry in the
// driver's own browser context so that the first document of each origin
// already sees them; an origin outside the installed scope fails with
// [ErrOriginBlocked]. Values may be resolved secrets: a Seeder never logs
// or returns them.
type Seeder interface {
	Seed(ctx context.Context, s SeedState) error
}

// SeedState is the resolved seed of a capability (capability.Seed with
// every secret reference replaced by its value).
type SeedState struct {
	Cookies        []SeedCookie
	LocalStorage   []SeedStorage
	SessionStorage []SeedStorage
}

// SeedCookie is one host-only session cookie to set.
type SeedCookie struct {
	// Origin is the normalized origin (scheme://host[:port]) the cookie
	// belongs to; Path is its path ("/" when the capability omits it).
	Origin, Name, Value, Path string
	// Secure is true exactly for an https origin.
	Secure   bool
	HTTPOnly bool
	// SameSite is "Lax" or "Strict".
	SameSite string
}

// SeedStorage is one storage entry to set on Origin.
type SeedStorage struct {
	Origin, Key, Value string
}

// secretSet is the run's resolved secrets: the values by name, and the
// (value, reference) pairs durable results are scrubbed with.
type secretSet struct {
	values map[string]string
	subst  []string // strings.Replacer pairs, longest value first
	repl   *strings.Replacer
}

// resolveSecrets checks the capability's secret env names against the
// allowed list and resolves every referenced secret. inputs are the
// host's supplied inputs: one for an input with a secret_ref is refused.
func resolveSecrets(c *capability.Capability, cfg *config, inputs map[string]any) (*secretSet, error) {
	set := &secretSet{values: map[string]string{}}
	var inProbs []InputProblem
	for _, in := range c.Inputs {
		if in.SecretRef == "" {
			continue
		}
		if v, ok := inputs[in.Name]; ok && v != nil {
			inProbs = append(inProbs, InputProblem{Name: in.Name, Code: InputFromSecret,
				Message: fmt.Sprintf("the value comes from secret %q; the host does not supply it", in.SecretRef)})
		}
	}
	if len(inProbs) > 0 {
		return nil, &InputError{Problems: inProbs}
	}
	// Validation (always run first) refuses an undeclared reference
	// (undeclared_secret); this is the plan's consistency check, not a
	// second copy of that rule: a reference it cannot resolve is reported
	// as codePlan instead of seeding or typing nothing.
	var undeclared capability.ErrorList
	for i, in := range c.Inputs {
		if _, ok := c.Secret(in.SecretRef); in.SecretRef != "" && !ok {
			undeclared = append(undeclared, &capability.Error{Path: fmt.Sprintf("inputs[%d].secret_ref", i), Code: codePlan, Message: "undeclared secret"})
		}
	}
	c.Seed.EachSecret(func(path, name string) {
		if _, ok := c.Secret(name); !ok {
			undeclared = append(undeclared, &capability.Error{Path: path, Code: codePlan, Message: "undeclared secret"})
		}
	})
	if len(undeclared) > 0 {
		return nil, &CapabilityError{Problems: undeclared}
	}
	if len(c.Secrets) == 0 {
		return set, nil
	}
	if errs := c.CheckSecretEnv(cfg.allowedEnv); len(errs) > 0 {
		return nil, &CapabilityError{Problems: errs}
	}
	lookup := cfg.envLookup
	if lookup == nil {
		lookup = os.LookupEnv
	}
	cookieUse := map[string]int{} // secret -> longest cookie name using it
	if c.Seed != nil {
		for _, ck := range c.Seed.Cookies {
			if ck.Value.SecretRef != "" {
				cookieUse[ck.Value.SecretRef] = max(cookieUse[ck.Value.SecretRef], len(ck.Name)+1)
			}
		}
	}
	var probs []SecretProblem
	for _, name := range c.SecretRefs() {
		s, _ := c.Secret(name)
		add := func(code, msg string) {
			probs = append(probs, SecretProblem{Secret: name, Env: s.Env, Code: code, Message: msg})
		}
		v, ok := lookup(s.Env)
		nameLen, cookie := cookieUse[name]
		switch {
		case !ok:
			add(SecretMissing, "the environment variable is not set")
		case v == "":
			add(SecretEmpty, "the environment variable is empty")
		case len(v) < MinSecretValueBytes:
			add(SecretTooShort, fmt.Sprintf("shorter than %d bytes", MinSecretValueBytes))
		case len(v) > capability.MaxSecretValueBytes:
			add(SecretTooLong, fmt.Sprintf("longer than %d bytes", capability.MaxSecretValueBytes))
		case !utf8.ValidString(v) || strings.ContainsFunc(v, func(r rune) bool { return r < ' ' || r == 0x7f || r >= 0x80 && r < 0xa0 }):
			add(SecretInvalid, "not valid UTF-8 or holds a control character")
		case cookie && (!capability.CookieValue(v) || len(v)+nameLen-1 > capability.MaxSeedValueBytes):
			add(SecretInvalid, "a seeded cookie takes it, and it is not a cookie value (space, '\"', ',', ';', '\\') or too long with the cookie's name")
		default:
			set.values[name] = v
		}
	}
	if len(probs) > 0 {
		slices.SortStableFunc(probs, func(a, b SecretProblem) int {
			if a.Secret != b.Secret {
				return strings.Compare(a.Secret, b.Secret)
			}
			return strings.Compare(a.Code, b.Code)
		})
		return nil, &SecretError{Problems: probs}
	}
	set.build()
	return set, nil
}

// build prepares the scrubber: every value, and its percent-encoded
// form, is replaced by the secret's reference ("[secret:NAME]"), the
// longest value first so that one value inside another cannot leave a
// part behind.
func (s *secretSet) build() {
	type pair struct{ from, to string }
	var ps []pair
	for name, v := range s.values {
		ref := capability.SecretReference(name)
		ps = append(ps, pair{v, ref})
		if e := encodeURIComponent(v); e != v {
			ps = append(ps, pair{e, ref})
		}
	}
	slices.SortFunc(ps, func(a, b pair) int {
		if len(a.from) != len(b.from) {
			return len(b.from) - len(a.from)
		}
		return strings.Compare(a.from, b.from)
	})
	for _, p := range ps {
		s.subst = append(s.subst, p.from, p.to)
	}
	if len(s.subst) > 0 {
		s.repl = strings.NewReplacer(s.subst...)
	}
}

// applyInputs sets every secret_ref input to its resolved secret: a
// supplied secret input, so it is filled, hashed never, shown only as
// [SecretShown], and recorded present and secret.
func (s *secretSet) applyInputs(c *capability.Capability, vals map[string]inputValue) {
	for _, in := range c.Inputs {
		if in.SecretRef == "" {
			continue
		}
		if v, ok := s.values[in.SecretRef]; ok {
			vals[in.Name] = inputValue{typed: v, text: v, supplied: true, secret: true}
		}
	}
}

// scrub replaces every resolved secret value in t by its reference.
func (s *secretSet) scrub(t string) string {
	if s == nil || s.repl == nil || t == "" {
		return t
	}
	return s.repl.Replace(t)
}

// scrubValue scrubs every string of an output value (a string, a record
// map, a list of records).
func (s *secretSet) scrubValue(v any) any {
	if s == nil || s.repl == nil {
		return v
	}
	switch x := v.(type) {
	case string:
		return s.scrub(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[s.scrub(k)] = s.scrubValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = s.scrubValue(e)
		}
		return out
	}
	return v
}

// secretsSeen lists the resolved values, for the cause sanitizer.
func (s *secretSet) list() []string {
	if s == nil {
		return nil
	}
	out := make([]string, 0, len(s.values))
	for _, v := range s.values {
		out = append(out, v)
	}
	return out
}

// seedState resolves the capability's seed.
func (s *secretSet) seedState(c *capability.Capability) SeedState {
	var st SeedState
	if c.Seed == nil {
		return st
	}
	val := func(v capability.SeedValue) string {
		if v.Public != nil {
			return *v.Public
		}
		return s.values[v.SecretRef]
	}
	norm := func(o string) string {
		if n, err := origin.Normalize(o); err == nil {
			return n
		}
		return o
	}
	for _, ck := range c.Seed.Cookies {
		p := ck.Path
		if p == "" {
			p = "/"
		}
		po, _ := origin.Parse(ck.Origin)
		ss := "Lax"
		if ck.SameSite == "strict" {
			ss = "Strict"
		}
		st.Cookies = append(st.Cookies, SeedCookie{Origin: norm(ck.Origin), Name: ck.Name, Value: val(ck.Value), Path: p,
			Secure: po.Scheme == "https", HTTPOnly: ck.HTTPOnly, SameSite: ss})
	}
	for _, e := range c.Seed.LocalStorage {
		st.LocalStorage = append(st.LocalStorage, SeedStorage{Origin: norm(e.Origin), Key: e.Key, Value: val(e.Value)})
	}
	for _, e := range c.Seed.SessionStorage {
		st.SessionStorage = append(st.SessionStorage, SeedStorage{Origin: norm(e.Origin), Key: e.Key, Value: val(e.Value)})
	}
	return st
}

// scrubHandler is a slog.Handler that scrubs resolved secrets out of the
// message and every string attribute before the host's handler sees
// them, so a log line never carries a secret value.
type scrubHandler struct {
	inner slog.Handler
	s     *secretSet
}

func (h scrubHandler) Enabled(ctx context.Context, l slog.Level) bool { return h.inner.Enabled(ctx, l) }

func (h scrubHandler) Handle(ctx context.Context, r slog.Record) error {
	nr := slog.NewRecord(r.Time, r.Level, h.s.scrub(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		nr.AddAttrs(h.attr(a))
		return true
	})
	return h.inner.Handle(ctx, nr)
}

func (h scrubHandler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.s.scrub(v.String()))
	case slog.KindGroup:
		g := v.Group()
		out := make([]any, len(g))
		for i, e := range g {
			out[i] = h.attr(e)
		}
		return slog.Group(a.Key, out...)
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return slog.String(a.Key, h.s.scrub(err.Error()))
		}
		return slog.String(a.Key, h.s.scrub(v.String()))
	}
	return slog.Attr{Key: a.Key, Value: v}
}

func (h scrubHandler) WithAttrs(as []slog.Attr) slog.Handler {
	out := make([]slog.Attr, len(as))
	for i, a := range as {
		out[i] = h.attr(a)
	}
	return scrubHandler{inner: h.inner.WithAttrs(out), s: h.s}
}

func (h scrubHandler) WithGroup(name string) slog.Handler {
	return scrubHandler{inner: h.inner.WithGroup(name), s: h.s}
}

// seed applies the capability's seed through the driver's [Seeder], after
// the origin scope is installed and before the start navigation.
func (r *run) seed() *stop {
	if r.cap.Seed.Empty() {
		return nil
	}
	sd, ok := r.drv.(Seeder)
	if !ok {
		// Refused before the run by Execute; kept for WithSkipValidation
		// paths that reach here.
		return r.failed(receipt.CategoryInternal, ReasonSeedFailed, "the driver cannot seed browser state")
	}
	nctx, cancel := context.WithTimeout(r.ctx, r.actionTimeout)
	err := sd.Seed(nctx, r.secrets.seedState(r.cap))
	cancel()
	r.touch()
	if err != nil {
		if errors.Is(err, ErrOriginBlocked) {
			r.countBlocked()
		}
		return r.classify(err, receipt.CategoryInternal, ReasonSeedFailed)
	}
	return nil
}

package grant

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/origin"
	"github.com/vera-run/vera/internal/strictjson"
)

// Schema is the schema of a grant document and of its commitment.
const Schema = "browser-grant/v1"

// MaxGrantBytes bounds a grant document [Parse] reads.
const MaxGrantBytes = 256 << 10

// Mode is how the granted browser is reached.
type Mode string

// The two modes of a live browser.
const (
	// ModeLaunch: Vera starts the executable (browser.Launch,
	// LaunchBrowser, StartLocal).
	ModeLaunch Mode = "launch"
	// ModeConnect: Vera attaches to an existing browser's CDP endpoint
	// (browser.Connect, ConnectBrowser).
	ModeConnect Mode = "connect"
)

// Target is the browser a grant commits: the resolved executable of a
// launch or the endpoint of a connect.
type Target struct {
	Mode Mode
	// Executable is the resolved absolute path (launch only).
	Executable string
	// Endpoint is the CDP endpoint URL exactly as connected to (connect
	// only).
	Endpoint string
}

// value is the target's one string: the path or the endpoint.
func (t Target) value() string {
	if t.Mode == ModeLaunch {
		return t.Executable
	}
	return t.Endpoint
}

// String is "launch /path" or "connect ws://host:port" (the endpoint
// without its path).
func (t Target) String() string {
	if t.Mode == ModeLaunch {
		return "launch " + t.Executable
	}
	return "connect " + redactEndpoint(t.Endpoint)
}

// Grant is one authorization of browser automation: one browser target,
// one capability (its execution hash), the origins and environment
// variable names the run may use, and their network class. It is
// checked against a [Ceiling] when it is made ([Ceiling.Grant],
// [Ceiling.Launch], [Ceiling.Connect], [Ceiling.Auto]) or read
// ([Ceiling.Check]); browser.WithGrant accepts only a checked grant.
// Its JSON form is the grant document (browser-grant/v1); [Grant.Digest]
// is the SHA-256 of its [Commitment].
type Grant struct {
	Schema string `json:"schema"`
	Mode   Mode   `json:"mode"`
	// Executable is the resolved absolute executable (launch).
	Executable string `json:"executable,omitempty"`
	// Endpoint is the CDP endpoint URL (connect).
	Endpoint string `json:"endpoint,omitempty"`
	// ExecutionHash is the capability's execution hash.
	ExecutionHash string `json:"execution_hash"`
	// Origins are normalized, sorted and unique.
	Origins []string `json:"origins"`
	// Env are environment variable names, sorted and unique.
	Env []string `json:"env"`
	// NetworkClass is the highest class of Origins.
	NetworkClass NetworkClass `json:"network_class"`
	// Auto is true for a grant derived by an auto-grant ceiling.
	Auto bool `json:"auto"`

	checked bool // made or checked against a ceiling in this process
}

// Request is what a grant asks for.
type Request struct {
	// Target is the browser: mode and executable or endpoint.
	Target Target
	// ExecutionHash is the capability's execution hash.
	ExecutionHash string
	// Origins are the origins the run may reach (any spelling
	// internal/origin parses).
	Origins []string
	// Env are the environment variable names the run may read.
	Env []string
}

// Launch grants launching executable for the capability c: its execution
// hash and allowed origins, and the environment variable names env.
func (c *Ceiling) Launch(capab *capability.Capability, executable string, env ...string) (*Grant, error) {
	return c.forCapability(capab, Target{Mode: ModeLaunch, Executable: executable}, env, false)
}

// Connect grants connecting to the CDP endpoint for the capability c.
func (c *Ceiling) Connect(capab *capability.Capability, endpoint string, env ...string) (*Grant, error) {
	return c.forCapability(capab, Target{Mode: ModeConnect, Endpoint: endpoint}, env, false)
}

func (c *Ceiling) forCapability(capab *capability.Capability, t Target, env []string, auto bool) (*Grant, error) {
	if capab == nil {
		return nil, fmt.Errorf("%w: nil capability", ErrInvalidGrant)
	}
	h, err := capab.ExecutionHash()
	if err != nil {
		return nil, fmt.Errorf("%w: execution hash: %v", ErrInvalidGrant, err)
	}
	return c.grant(Request{Target: t, ExecutionHash: h, Origins: capab.Site.AllowedOrigins, Env: env}, auto)
}

// Grant checks req against the ceiling and returns the grant: the
// executable resolved, origins normalized and sorted, env sorted, the
// network class computed. A request the ceiling does not allow is an
// [*ExceedError] (the first member that exceeds it); a malformed request
// wraps [ErrInvalidGrant].
func (c *Ceiling) Grant(req Request) (*Grant, error) { return c.grant(req, false) }

// Auto derives the grant of one run under an auto-grant ceiling: target,
// execution hash, origins and env as given, checked as [Ceiling.Grant]
// checks them, marked Auto. Without AutoGrant it wraps [ErrNotGranted].
func (c *Ceiling) Auto(req Request) (*Grant, error) {
	if c == nil || !c.AutoGrant {
		return nil, notGranted(req.Target, "the ceiling does not opt in to auto-grant ("+EnvAutoGrant+")")
	}
	return c.grant(req, true)
}

func (c *Ceiling) grant(req Request, auto bool) (*Grant, error) {
	if c == nil {
		return nil, notGranted(req.Target, "no ceiling")
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if !c.Enabled {
		return nil, &ExceedError{Field: FieldEnabled, Reason: "browser automation is disabled (" + EnvEnabled + " is not true)"}
	}
	if !canonjson.ValidDigest(req.ExecutionHash) {
		return nil, fmt.Errorf("%w: execution hash %q is not sha256:<64 hex>", ErrInvalidGrant, req.ExecutionHash)
	}
	g := &Grant{Schema: Schema, Mode: req.Target.Mode, ExecutionHash: req.ExecutionHash, Auto: auto, Env: []string{}, Origins: []string{}}
	t, err := c.CheckTarget(req.Target)
	if err != nil {
		return nil, err
	}
	g.Executable, g.Endpoint = t.Executable, t.Endpoint
	if len(req.Origins) == 0 || len(req.Origins) > MaxEntries {
		return nil, fmt.Errorf("%w: a grant lists 1 to %d origins", ErrInvalidGrant, MaxEntries)
	}
	for _, s := range req.Origins {
		n, err := origin.Normalize(s)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidGrant, err)
		}
		g.Origins = append(g.Origins, n)
	}
	slices.Sort(g.Origins)
	g.Origins = slices.Compact(g.Origins)
	if len(req.Env) > MaxEntries {
		return nil, fmt.Errorf("%w: more than %d environment names", ErrInvalidGrant, MaxEntries)
	}
	for _, n := range req.Env {
		if !ValidEnvName(n) {
			return nil, fmt.Errorf("%w: %q is not an environment variable name", ErrInvalidGrant, n)
		}
		g.Env = append(g.Env, n)
	}
	slices.Sort(g.Env)
	g.Env = slices.Compact(g.Env)
	g.NetworkClass = ClassifyOrigins(g.Origins)
	if err := c.checkOriginsAllowed(g.Origins); err != nil {
		return nil, err
	}
	if err := c.checkEnvAllowed(g.Env); err != nil {
		return nil, err
	}
	if max := c.network(); g.NetworkClass.rank() > max.rank() {
		return nil, &ExceedError{Field: FieldNetwork, Value: string(g.NetworkClass), Reason: fmt.Sprintf("the ceiling allows at most %s", max)}
	}
	g.checked = true
	return g, nil
}

// CheckTarget checks a browser target against the ceiling before any
// side effect: launch needs an absolute, clean executable that resolves
// (symlinks followed) to an executable file under an allowed root (the
// returned target holds the resolved path); connect needs an endpoint
// with an explicit port whose host and port the ceiling lists. A
// disabled ceiling refuses every target.
func (c *Ceiling) CheckTarget(t Target) (Target, error) {
	if c == nil {
		return Target{}, notGranted(t, "no ceiling")
	}
	if !c.Enabled {
		return Target{}, &ExceedError{Field: FieldEnabled, Reason: "browser automation is disabled (" + EnvEnabled + " is not true)"}
	}
	switch t.Mode {
	case ModeLaunch:
		if t.Endpoint != "" {
			return Target{}, fmt.Errorf("%w: a launch target has no endpoint", ErrInvalidGrant)
		}
		p, err := c.checkExecutable(t.Executable)
		if err != nil {
			return Target{}, err
		}
		return Target{Mode: ModeLaunch, Executable: p}, nil
	case ModeConnect:
		if t.Executable != "" {
			return Target{}, fmt.Errorf("%w: a connect target has no executable", ErrInvalidGrant)
		}
		if err := c.checkEndpoint(t.Endpoint); err != nil {
			return Target{}, err
		}
		return t, nil
	}
	return Target{}, fmt.Errorf("%w: mode %q is not launch or connect", ErrInvalidGrant, t.Mode)
}

// Check checks a grant that was not made by a ceiling of this process
// (one read with [Parse]) against c, exactly as [Ceiling.Grant] checks a
// request, and returns a checked copy. The copy must equal g: a grant
// whose executable no longer resolves to itself, or whose class or
// order is not what the ceiling computes, is refused.
func (c *Ceiling) Check(g *Grant) (*Grant, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	out, err := c.grant(Request{Target: g.Target(), ExecutionHash: g.ExecutionHash, Origins: g.Origins, Env: g.Env}, g.Auto)
	if err != nil {
		return nil, err
	}
	if out.Executable != g.Executable {
		return nil, &ExceedError{Field: FieldExecutable, Value: g.Executable, Reason: fmt.Sprintf("it now resolves to %q", out.Executable)}
	}
	return out, nil
}

// Checked reports whether g was made or checked by a ceiling in this
// process (browser.WithGrant accepts only such a grant).
func (g *Grant) Checked() bool { return g != nil && g.checked }

// Target returns the grant's browser target.
func (g *Grant) Target() Target {
	return Target{Mode: g.Mode, Executable: g.Executable, Endpoint: g.Endpoint}
}

// Validate checks the grant document's syntax: the schema, a mode with
// exactly its target member (an absolute clean executable, or an endpoint
// with an explicit port), a valid execution hash, 1 to [MaxEntries]
// normalized origins sorted without duplicates, valid env names sorted
// without duplicates, and the network class of the origins. The error
// wraps [ErrInvalidGrant].
func (g *Grant) Validate() error {
	if g == nil {
		return fmt.Errorf("%w: nil grant", ErrInvalidGrant)
	}
	bad := func(f string, a ...any) error { return fmt.Errorf("%w: "+f, append([]any{ErrInvalidGrant}, a...)...) }
	if g.Schema != Schema {
		return bad("schema %q is not %q", g.Schema, Schema)
	}
	switch g.Mode {
	case ModeLaunch:
		if g.Endpoint != "" || g.Executable == "" || !filepath.IsAbs(g.Executable) || filepath.Clean(g.Executable) != g.Executable {
			return bad("a launch grant has an absolute, clean executable and no endpoint")
		}
	case ModeConnect:
		if g.Executable != "" || g.Endpoint == "" {
			return bad("a connect grant has an endpoint and no executable")
		}
		if _, r := endpointKey(g.Endpoint, false); r != "" {
			return bad("endpoint: %s", r)
		}
	default:
		return bad("mode %q is not launch or connect", g.Mode)
	}
	return g.Commitment().check()
}

// Commitment is what a receipt records of a grant: the grant document
// with its target (a local path or a private endpoint) replaced by the
// SHA-256 of the target's exact UTF-8 bytes. [Grant.Digest] is its
// digest, so a verifier without the grant document can still recompute
// the digest from the receipt, and one with the document can tie the two.
type Commitment struct {
	Schema string `json:"schema"`
	Mode   Mode   `json:"mode"`
	// TargetSHA256 is "sha256:" + hex of the executable path or the
	// endpoint URL bytes.
	TargetSHA256  string       `json:"target_sha256"`
	ExecutionHash string       `json:"execution_hash"`
	Origins       []string     `json:"origins"`
	Env           []string     `json:"env"`
	NetworkClass  NetworkClass `json:"network_class"`
	Auto          bool         `json:"auto"`
}

// Commitment returns the grant's commitment.
func (g *Grant) Commitment() Commitment {
	return Commitment{
		Schema:        g.Schema,
		Mode:          g.Mode,
		TargetSHA256:  canonjson.SumBytes([]byte(g.Target().value())),
		ExecutionHash: g.ExecutionHash,
		Origins:       g.Origins,
		Env:           g.Env,
		NetworkClass:  g.NetworkClass,
		Auto:          g.Auto,
	}
}

// Digest is "sha256:" + hex of the RFC 8785 canonical JSON of the
// grant's [Commitment].
func (g *Grant) Digest() (string, error) {
	if err := g.Validate(); err != nil {
		return "", err
	}
	return g.Commitment().Digest()
}

// Digest is "sha256:" + hex of the commitment's RFC 8785 canonical JSON.
func (m Commitment) Digest() (string, error) {
	if err := m.Validate(); err != nil {
		return "", err
	}
	return canonjson.Digest(m)
}

// Validate checks a commitment's syntax ([Grant.Validate]'s rules, with a
// target digest instead of the target). The error wraps
// [ErrInvalidGrant].
func (m Commitment) Validate() error {
	if m.Schema != Schema {
		return fmt.Errorf("%w: schema %q is not %q", ErrInvalidGrant, m.Schema, Schema)
	}
	if m.Mode != ModeLaunch && m.Mode != ModeConnect {
		return fmt.Errorf("%w: mode %q is not launch or connect", ErrInvalidGrant, m.Mode)
	}
	if !canonjson.ValidDigest(m.TargetSHA256) {
		return fmt.Errorf("%w: target_sha256 is not sha256:<64 hex>", ErrInvalidGrant)
	}
	return m.check()
}

// check is the part of the rules a grant and its commitment share.
func (m Commitment) check() error {
	bad := func(f string, a ...any) error { return fmt.Errorf("%w: "+f, append([]any{ErrInvalidGrant}, a...)...) }
	if !canonjson.ValidDigest(m.ExecutionHash) {
		return bad("execution_hash is not sha256:<64 hex>")
	}
	if len(m.Origins) == 0 || len(m.Origins) > MaxEntries {
		return bad("origins: 1 to %d entries", MaxEntries)
	}
	for i, o := range m.Origins {
		n, err := origin.Normalize(o)
		if err != nil || n != o {
			return bad("origins[%d] %q is not a normalized origin", i, o)
		}
		if i > 0 && m.Origins[i-1] >= o {
			return bad("origins are not sorted and unique at %d", i)
		}
	}
	if m.Env == nil || len(m.Env) > MaxEntries {
		return bad("env: an array of at most %d names", MaxEntries)
	}
	for i, n := range m.Env {
		if !ValidEnvName(n) {
			return bad("env[%d] is not an environment variable name", i)
		}
		if i > 0 && m.Env[i-1] >= n {
			return bad("env is not sorted and unique at %d", i)
		}
	}
	if want := ClassifyOrigins(m.Origins); m.NetworkClass != want {
		return bad("network_class %q is not the class of the origins (%s)", m.NetworkClass, want)
	}
	return nil
}

// JSON returns the grant document as RFC 8785 canonical JSON.
func (g *Grant) JSON() ([]byte, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	return canonjson.Marshal(g)
}

// Parse reads a grant document strictly (one JSON object, no unknown or
// duplicate members, every member present, at most [MaxGrantBytes]) and
// validates it. The grant is not checked: [Ceiling.Check] it before
// use. The error wraps [ErrInvalidGrant].
func Parse(raw []byte) (*Grant, error) {
	if len(raw) > MaxGrantBytes {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrInvalidGrant, MaxGrantBytes)
	}
	doc, err := strictjson.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidGrant, err)
	}
	var g Grant
	if ms := strictjson.Missing(doc.Value(), typeOfGrant); len(ms) > 0 {
		return nil, fmt.Errorf("%w: %v", ErrInvalidGrant, ms[0])
	}
	if err := doc.Decode(&g); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidGrant, err)
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	return &g, nil
}

// Covers reports, as nil or an error wrapping [ErrNotCovered], whether the
// grant covers a run of the capability with execution hash execHash and
// allowed origins origins.
func (g *Grant) Covers(execHash string, origins []string, env ...string) error {
	if g == nil {
		return fmt.Errorf("%w: nil grant", ErrNotCovered)
	}
	if g.ExecutionHash != execHash {
		return fmt.Errorf("%w: the grant is for execution hash %s, the capability's is %s", ErrNotCovered, g.ExecutionHash, execHash)
	}
	for _, s := range origins {
		n, err := origin.Normalize(s)
		if err != nil {
			return fmt.Errorf("%w: origin %q: %v", ErrNotCovered, s, err)
		}
		if _, found := slices.BinarySearch(g.Origins, n); !found {
			return fmt.Errorf("%w: origin %s is not granted (the grant lists %s)", ErrNotCovered, n, strings.Join(g.Origins, ", "))
		}
	}
	for _, n := range env {
		if !slices.Contains(g.Env, n) {
			return fmt.Errorf("%w: environment variable %s is not granted (the grant lists %s)", ErrNotCovered, n, strings.Join(g.Env, ", "))
		}
	}
	return nil
}

// notGranted is the ErrNotGranted error that says what to grant.
func notGranted(t Target, why string) error {
	what := "grant the browser target with grant.Ceiling.Launch(capability, executable) and pass it as browser.WithGrant(g)"
	if t.Mode == ModeConnect {
		what = "grant the endpoint with grant.Ceiling.Connect(capability, endpoint) and pass it as browser.WithGrant(g)"
	}
	return fmt.Errorf("%w: %s: %s, or let the administrator set %s=true (with %s=true and the target listed in %s or %s)",
		ErrNotGranted, why, what, EnvAutoGrant, EnvEnabled, EnvExecutableRoots, EnvCDPEndpoints)
}

// NotGranted returns the [ErrNotGranted] error for target t, saying why
// and what to grant. The browser and runtime packages use it so every
// refusal names the same remedy.
func NotGranted(t Target, why string) error { return notGranted(t, why) }

var typeOfGrant = reflect.TypeOf(Grant{})

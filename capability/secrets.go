package capability

import (
	"fmt"
	"slices"
	"strings"
)

// Secret declares one environment-backed secret (seed 002): a capability
// never holds a credential, it names the environment variable the host's
// runtime reads it from. An input refers to it with secret_ref, a seeded
// cookie or storage value with {"secret_ref": name}. The resolved value never
// enters a document, a receipt, an output, a log or a comparison: durable
// results carry the reference [SecretReference] instead.
type Secret struct {
	// Name is the reference name ([NamePattern]), unique among secrets.
	Name string `json:"name" validate:"required,name"`
	// Env is the environment variable that holds the value: upper-case
	// letters, digits and '_', not starting with a digit, at most
	// [MaxSecretEnvLen] bytes ([EnvPattern]), not reserved ([ReservedEnv]).
	Env string `json:"env" validate:"required,max=128"`
	// Description says, for reviewers, what the secret is.
	Description string `json:"description,omitempty" validate:"max=2000"`
}

// Secret limits.
const (
	// MaxSecrets bounds the secrets one capability declares.
	MaxSecrets = 16
	// MaxSecretEnvLen bounds an environment variable name, in bytes.
	MaxSecretEnvLen = 128
	// MaxSecretValueBytes bounds a resolved secret value, in bytes (the
	// runtime refuses a longer one before the run).
	MaxSecretValueBytes = 4096
)

// EnvPattern is the form of [Secret.Env]: POSIX portable upper-case names.
const EnvPattern = `^[A-Z_][A-Z0-9_]*$`

// Secret validation codes.
const (
	// CodeDuplicateSecret: two secrets share a name or an env variable.
	CodeDuplicateSecret Code = "duplicate_secret"
	// CodeInvalidSecretEnv: a secret's env is not of [EnvPattern] within
	// [MaxSecretEnvLen] bytes.
	CodeInvalidSecretEnv Code = "invalid_secret_env"
	// CodeSecretEnvReserved: a secret's env is a variable that configures
	// the process, never a secret ([ReservedEnv]).
	CodeSecretEnvReserved Code = "secret_env_reserved"
	// CodeSecretEnvNotAllowed: a secret's env is outside the allowed list
	// the host passed ([Capability.CheckSecretEnv]; the runtime's
	// WithAllowedEnv).
	CodeSecretEnvNotAllowed Code = "secret_env_not_allowed"
	// CodeUndeclaredSecret: a secret_ref or a seeded value's secret names
	// no declared secret.
	CodeUndeclaredSecret Code = "undeclared_secret"
	// CodeUnusedSecret: a declared secret no input or seeded value refers
	// to.
	CodeUnusedSecret Code = "unused_secret"
	// CodeInvalidSecretRef: secret_ref on an input that is not a secret
	// string input, or on one that is required or has a default (its value
	// comes from the environment, never from the host).
	CodeInvalidSecretRef Code = "invalid_secret_ref"
)

// secretCodes are the codes of this file that [Capability.Validate]
// reports, for [Codes]. [CodeSecretEnvNotAllowed] is not one of them: it
// depends on the host's list, which no document carries
// ([Capability.CheckSecretEnv] reports it).
var secretCodes = []Code{CodeDuplicateSecret, CodeInvalidSecretEnv, CodeSecretEnvReserved,
	CodeUndeclaredSecret, CodeUnusedSecret, CodeInvalidSecretRef}

// SecretReference is the text durable results carry in place of the
// resolved value of the named secret: "[secret:NAME]".
func SecretReference(name string) string { return "[secret:" + name + "]" }

// reservedEnv are variables that configure a process; prefixes end in '_'.
var reservedEnv = []string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "PWD", "OLDPWD", "TMPDIR", "TMP", "TEMP",
	"LANG", "TERM", "DISPLAY", "TZ", "IFS", "PS1", "MAIL", "HOSTNAME", "SSH_AUTH_SOCK",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY",
	"GOPATH", "GOROOT", "GOFLAGS", "GODEBUG", "GOMAXPROCS", "GOTOOLCHAIN", "GOCACHE", "GOENV", "CGO_ENABLED",
	"LC_", "LD_", "DYLD_", "XDG_", "VERA_",
}

// ReservedEnv reports whether name is an environment variable that
// configures the process rather than holding a secret: PATH, HOME, TMPDIR,
// the proxy and Go variables, and every LC_*, LD_*, DYLD_*, XDG_* and
// VERA_* name (Vera's own configuration, the browser ceiling included). A
// secret never names one: reading it would disclose the host's setup and
// a capability could aim a form at it.
func ReservedEnv(name string) bool {
	for _, r := range reservedEnv {
		if strings.HasSuffix(r, "_") && strings.HasPrefix(name, r) || name == r {
			return true
		}
	}
	return false
}

// validEnvName reports whether s matches [EnvPattern] within
// [MaxSecretEnvLen] bytes.
func validEnvName(s string) bool {
	if s == "" || len(s) > MaxSecretEnvLen || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// ValidEnvName reports whether s is a well-formed, unreserved secret env
// name: the rule [Capability.Validate] applies to secrets[].env and the
// runtime to its allowed list.
func ValidEnvName(s string) bool { return validEnvName(s) && !ReservedEnv(s) }

// Secret returns the declared secret with the given name.
func (c *Capability) Secret(name string) (*Secret, bool) {
	for i := range c.Secrets {
		if c.Secrets[i].Name == name {
			return &c.Secrets[i], true
		}
	}
	return nil, false
}

// SecretRefs returns the names of the declared secrets the capability
// refers to (inputs' secret_ref and seeded values), each once, in
// declaration order.
func (c *Capability) SecretRefs() []string {
	used := map[string]bool{}
	for _, in := range c.Inputs {
		if in.SecretRef != "" {
			used[in.SecretRef] = true
		}
	}
	c.Seed.eachValue(func(_ string, sv *SeedValue) {
		if sv.SecretRef != "" {
			used[sv.SecretRef] = true
		}
	})
	var out []string
	for _, s := range c.Secrets {
		if used[s.Name] && !slices.Contains(out, s.Name) {
			out = append(out, s.Name)
		}
	}
	return out
}

// CheckSecretEnv checks every declared secret's env against the host's
// allowed list (the runtime's WithAllowedEnv, later the grant's
// environment names): one [CodeSecretEnvNotAllowed] problem per secret
// whose env is not listed. A capability without secrets passes any list.
func (c *Capability) CheckSecretEnv(allowed []string) ErrorList {
	if c == nil {
		return nil
	}
	var l errList
	for i, s := range c.Secrets {
		if s.Env != "" && !slices.Contains(allowed, s.Env) {
			l.add(at("secrets").i(i).f("env"), CodeSecretEnvNotAllowed,
				fmt.Sprintf("environment variable %s is not in the allowed list; allow it (runtime.WithAllowedEnv) or grant it", s.Env), s.Env)
		}
	}
	return l.sorted()
}

// secrets checks the declarations, every reference and that every
// declared secret is used.
func (v *validation) secrets() {
	c := v.c
	names, envs := map[string]int{}, map[string]int{}
	for i := range c.Secrets {
		s := &c.Secrets[i]
		p := at("secrets").i(i)
		if s.Name != "" {
			if _, dup := names[s.Name]; dup {
				v.add(p.f("name"), CodeDuplicateSecret, "secret name declared twice", s.Name)
			} else {
				names[s.Name] = i
			}
		}
		switch {
		case s.Env == "":
			// reported by the field rules (required)
		case !validEnvName(s.Env):
			v.add(p.f("env"), CodeInvalidSecretEnv, fmt.Sprintf("an env name matches %s within %d bytes", EnvPattern, MaxSecretEnvLen), s.Env)
		case ReservedEnv(s.Env):
			v.add(p.f("env"), CodeSecretEnvReserved, "the variable configures the process (PATH, HOME, LD_*, VERA_*, ...) and never holds a capability's secret", s.Env)
		default:
			if _, dup := envs[s.Env]; dup {
				v.add(p.f("env"), CodeDuplicateSecret, "two secrets read the same environment variable", s.Env)
			} else {
				envs[s.Env] = i
			}
		}
	}
	used := map[string]bool{}
	ref := func(path pth, name string) {
		if _, ok := names[name]; !ok {
			v.add(path, CodeUndeclaredSecret, fmt.Sprintf("%q is not a declared secret", name), name)
			return
		}
		used[name] = true
	}
	for i := range c.Inputs {
		in := &c.Inputs[i]
		if in.SecretRef == "" {
			continue
		}
		p := at("inputs").i(i).f("secret_ref")
		switch {
		case !in.Secret || in.Type != InputString:
			v.add(p, CodeInvalidSecretRef, "only a secret string input (secret: true, type string) takes its value from a secret", "")
		case in.Required || len(in.Default) > 0:
			v.add(p, CodeInvalidSecretRef, "an input whose value comes from a secret is neither required nor defaulted: the host never supplies it", "")
		}
		ref(p, in.SecretRef)
	}
	v.seedRefs(ref)
	for i := range c.Secrets {
		s := &c.Secrets[i]
		if first, ok := names[s.Name]; ok && first == i && !used[s.Name] {
			v.add(at("secrets").i(i).f("name"), CodeUnusedSecret, "the secret is never referred to (no input secret_ref and no seeded value names it)", s.Name)
		}
	}
}

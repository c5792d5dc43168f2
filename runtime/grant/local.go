package grant

import (
	"fmt"
	"path/filepath"

	"github.com/vera-run/vera/capability"
)

// LaunchTarget is the target of launching executable.
func LaunchTarget(executable string) Target { return Target{Mode: ModeLaunch, Executable: executable} }

// ConnectTarget is the target of connecting to the CDP endpoint.
func ConnectTarget(endpoint string) Target { return Target{Mode: ModeConnect, Endpoint: endpoint} }

// Local is the explicit grant a program gives its own run of capab on
// this machine, with no administrator ceiling: a ceiling of exactly the
// target (the executable's directory as the only root, or the endpoint,
// which must be a loopback one, as the only listed endpoint), the
// capability's origins and env, capped at the loopback network class. It
// is for examples, development and tests against servers on this host: a
// capability that reaches a private or public origin is refused
// ([*ExceedError] on network_class) and needs a real ceiling
// ([FromEnv] or one set in code).
func Local(capab *capability.Capability, t Target, env ...string) (*Grant, error) {
	c := &Ceiling{Enabled: true, AllowedEnv: env, MaxNetwork: Loopback}
	if capab != nil {
		c.AllowedOrigins = capab.Site.AllowedOrigins
	}
	switch t.Mode {
	case ModeLaunch:
		if !filepath.IsAbs(t.Executable) {
			return nil, &ExceedError{Field: FieldExecutable, Value: t.Executable, Reason: "launch needs an absolute executable path"}
		}
		resolved, err := filepath.EvalSymlinks(t.Executable)
		if err != nil {
			return nil, &ExceedError{Field: FieldExecutable, Value: t.Executable, Reason: "it cannot be resolved: " + errText(err)}
		}
		c.ExecutableRoots = []string{filepath.Dir(resolved)}
	case ModeConnect:
		k, r := endpointKey(t.Endpoint, false)
		if r != "" {
			return nil, &ExceedError{Field: FieldEndpoint, Value: redactEndpoint(t.Endpoint), Reason: r}
		}
		if !k.Loopback() {
			return nil, &ExceedError{Field: FieldEndpoint, Value: redactEndpoint(t.Endpoint), Reason: "a local grant connects only to a loopback endpoint"}
		}
		c.CDPEndpoints = []string{k.String()}
		if k.Port == 80 { // origin.String drops the default port; an endpoint keeps it
			c.CDPEndpoints = []string{fmt.Sprintf("http://%s:80", k.String()[len("http://"):])}
		}
	}
	return c.forCapability(capab, t, env, false)
}

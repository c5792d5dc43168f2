package runtime

import (
	"fmt"
	"net/url"
	"regexp"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/origin"
)

// plan is what the executor derives once from a validated capability.
type plan struct {
	allowed  []string // normalized allowed origins
	subres   []string
	outcomes []*regexp.Regexp // compiled url patterns, nil when unset
}

// codePlan reports a capability the executor cannot derive a plan from.
// capability.ValidateForExecution, which Execute always runs first,
// rejects every such capability, so this code means the two disagree: a
// bug, reported instead of run.
const codePlan capability.Code = "runtime_plan"

// newPlan derives the executor's plan: the normalized origins and the
// compiled outcome patterns. Every rule about what may run lives in
// package capability (one rule, one place); Execute has validated c
// before it gets here, and newPlan only refuses what it cannot derive.
func newPlan(c *capability.Capability) (*plan, capability.ErrorList) {
	p := &plan{}
	var errs capability.ErrorList
	bad := func(path, format string, a ...any) {
		errs = append(errs, &capability.Error{Path: path, Code: codePlan, Message: fmt.Sprintf(format, a...)})
	}
	for i, o := range c.Site.AllowedOrigins {
		n, ok := normalizeOrigin(o)
		if !ok || !safeScheme(n) {
			bad(fmt.Sprintf("site.allowed_origins[%d]", i), "not an https origin (or an http loopback origin with a port)")
			continue
		}
		p.allowed = append(p.allowed, n)
	}
	if len(p.allowed) == 0 {
		bad("site.allowed_origins", "no allowed origin")
	}
	for i, o := range c.Site.SubresourceOrigins {
		n, ok := normalizeOrigin(o)
		if !ok || !safeScheme(n) {
			bad(fmt.Sprintf("site.subresource_origins[%d]", i), "not an https origin (or an http loopback origin with a port)")
			continue
		}
		p.subres = append(p.subres, n)
	}
	for i := range c.BusinessOutcomes {
		var re *regexp.Regexp
		if pat := c.BusinessOutcomes[i].Detect.URLPattern; pat != "" {
			var err error
			if re, err = regexp.Compile(pat); err != nil {
				bad(fmt.Sprintf("business_outcomes[%d].detect.url_pattern", i), "not a Go regular expression")
			}
		}
		p.outcomes = append(p.outcomes, re)
	}
	return p, errs
}

// normalizeOrigin returns scheme://host[:port] in lower case with default
// ports removed, or false when s is not exactly an origin
// (internal/origin's rules).
func normalizeOrigin(s string) (string, bool) {
	o, err := origin.Normalize(s)
	return o, err == nil
}

// originOf returns the normalized origin of an absolute URL, "" when it
// has none.
func originOf(u *url.URL) string {
	if o, ok := origin.OfURL(u); ok {
		return o.String()
	}
	return ""
}

// safeScheme reports whether a normalized origin keeps the HTTPS rule:
// https, or http on a loopback host with an explicit port.
func safeScheme(o string) bool {
	p, err := origin.Parse(o)
	return err == nil && p.Secure()
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

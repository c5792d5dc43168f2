package capability

import (
	"fmt"
	"github.com/vera-run/vera/internal/textrule"
	"github.com/vera-run/vera/internal/timestamp"
	"strings"

	"github.com/vera-run/vera/internal/redact"
	"github.com/vera-run/vera/locator"
)

// validation holds the state of one Validate call.
type validation struct {
	errList
	c *Capability

	inputs     map[string]int // name -> first index
	outputs    map[string]int // name -> first index
	milestones map[string]int // id -> first index
	allowed    map[string]bool

	inputUse []inputUse   // every reference to an input, in document order
	produced map[int]bool // output index -> produced by some action

	frame []string // the frame path of the milestone being checked
}

// inputUseKind says how an input is referenced; secret inputs may only be
// the input of a fill.
type inputUseKind int

const (
	useFill     inputUseKind = iota // action.input of a fill
	useInput                        // action.input of another operation
	useTemplate                     // a {{name}} template
	useLimit                        // extract.limit_input
	useExpect                       // an expectation's equals_input
)

type inputUse struct {
	path pth
	name string
	kind inputUseKind
}

func newValidation(c *Capability) *validation {
	v := &validation{
		c:          c,
		inputs:     make(map[string]int, len(c.Inputs)),
		outputs:    make(map[string]int, len(c.Outputs)),
		milestones: make(map[string]int, len(c.Milestones)),
		allowed:    make(map[string]bool, len(c.Site.AllowedOrigins)),
		produced:   map[int]bool{},
	}
	for i, in := range c.Inputs {
		if _, dup := v.inputs[in.Name]; !dup && in.Name != "" {
			v.inputs[in.Name] = i
		}
	}
	for i, o := range c.Outputs {
		if _, dup := v.outputs[o.Name]; !dup && o.Name != "" {
			v.outputs[o.Name] = i
		}
	}
	for i, m := range c.Milestones {
		if _, dup := v.milestones[m.ID]; !dup && m.ID != "" {
			v.milestones[m.ID] = i
		}
	}
	for _, o := range c.Site.AllowedOrigins {
		v.allowed[o] = true
	}
	return v
}

// identity checks the state rules: provenance, review and validation
// metadata by state.
func (v *validation) identity() {
	c := v.c
	rank := c.State.Rank()
	if rank < 0 {
		return // reported by the field rules
	}
	v.provenance(rank) // provenance.go
	switch {
	case c.State == StateValidatedLocal && c.Validation == nil:
		v.add(at("validation"), CodeValidationRequired,
			"a validated_local capability carries the validation metadata of its two clean runs", "")
	case c.State != StateValidatedLocal && c.Validation != nil:
		v.add(at("validation"), CodeValidationNotAllowed,
			"validation metadata is written only on promotion to validated_local", "")
	}
	if val := c.Validation; val != nil {
		// finalized_at is what receipt.Finalize writes: UTC, to the
		// second. Another zone or a fraction names the same instant in a
		// second spelling, which a claim must not have.
		if timestamp.Valid(val.FinalizedAt) && !timestamp.UTCSecond(val.FinalizedAt) {
			v.add(at("validation.finalized_at"), CodeInvalidTimestamp,
				"finalized_at is UTC to the second, as 2026-03-02T09:00:00Z", val.FinalizedAt)
		}
		if len(val.Receipts) != 2 {
			v.add(at("validation.receipts"), CodeInvalidReceipts,
				fmt.Sprintf("exactly two clean run receipts are required, found %d", len(val.Receipts)), "")
		} else if validDigest(val.Receipts[0]) && validDigest(val.Receipts[1]) {
			switch {
			case val.Receipts[0] == val.Receipts[1]:
				v.add(at("validation.receipts[1]"), CodeInvalidReceipts, "the two receipts must be distinct runs", "")
			case val.Receipts[0] > val.Receipts[1]:
				v.add(at("validation.receipts"), CodeReceiptsNotSorted,
					"the two receipts are sorted ascending, as receipt.Finalize writes them and bundle verification requires", "")
			}
		}
	}
}

// site checks the origin lists beyond their form.
func (v *validation) site() {
	v.originList(at("site.allowed_origins"), v.c.Site.AllowedOrigins)
	v.originList(at("site.subresource_origins"), v.c.Site.SubresourceOrigins)
}

func (v *validation) originList(path pth, origins []string) {
	seen := make(map[string]bool, len(origins))
	for i, o := range origins {
		p := path.i(i)
		if originForm(o) != "" {
			continue // reported by the field rules
		}
		if msg := originSecurity(o); msg != "" {
			v.add(p, CodeInsecureOrigin, msg, o)
		}
		if seen[o] {
			v.add(p, CodeDuplicateOrigin, "origin listed twice", o)
		}
		seen[o] = true
	}
}

// runtime checks the start target.
func (v *validation) runtime() {
	v.navTarget(at("runtime.start"), v.c.Runtime.Start)
	v.query(at("runtime.start_query"), v.c.Runtime.StartQuery)
}

// navTarget checks a navigation target: a query-free path ("/x") or an
// absolute URL on an allowed origin, no user information, templates only in
// the fragment.
func (v *validation) navTarget(path pth, s string) {
	if s == "" {
		return // required where it is required
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c == 0x7f || c == '\\' {
			v.add(path, CodeInvalidURL, "a navigation target contains no spaces, control characters or backslashes", s)
			return
		}
	}
	base, frag, hasFrag := strings.Cut(s, "#")
	var pathPart string
	switch {
	case strings.HasPrefix(base, "//"):
		v.add(path, CodeInvalidURL, "a protocol-relative URL is not a navigation target; write a path or an absolute URL", s)
		return
	case strings.HasPrefix(base, "/"):
		pathPart = base
	default:
		i := strings.Index(base, "://")
		if i < 0 {
			v.add(path, CodeInvalidURL, "a navigation target is a path starting with / or an absolute URL on an allowed origin", s)
			return
		}
		rest := base[i+3:]
		authEnd := strings.IndexAny(rest, "/?")
		if authEnd < 0 {
			authEnd = len(rest)
		}
		if strings.Contains(rest[:authEnd], "@") {
			v.add(path, CodeInvalidURL, "a navigation target carries no user information", "")
			return
		}
		origin := base[:i+3+authEnd]
		if strings.Contains(origin, "{{") {
			v.add(path, CodeTemplateInPath, "the origin of a navigation target is fixed; only the fragment may carry templates", s)
			v.templates(path, origin, useTemplate)
		} else if msg := originForm(origin); msg != "" {
			v.add(path, CodeInvalidURL, "the URL's origin is malformed: "+msg, s)
			return
		} else if !v.allowed[origin] {
			v.add(path, CodeOriginNotAllowed, "the URL's origin is not in site.allowed_origins", origin)
		}
		pathPart = rest[authEnd:]
	}
	if strings.Contains(pathPart, "?") {
		v.add(path, CodeURLQuery, "navigation targets are query-free (queries carry session and private values)", "")
	}
	if strings.Contains(pathPart, "{{") {
		v.add(path, CodeTemplateInPath, "paths are fixed; only the fragment of a navigation target may carry templates", s)
		v.templates(path, pathPart, useTemplate)
	}
	if hasFrag {
		v.templates(path, frag, useTemplate)
	}
}

// privacy checks the data classes.
func (v *validation) privacy() {
	seen := map[string]bool{}
	for i, d := range v.c.Privacy.DataClasses {
		if seen[d] {
			v.add(at("privacy.data_classes").i(i), CodeDuplicateDataClass, "data class listed twice", d)
		}
		seen[d] = true
	}
}

// outcomes checks the business outcomes.
func (v *validation) outcomes() {
	seen := map[string]bool{}
	for i := range v.c.BusinessOutcomes {
		b := &v.c.BusinessOutcomes[i]
		p := at("business_outcomes").i(i)
		if b.Code != "" {
			if seen[b.Code] {
				v.add(p.f("code"), CodeDuplicateOutcome, "business outcome code used twice", b.Code)
			}
			seen[b.Code] = true
			if reservedName(b.Code) {
				v.add(p.f("code"), CodeReservedID, "the code is a reserved terminal name", b.Code)
			}
		}
		d := &b.Detect
		dp := p.f("detect")
		if textrule.Blank(d.VisibleText) && d.URLPattern == "" && len(d.LocatorCandidates) == 0 {
			v.add(dp, CodeOutcomeWithoutDetect, "a business outcome needs at least one detect rule (visible_text, url_pattern or locator_candidates)", "")
		}
		if d.VisibleText != "" {
			v.templates(dp.f("visible_text"), d.VisibleText, useTemplate)
		}
		if d.URLPattern != "" {
			if _, err := compileURLPattern(d.URLPattern); err != nil {
				v.add(dp.f("url_pattern"), CodeInvalidURLPattern, "not a Go regular expression: "+err.Error(), d.URLPattern)
			}
		}
		if len(d.LocatorCandidates) > 0 {
			v.locators(dp.f("locator_candidates"), d.LocatorCandidates, locator.StateMarker)
		}
	}
}

// reservedNames are terminal names no milestone or outcome may take.
var reservedNames = [...]string{TerminalCompleted, "native_gap", "failed"}

func reservedName(s string) bool {
	for _, r := range reservedNames {
		if s == r {
			return true
		}
	}
	return false
}

// locators checks a non-empty candidate list with package locator and scans
// its values for templates.
func (v *validation) locators(path pth, cs []locator.Candidate, ctx locator.ListContext) {
	for _, p := range locator.CheckList(cs, ctx, redact.Marker) {
		pp := path
		if p.Index >= 0 {
			pp = path.i(p.Index)
			field := p.Field
			inScope := strings.HasPrefix(field, "scope") && cs[p.Index].Scope != nil
			if p.Code == locator.CodeRedactedMarker {
				field = primaryField(cs[p.Index].Strategy)
				if inScope {
					field = "scope." + primaryField(cs[p.Index].Scope.Strategy)
				}
			}
			if field != "" {
				for _, seg := range strings.Split(field, ".") {
					pp = pp.f(seg)
				}
			}
		}
		bad := ""
		if p.Index >= 0 && p.Code != locator.CodeRedactedMarker {
			bad = cs[p.Index].Value()
			if sc := cs[p.Index].Scope; sc != nil && strings.HasPrefix(p.Field, "scope") {
				bad = sc.Value()
			}
		}
		v.add(pp, Code(p.Code), p.Detail, bad)
	}
	for i := range cs {
		if val := cs[i].Value(); val != "" {
			v.templates(path.i(i).f(primaryField(cs[i].Strategy)), val, useTemplate)
		}
		if sc := cs[i].Scope; sc != nil && sc.Value() != "" {
			v.templates(path.i(i).f("scope").f(primaryField(sc.Strategy)), sc.Value(), useTemplate)
		}
	}
}

// primaryField is the JSON member holding a strategy's value.
func primaryField(s locator.Strategy) string {
	switch s {
	case locator.Role:
		return "name"
	case locator.Label:
		return "label"
	case locator.Placeholder:
		return "placeholder"
	case locator.TestID:
		return "test_id"
	case locator.Text:
		return "text"
	case locator.CSS:
		return "css"
	}
	return ""
}

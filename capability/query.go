package capability

import (
	"fmt"
	"github.com/vera-run/vera/internal/textrule"
	"strings"

	"github.com/vera-run/vera/internal/redact"
)

// Query limits.
const (
	// MaxQueryEntries bounds the query entries of one navigation target.
	MaxQueryEntries = 32
	// MaxQueryNameLen bounds a query entry's name, in bytes.
	MaxQueryNameLen = 200
	// MaxQueryValueLen bounds a query entry's value, in bytes, before
	// substitution.
	MaxQueryValueLen = 2048
)

// QueryEntry is one name=value pair of a navigation target's query
// (runtime.start_query, a navigate action's query). A capability never
// writes a raw query string: the base URL stays query-free and the
// runtime builds the query from the entries, in order, percent-encoding
// every name and value as an RFC 3986 component (every byte but the
// unreserved A-Z a-z 0-9 - . _ ~ as %XX, a space as %20, never '+').
type QueryEntry struct {
	// Name is the fixed parameter name: non-blank, no templates, no
	// control characters, not a credential-carrying name (token, sid,
	// session_id, ...), unique within its target.
	Name string `json:"name" validate:"nonblank,max=200"`
	// Value is a public literal that may hold {{input}} templates of
	// declared non-secret inputs; a substituted value is inert (its '&',
	// '=' and '#' are encoded and never start another entry). It may be
	// empty ("name=").
	Value string `json:"value" validate:"max=2048"`
}

// CodeInvalidQueryEntry: a query entry's name is templated or holds
// control characters (a blank name is [CodeRequired]).
const CodeInvalidQueryEntry Code = "invalid_query_entry"

// CodeDuplicateQueryName: two entries of one target's query share a name.
const CodeDuplicateQueryName Code = "duplicate_query_name"

// CodeCredentialQueryName: a query entry's name is a credential-carrying
// parameter name (token, session_id, sig, ...): a capability never holds
// credentials, not even as a template.
const CodeCredentialQueryName Code = "credential_query_name"

// CodeFrameScope: a URL condition scoped to "frame" in a milestone that
// acts in the top-level document (no runtime.frame_selectors and no
// milestone frame_selectors), or a scope on a condition kind that reads no
// URL.
const CodeFrameScope Code = "url_frame_scope"

// queryCodes are the codes of this file, for [Codes].
var queryCodes = []Code{CodeInvalidQueryEntry, CodeDuplicateQueryName, CodeCredentialQueryName, CodeFrameScope}

// ConditionScope says which document's URL a URL condition reads.
type ConditionScope string

// The condition scopes.
const (
	// ScopePage (the default, written as an omitted scope) reads the
	// top-level page's URL.
	ScopePage ConditionScope = "page"
	// ScopeFrame reads the URL of the frame the condition's milestone
	// acts in (the innermost frame of [Capability.FramePath]:
	// runtime.frame_selectors or the milestone's frame_selectors), the
	// frame its locators act in.
	ScopeFrame ConditionScope = "frame"
)

func (s ConditionScope) valid() bool { return s == "" || s == ScopePage || s == ScopeFrame }

// query checks one target's query entries.
func (v *validation) query(path pth, q []QueryEntry) {
	seen := map[string]int{}
	for i := range q {
		e := &q[i]
		p := path.i(i)
		switch {
		case textrule.Blank(e.Name):
			continue // reported by the field rules (nonblank)
		case strings.Contains(e.Name, "{{"):
			v.add(p.f("name"), CodeInvalidQueryEntry, "a query entry's name is fixed; only its value may carry templates", e.Name)
			continue
		case strings.ContainsFunc(e.Name, func(r rune) bool { return r < ' ' || r == 0x7f }):
			v.add(p.f("name"), CodeInvalidQueryEntry, "a query entry's name holds no control characters", "")
			continue
		case redact.CredentialQueryName(e.Name):
			v.add(p.f("name"), CodeCredentialQueryName, fmt.Sprintf("%q is a credential-carrying parameter name; a capability never holds credentials", e.Name), e.Name)
		}
		if first, dup := seen[e.Name]; dup {
			v.add(p.f("name"), CodeDuplicateQueryName, fmt.Sprintf("query name already used by entry %d (duplicates are refused: servers disagree on which one counts)", first), e.Name)
		} else {
			seen[e.Name] = i
		}
		if e.Value != "" {
			v.templates(p.f("value"), e.Value, useTemplate)
		}
	}
}

// conditionScope checks a condition's scope member.
func (v *validation) conditionScope(p pth, c *Condition) {
	if c.Scope == "" {
		return
	}
	if !c.Scope.valid() {
		return // reported by the field rules (oneof)
	}
	if c.Kind != CondURLIncludes && c.Kind != CondURLPath {
		v.add(p.f("scope"), CodeFrameScope, fmt.Sprintf("a %s condition has no scope (only url_includes and url_path read a URL)", c.Kind), "")
		return
	}
	if c.Scope == ScopeFrame && len(v.frame) == 0 {
		v.add(p.f("scope"), CodeFrameScope, `scope "frame" reads the URL of the milestone's frame (runtime.frame_selectors or the milestone's frame_selectors); this milestone acts in the top-level document`, "")
	}
}

package discovery

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vera-run/vera/capability"
)

// DraftVersion is the version a draft starts at.
const DraftVersion = "0.1.0"

// DraftOption configures [DraftFromRecord].
type DraftOption func(*draftConfig)

type draftConfig struct {
	id      string
	version string
}

// WithCapabilityID sets the draft's capability id (default: "draft." and
// the process name in lowercase words joined by hyphens).
func WithCapabilityID(id string) DraftOption { return func(c *draftConfig) { c.id = id } }

// WithVersion sets the draft's version (default [DraftVersion]).
func WithVersion(v string) DraftOption { return func(c *draftConfig) { c.version = v } }

// DraftFromRecord makes the non-executable draft capability a record
// informs. The draft holds:
//
//   - identity: the id and version (options), the process name and goal;
//   - state "draft" and provenance naming the record's hash
//     ([Record.Hash]) in discovery_hash, with the record's mode, model and
//     run id, and no review (authoring approval comes only with
//     [Promote]);
//   - the record's boundaries copied verbatim: site (name, allowed and
//     subresource origins), runtime (start, frame selectors), authority
//     (max effect, operator authenticates), privacy (data classes, retain
//     downloads);
//   - one milestone per record milestone, with its id and intent and no
//     actions or transitions: actions are authored later, from the
//     observed controls.
//
// capability.Validate reports exactly one empty_milestone problem per
// milestone for such a draft and nothing else; [ValidateDraft] accepts
// exactly that. The record need not be reviewed: a draft is by definition
// informed by a record not yet approved.
func DraftFromRecord(r *Record, opts ...DraftOption) (*capability.Capability, error) {
	if r == nil {
		return nil, fmt.Errorf("%w: nil record", ErrInvalid)
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	cfg := draftConfig{version: DraftVersion}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.id == "" {
		cfg.id = defaultCapabilityID(r.Process.Name)
	}
	h, err := r.Hash()
	if err != nil {
		return nil, err
	}
	c := &capability.Capability{
		Schema:  capability.SchemaV1,
		ID:      cfg.id,
		Version: cfg.version,
		Name:    r.Process.Name,
		Goal:    r.Process.Goal,
		State:   capability.StateDraft,
		Provenance: &capability.Provenance{
			DiscoveryHash:  h,
			DiscoveryModel: r.Discovery.Model,
			DiscoveryRunID: r.Discovery.RunID,
			DiscoveryMode:  string(r.Discovery.Mode),
		},
		Site: capability.Site{
			Name:               r.Site.Name,
			AllowedOrigins:     slices.Clone(r.Site.AllowedOrigins),
			SubresourceOrigins: slices.Clone(r.Site.SubresourceOrigins),
		},
		Runtime: capability.Runtime{
			Start:          r.Runtime.Start,
			FrameSelectors: slices.Clone(r.Runtime.FrameSelectors),
		},
		Authority: capability.Authority{
			MaxEffect:             r.Authority.MaxEffect,
			OperatorAuthenticates: r.Authority.OperatorAuthenticates,
		},
		Privacy: capability.Privacy{
			DataClasses:     slices.Clone(r.Privacy.DataClasses),
			RetainDownloads: r.Privacy.RetainDownloads,
		},
		Inputs:  []capability.Input{},
		Outputs: []capability.Output{},
	}
	if c.Privacy.DataClasses == nil {
		c.Privacy.DataClasses = []string{}
	}
	for _, m := range r.Milestones {
		c.Milestones = append(c.Milestones, capability.Milestone{ID: m.ID, Intent: m.Intent, Actions: []capability.Action{}})
	}
	if err := ValidateDraft(c); err != nil {
		return nil, err
	}
	return c, nil
}

// ValidateDraft checks a draft capability: state draft, provenance with a
// discovery hash and no review (a draft never carries authoring approval),
// and capability.Validate reporting nothing but empty_milestone problems
// (milestones whose actions are not authored yet). It returns nil or a
// capability.ErrorList (which matches capability.ErrInvalid) holding the
// other problems.
func ValidateDraft(c *capability.Capability) error {
	if c == nil {
		return capability.ErrorList{{Code: capability.CodeRequired, Message: "nil capability"}}
	}
	var out capability.ErrorList
	if c.State != capability.StateDraft {
		out = append(out, &capability.Error{Path: "state", Code: capability.CodeUnknownState, Message: "a draft has state draft"})
	}
	if c.Provenance != nil && c.Provenance.Review != nil {
		out = append(out, &capability.Error{Path: "provenance.review", Code: capability.CodeReviewRequired,
			Message: "a draft carries no review: authoring approval comes with promotion"})
	}
	for _, e := range c.Validate() {
		if e.Code != capability.CodeEmptyMilestone {
			out = append(out, e)
		}
	}
	return out.Err()
}

// defaultCapabilityID derives "draft.<words>" from a process name.
func defaultCapabilityID(name string) string {
	var parts []string
	size := len("draft")
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < '0' || r > '9')
	}) {
		if size+1+len(w) > capability.MaxIDLen {
			break
		}
		parts = append(parts, w)
		size += 1 + len(w)
	}
	if len(parts) == 0 {
		return "draft.process"
	}
	return "draft." + strings.Join(parts, "-")
}

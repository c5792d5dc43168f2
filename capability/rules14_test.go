package capability

import (
	"slices"
	"testing"
)

// TestIssue14Rules: rules FORMAT.md states that Validate let through.
func TestIssue14Rules(t *testing.T) {
	tests := []struct {
		name string
		base string
		edit func(t *testing.T, c *Capability)
		want Code // "" for valid
	}{
		{"press Enter", "mail", func(t *testing.T, c *Capability) { act(t, c, "submit-query").Key = "Enter" }, ""},
		{"press Control+a", "mail", func(t *testing.T, c *Capability) { act(t, c, "submit-query").Key = "Control+a" }, ""},
		{"press Shift+Tab", "mail", func(t *testing.T, c *Capability) { act(t, c, "submit-query").Key = "Shift+Tab" }, ""},
		{"press F12", "mail", func(t *testing.T, c *Capability) { act(t, c, "submit-query").Key = "F12" }, ""},
		{"press plus", "mail", func(t *testing.T, c *Capability) { act(t, c, "submit-query").Key = "+" }, ""},
		{"press Control++", "mail", func(t *testing.T, c *Capability) { act(t, c, "submit-query").Key = "Control++" }, ""},
		{"press unknown name", "mail", func(t *testing.T, c *Capability) { act(t, c, "submit-query").Key = "Return" }, CodeInvalidKey},
		{"press lower-case name", "mail", func(t *testing.T, c *Capability) { act(t, c, "submit-query").Key = "enter" }, CodeInvalidKey},
		{"press template", "mail", func(t *testing.T, c *Capability) { act(t, c, "submit-query").Key = "{{key}}" }, CodeInvalidKey},
		{"press F13", "mail", func(t *testing.T, c *Capability) { act(t, c, "submit-query").Key = "F13" }, CodeInvalidKey},
		{"press unknown modifier", "mail", func(t *testing.T, c *Capability) { act(t, c, "submit-query").Key = "Hyper+a" }, CodeInvalidKey},
		{"press two characters", "mail", func(t *testing.T, c *Capability) { act(t, c, "submit-query").Key = "ab" }, CodeInvalidKey},
		{"press zero-width", "mail", func(t *testing.T, c *Capability) { act(t, c, "submit-query").Key = "\u200b" }, CodeInvalidKey},
		{"frame selector template", "teller", func(t *testing.T, c *Capability) {
			c.Runtime.FrameSelectors = []string{"iframe[name='{{member_query}}']"}
		}, CodeTemplateNotSubstituted},
		{"frame selector plain", "teller", func(t *testing.T, c *Capability) { c.Runtime.FrameSelectors = []string{"iframe#app"} }, ""},
		{"url_pattern template", "teller", func(t *testing.T, c *Capability) {
			c.BusinessOutcomes[1].Detect.URLPattern = `^/m/{{ x }}$`
		}, CodeTemplateNotSubstituted},
		{"url_pattern repetition braces", "teller", func(t *testing.T, c *Capability) {
			c.BusinessOutcomes[1].Detect.URLPattern = `^/m/\d{2}$`
		}, ""},
		{"attribute template", "teller", func(t *testing.T, c *Capability) {
			f := &act(t, c, "extract-balances").Extract.Fields[0]
			f.Read, f.Attribute = ReadAttribute, "data-{{member_query}}"
		}, CodeTemplateNotSubstituted},
		{"finalized_at UTC to the second", "invoice", func(t *testing.T, c *Capability) { c.Validation.FinalizedAt = "2026-03-31T09:05:12Z" }, ""},
		{"finalized_at with a zone", "invoice", func(t *testing.T, c *Capability) { c.Validation.FinalizedAt = "2026-03-31T11:05:12+02:00" }, CodeInvalidTimestamp},
		{"finalized_at with a fraction", "invoice", func(t *testing.T, c *Capability) { c.Validation.FinalizedAt = "2026-03-31T09:05:12.5Z" }, CodeInvalidTimestamp},
		{"finalized_at lower-case z", "invoice", func(t *testing.T, c *Capability) { c.Validation.FinalizedAt = "2026-03-31t09:05:12z" }, CodeInvalidTimestamp},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := loadValid(t, tt.base)
			tt.edit(t, c)
			codes := codeSet(c.Validate())
			switch {
			case tt.want == "" && len(codes) > 0:
				t.Fatalf("want valid, got %v", c.Validate())
			case tt.want != "" && !slices.Contains(codes, tt.want):
				t.Fatalf("want %s, got %v", tt.want, c.Validate())
			}
		})
	}
}

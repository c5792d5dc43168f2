package capability

import (
	"strings"
	"testing"
)

// TestByteBounds: the bounds FORMAT.md 3.2 states in bytes count UTF-8
// bytes, not runes; a value over its bound in runes is reported once (by
// the member rule), never twice.
func TestByteBounds(t *testing.T) {
	e := "é" // two bytes, one rune
	tests := []struct {
		name string
		edit func(t *testing.T, c *Capability)
		want Code // "" for valid
		path string
	}{
		{"start within 2048 bytes", func(t *testing.T, c *Capability) { c.Runtime.Start = "/" + strings.Repeat(e, 1000) }, "", ""},
		{"start over 2048 bytes, under 2048 runes", func(t *testing.T, c *Capability) { c.Runtime.Start = "/" + strings.Repeat(e, 1100) }, CodeTooLong, "runtime.start"},
		{"start over 2048 runes", func(t *testing.T, c *Capability) { c.Runtime.Start = "/" + strings.Repeat(e, 2100) }, CodeTooLong, "runtime.start"},
		{"query name over 200 bytes", func(t *testing.T, c *Capability) {
			c.Runtime.StartQuery = []QueryEntry{{Name: strings.Repeat(e, 101), Value: "x"}}
		}, CodeTooLong, "runtime.start_query[0].name"},
		{"query value over 2048 bytes", func(t *testing.T, c *Capability) {
			c.Runtime.StartQuery = []QueryEntry{{Name: "q", Value: strings.Repeat(e, 1025)}}
		}, CodeTooLong, "runtime.start_query[0].value"},
		{"frame selector over 300 bytes", func(t *testing.T, c *Capability) {
			c.Runtime.FrameSelectors = []string{"iframe[title='" + strings.Repeat(e, 150) + "']"}
		}, CodeInvalidFrameSelector, "runtime.frame_selectors[0]"},
		{"url_pattern over 500 bytes", func(t *testing.T, c *Capability) {
			c.BusinessOutcomes[1].Detect.URLPattern = "^/" + strings.Repeat(e, 250) + "$"
		}, CodeTooLong, "business_outcomes[1].detect.url_pattern"},
		{"attribute over 100 bytes", func(t *testing.T, c *Capability) {
			f := &act(t, c, "extract-balances").Extract.Fields[0]
			f.Read, f.Attribute = ReadAttribute, "data-"+strings.Repeat(e, 50)
		}, CodeTooLong, "milestones[2].actions[0].extract.fields[0].attribute"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := loadValid(t, "teller")
			tc.edit(t, c)
			errs := c.Validate()
			var got []Error
			for _, e := range errs {
				if e.Code == CodeTooLong || e.Code == CodeInvalidFrameSelector {
					got = append(got, *e)
				}
			}
			if tc.want == "" {
				if len(got) > 0 {
					t.Fatalf("want no length problem, got %v", errs)
				}
				return
			}
			if len(got) != 1 || got[0].Code != tc.want || got[0].Path != tc.path {
				t.Fatalf("want one %s at %s, got %v", tc.want, tc.path, errs)
			}
		})
	}
}

package capability

import (
	"fmt"
	"unicode/utf8"
)

// byteBounds enforces the bounds FORMAT.md 3.2 gives in bytes (URLs,
// query entries, frame selectors, attribute names, JSON pointers, URL
// patterns). The struct tags' max counts runes (Unicode code points), so
// a non-ASCII value could pass them at up to four times its byte bound;
// this check reports exactly the values the tags let through (at most
// the bound in runes, more in bytes), so no value is reported twice.
func (v *validation) byteBounds() {
	check := func(p pth, s string, limit int, code Code) {
		if len(s) > limit && utf8.RuneCountInString(s) <= limit {
			v.add(p, code, fmt.Sprintf("longer than %d bytes (UTF-8)", limit), "")
		}
	}
	query := func(p pth, q []QueryEntry) {
		for i, e := range q {
			check(p.i(i).f("name"), e.Name, MaxQueryNameLen, CodeTooLong)
			check(p.i(i).f("value"), e.Value, MaxQueryValueLen, CodeTooLong)
		}
	}
	cond := func(p pth, c *Condition) {
		if c != nil {
			check(p.f("value"), c.Value, MaxURLLen, CodeTooLong)
		}
	}
	rt := &v.c.Runtime
	check(at("runtime.start"), rt.Start, MaxURLLen, CodeTooLong)
	query(at("runtime.start_query"), rt.StartQuery)
	for i, s := range rt.FrameSelectors {
		check(at("runtime.frame_selectors").i(i), s, MaxFrameSelectorLen, CodeInvalidFrameSelector)
	}
	for mi := range v.c.Milestones {
		m := &v.c.Milestones[mi]
		mp := at("milestones").i(mi)
		for i, s := range m.FrameSelectors {
			check(mp.f("frame_selectors").i(i), s, MaxFrameSelectorLen, CodeInvalidFrameSelector)
		}
		for ti := range m.Transitions {
			cond(mp.f("transitions").i(ti).f("when"), &m.Transitions[ti].When)
		}
		for ai := range m.Actions {
			a := &m.Actions[ai]
			ap := mp.f("actions").i(ai)
			check(ap.f("url"), a.URL, MaxURLLen, CodeTooLong)
			query(ap.f("query"), a.Query)
			cond(ap.f("postcondition"), a.Postcondition)
			if a.Extract == nil {
				continue
			}
			for fi, f := range a.Extract.Fields {
				fp := ap.f("extract").f("fields").i(fi)
				check(fp.f("attribute"), f.Attribute, MaxAttributeLen, CodeTooLong)
				check(fp.f("json_pointer"), f.JSONPointer, maxJSONPointerLen, CodeTooLong)
			}
		}
	}
	for i, o := range v.c.BusinessOutcomes {
		check(at("business_outcomes").i(i).f("detect").f("url_pattern"), o.Detect.URLPattern, MaxURLPatternLen, CodeTooLong)
	}
}

// maxJSONPointerLen bounds a field's json_pointer, in bytes (the tag's
// max=500).
const maxJSONPointerLen = 500

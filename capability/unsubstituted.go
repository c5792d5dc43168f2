package capability

import "regexp"

// CodeTemplateNotSubstituted: template-shaped text ({{name}}) in a
// position the runtime never substitutes (a frame selector, an
// attribute name, a business outcome's url_pattern). It would be matched
// literally, which is never what the author meant; a press key is
// covered by [CodeInvalidKey].
const CodeTemplateNotSubstituted Code = "template_not_substituted"

// CodeSecretEnum: a secret input of type enum. Its values are listed in
// the capability, so the secret would be one of a few public strings
// (and usable only by a fill, which an enum never needs): a secret is a
// string.
const CodeSecretEnum Code = "secret_enum"

// secretEnums reports secret enum inputs.
func (v *validation) secretEnums() {
	for i, in := range v.c.Inputs {
		if in.Secret && in.Type == InputEnum {
			v.add(at("inputs").i(i).f("type"), CodeSecretEnum, "a secret input is a string: an enum's values are public, so its value would not be secret", "")
		}
	}
}

// templateShape is text a reader takes for a template: "{{", anything
// without braces, "}}".
var templateShape = regexp.MustCompile(`\{\{[^{}]*\}\}`)

// unsubstituted reports template-shaped text in the positions that are
// never substituted.
func (v *validation) unsubstituted() {
	check := func(p pth, s string) {
		if templateShape.MatchString(s) {
			v.add(p, CodeTemplateNotSubstituted, "templates are substituted only in values, URLs and locator values; here {{...}} would be matched literally", s)
		}
	}
	for i, s := range v.c.Runtime.FrameSelectors {
		check(at("runtime.frame_selectors").i(i), s)
	}
	for mi := range v.c.Milestones {
		m := &v.c.Milestones[mi]
		for i, s := range m.FrameSelectors {
			check(at("milestones").i(mi).f("frame_selectors").i(i), s)
		}
		for ai := range m.Actions {
			a := &m.Actions[ai]
			if a.Extract == nil {
				continue
			}
			for fi, f := range a.Extract.Fields {
				check(at("milestones").i(mi).f("actions").i(ai).f("extract").f("fields").i(fi).f("attribute"), f.Attribute)
			}
		}
	}
	for i, o := range v.c.BusinessOutcomes {
		check(at("business_outcomes").i(i).f("detect").f("url_pattern"), o.Detect.URLPattern)
	}
}

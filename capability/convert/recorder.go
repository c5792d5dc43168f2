package convert

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/ident"
	"github.com/vera-run/vera/locator"
)

// recFlow is a Recorder user flow (@puppeteer/replay UserFlow). The step
// is one struct with every member of every step type; which members a
// type allows is checked by hand (recAllowed).
type recFlow struct {
	Title             string    `json:"title"`
	Timeout           *int      `json:"timeout,omitempty"`
	SelectorAttribute *string   `json:"selectorAttribute,omitempty"`
	Steps             []recStep `json:"steps"`
}

type recStep struct {
	Type           string        `json:"type"`
	Timeout        *int          `json:"timeout,omitempty"`
	AssertedEvents []recEvent    `json:"assertedEvents,omitempty"`
	Target         *string       `json:"target,omitempty"`
	Frame          []int         `json:"frame,omitempty"`
	Selectors      []recSelector `json:"selectors,omitempty"`
	// click, doubleClick
	OffsetX    *float64 `json:"offsetX,omitempty"`
	OffsetY    *float64 `json:"offsetY,omitempty"`
	Button     *string  `json:"button,omitempty"`
	DeviceType *string  `json:"deviceType,omitempty"`
	Duration   *float64 `json:"duration,omitempty"`
	// change
	Value *string `json:"value,omitempty"`
	// keyDown, keyUp
	Key *string `json:"key,omitempty"`
	// navigate
	URL *string `json:"url,omitempty"`
	// scroll
	X *float64 `json:"x,omitempty"`
	Y *float64 `json:"y,omitempty"`
	// setViewport
	Width             *float64 `json:"width,omitempty"`
	Height            *float64 `json:"height,omitempty"`
	DeviceScaleFactor *float64 `json:"deviceScaleFactor,omitempty"`
	IsMobile          *bool    `json:"isMobile,omitempty"`
	HasTouch          *bool    `json:"hasTouch,omitempty"`
	IsLandscape       *bool    `json:"isLandscape,omitempty"`
	// waitForElement
	Operator   *string           `json:"operator,omitempty"`
	Count      *int              `json:"count,omitempty"`
	Visible    *bool             `json:"visible,omitempty"`
	Properties map[string]any    `json:"properties,omitempty"`
	Attributes map[string]string `json:"attributes,omitempty"`
	// waitForExpression
	Expression *string `json:"expression,omitempty"`
	// customStep
	Name       *string         `json:"name,omitempty"`
	Parameters json.RawMessage `json:"parameters,omitempty"`
	// emulateNetworkConditions
	Download *float64 `json:"download,omitempty"`
	Upload   *float64 `json:"upload,omitempty"`
	Latency  *float64 `json:"latency,omitempty"`
}

type recEvent struct {
	Type  string  `json:"type"`
	URL   *string `json:"url,omitempty"`
	Title *string `json:"title,omitempty"`
}

// recSelector is a Selector: a string, or an array of strings (a path
// through shadow roots, the last one the element).
type recSelector []string

// UnmarshalJSON reads either form.
func (s *recSelector) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var one string
		if err := json.Unmarshal(b, &one); err != nil {
			return err
		}
		*s = recSelector{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return errors.New("a selector is a string or an array of strings")
	}
	if len(many) == 0 {
		return errors.New("a selector array is not empty")
	}
	*s = many
	return nil
}

// recAllowed lists the members each step type may carry beyond type,
// timeout, assertedEvents and target (every step has those); required
// members are marked with "!".
var recAllowed = map[string][]string{
	"setViewport":              {"!width", "!height", "!deviceScaleFactor", "!isMobile", "!hasTouch", "!isLandscape"},
	"navigate":                 {"!url"},
	"click":                    {"frame", "!selectors", "!offsetX", "!offsetY", "button", "deviceType", "duration"},
	"doubleClick":              {"frame", "!selectors", "!offsetX", "!offsetY", "button", "deviceType"},
	"hover":                    {"frame", "!selectors"},
	"change":                   {"frame", "!selectors", "!value"},
	"keyDown":                  {"!key"},
	"keyUp":                    {"!key"},
	"scroll":                   {"frame", "selectors", "x", "y"},
	"close":                    {},
	"waitForElement":           {"frame", "!selectors", "operator", "count", "visible", "properties", "attributes"},
	"waitForExpression":        {"frame", "!expression"},
	"customStep":               {"frame", "!name", "parameters"},
	"emulateNetworkConditions": {"!download", "!upload", "!latency"},
}

func (st *recStep) present() map[string]bool {
	return map[string]bool{
		"frame": st.Frame != nil, "selectors": st.Selectors != nil, "offsetX": st.OffsetX != nil, "offsetY": st.OffsetY != nil,
		"button": st.Button != nil, "deviceType": st.DeviceType != nil, "duration": st.Duration != nil, "value": st.Value != nil,
		"key": st.Key != nil, "url": st.URL != nil, "x": st.X != nil, "y": st.Y != nil, "width": st.Width != nil,
		"height": st.Height != nil, "deviceScaleFactor": st.DeviceScaleFactor != nil, "isMobile": st.IsMobile != nil,
		"hasTouch": st.HasTouch != nil, "isLandscape": st.IsLandscape != nil, "operator": st.Operator != nil,
		"count": st.Count != nil, "visible": st.Visible != nil, "properties": st.Properties != nil,
		"attributes": st.Attributes != nil, "expression": st.Expression != nil, "name": st.Name != nil,
		"parameters": st.Parameters != nil, "download": st.Download != nil, "upload": st.Upload != nil, "latency": st.Latency != nil,
	}
}

type recConv struct {
	o      *options
	r      *Report
	errs   SourceErrors
	c      *capability.Capability
	values map[string]string // typed literal -> template, for non-secret inputs
	frame  []int
	framed bool
}

func (s *recConv) fail(path, code, format string, a ...any) {
	s.errs = append(s.errs, &SourceError{Format: FormatRecorder, Path: path, Code: code, Message: fmt.Sprintf(format, a...)})
}

// FromRecorder imports a Chrome DevTools Recorder user flow (the JSON the
// Recorder exports, @puppeteer/replay's schema) as a capability that still
// needs review, with the same results and errors as [FromSeed004]. See the
// package documentation for the mapping.
func FromRecorder(raw []byte, opts ...Option) (*capability.Capability, *Report, error) {
	o, err := buildOptions(opts)
	if err != nil {
		return nil, nil, err
	}
	var f recFlow
	generic, errs := decodeStrict(FormatRecorder, raw, &f)
	if len(errs) > 0 {
		return nil, nil, errs
	}
	s := &recConv{o: o, r: &Report{Format: FormatRecorder}, values: map[string]string{}}
	s.convert(&f)
	if len(s.errs) > 0 {
		return nil, nil, s.errs
	}
	s.r.finish(generic)
	if problems := s.c.Validate(); len(problems) > 0 {
		return nil, s.r, &DraftError{Format: FormatRecorder, Problems: problems}
	}
	o.logger.Debug("recorder flow imported", "id", s.c.ID, "state", s.c.State, "entries", len(s.r.Entries), "unmapped", len(s.r.Unmapped()))
	return s.c, s.r, nil
}

var slugRE = regexp.MustCompile(`[^a-z0-9]+`)

func (s *recConv) convert(f *recFlow) {
	r := s.r
	c := &capability.Capability{Schema: capability.SchemaV1, State: capability.StateScaffold, Version: "0.1.0"}
	s.c = c
	if s.o.discoveryHash != "" {
		c.State = capability.StateDraft
		c.Provenance = &capability.Provenance{DiscoveryHash: s.o.discoveryHash}
	}
	if strings.TrimSpace(f.Title) == "" {
		s.fail("title", CodeBadValue, "the title is blank")
	}
	c.ID = strings.Trim(slugRE.ReplaceAllString(strings.ToLower(f.Title), "-"), "-")
	if len(c.ID) > 0 && (c.ID[0] < 'a' || c.ID[0] > 'z') {
		c.ID = "flow-" + c.ID
	}
	if len(c.ID) > capability.MaxIDLen {
		c.ID = strings.TrimRight(c.ID[:capability.MaxIDLen], "-")
	}
	c.Name, c.Goal = f.Title, f.Title
	r.add(Mapped, "title", "name", "")
	r.add(Derived, "title", "id", "the id is the title in lowercase words")
	r.add(Derived, "title", "goal", "the goal repeats the title")
	r.review("the goal repeats the title and the version is 0.1.0: write the goal and choose the version")
	if f.Timeout != nil {
		c.Runtime.ActionTimeoutMS = *f.Timeout
		r.add(Mapped, "timeout", "runtime.action_timeout_ms", "")
	}
	if f.SelectorAttribute != nil {
		r.keep("selectorAttribute", *f.SelectorAttribute, "a recording-time setting; the selectors it produced are in the steps")
	}
	c.Authority.MaxEffect = capability.EffectReadOnly
	r.review("a recording has no risk: every action is read_only; mark the steps that change something consequential")
	c.Privacy.DataClasses = []string{}
	r.review("declare privacy.data_classes: the recording does not name the private data the process reads")
	c.Inputs, c.Outputs = []capability.Input{}, []capability.Output{}
	r.review("a recording reads nothing: add extract actions and outputs for the answer the process returns")
	s.steps(f.Steps)
}

// recPending is a converted action waiting for its milestone, with its
// candidates and the index of the step it came from.
type recPending struct {
	a     capability.Action
	cands []locator.Candidate
	src   int
}

// recSteps is the state of one pass over a recording's steps: the actions
// of the milestone being built, the milestones done, the candidates of the
// last element that took the focus, the origins seen, and whether the
// first navigation happened.
type recSteps struct {
	*recConv
	steps     []recStep
	acts      []recPending
	lastCands []locator.Candidate
	origins   map[string]bool
	started   bool
	ms        []capability.Milestone
}

// recIgnored are the step types a capability has no counterpart for, with
// the reason each is reported as unmapped.
var recIgnored = map[string]string{
	"setViewport":              "the runtime owns the viewport",
	"scroll":                   "the runtime scrolls each element into view itself",
	"close":                    "the run ends when the last milestone completes",
	"emulateNetworkConditions": "a test-time network emulation, not part of the process",
	"hover":                    "a capability has no hover; if the hover reveals an element, a reviewer adds the action that reveals it",
}

// steps converts the recording's steps, one rule step after another:
// members and target of each step, its operation, then the postconditions
// derived from the next step, then the milestones, origins and frame path.
func (s *recConv) steps(steps []recStep) {
	w := &recSteps{recConv: s, steps: steps, origins: map[string]bool{}, ms: []capability.Milestone{}}
	for i := 0; i < len(steps); i++ {
		i += w.step(i)
	}
	if len(s.errs) > 0 {
		return
	}
	w.proveCompletions()
	w.flush()
	w.finish()
}

// flush closes the milestone being built, if it has actions.
func (w *recSteps) flush() {
	if len(w.acts) == 0 {
		return
	}
	m := capability.Milestone{ID: fmt.Sprintf("part-%d", len(w.ms)+1), Intent: w.acts[0].a.Intent}
	for _, p := range w.acts {
		m.Actions = append(m.Actions, p.a)
	}
	w.ms = append(w.ms, m)
	w.acts = nil
}

// at is the capability path of the next action.
func (w *recSteps) at() string {
	return fmt.Sprintf("milestones[%d].actions[%d]", len(w.ms), len(w.acts))
}

// members checks step p's type and members against the Recorder schema;
// false when the step is refused.
func (w *recSteps) members(p string, st *recStep) bool {
	allowed, ok := recAllowed[st.Type]
	if !ok {
		w.fail(p+".type", CodeBadValue, "step type %q is not in the Recorder schema", st.Type)
		return false
	}
	present := st.present()
	for _, m := range allowed {
		req := strings.HasPrefix(m, "!")
		m = strings.TrimPrefix(m, "!")
		if req && !present[m] {
			w.fail(p+"."+m, CodeMissingMember, "a %s step needs %q", st.Type, m)
		}
		delete(present, m)
	}
	for m, on := range present {
		if on {
			w.fail(p+"."+m, CodeUnknownMember, "member %q does not belong to a %s step", m, st.Type)
		}
	}
	return true
}

// step converts step i and returns how many following steps it consumed
// (a keyDown takes its keyUp).
func (w *recSteps) step(i int) int {
	st := &w.steps[i]
	p := idx("steps", i)
	if !w.members(p, st) || len(w.errs) > 0 {
		return 0
	}
	if st.Target != nil && *st.Target != "main" {
		w.fail(p+".target", CodeUnsupported, "target %q is another page (a popup); a capability acts in one top-level tab", *st.Target)
		return 0
	}
	if st.Frame != nil || st.Selectors != nil {
		w.frameOf(p, st.Frame)
	}
	a := capability.Action{ID: fmt.Sprintf("step-%d", i+1), Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone}
	if st.Timeout != nil {
		a.TimeoutMS = *st.Timeout
		w.r.add(Mapped, p+".timeout", w.at()+".timeout_ms", "")
	}
	var cands []locator.Candidate
	if st.Selectors != nil {
		cands = w.selectors(p+".selectors", w.at()+".locator_candidates", st.Selectors)
	}
	consumed, ok := w.operation(i, p, st, &a, cands)
	if !ok || len(w.errs) > 0 || a.Operation == "" {
		return consumed
	}
	w.r.add(Mapped, p+".type", w.at()+".operation", "")
	if st.Target != nil {
		w.r.add(Mapped, p+".target", w.at(), "main: the top-level tab")
	}
	if st.Selectors != nil && (st.Type == "click" || st.Type == "doubleClick" || st.Type == "change") {
		w.lastCands = cands
	}
	if !w.started {
		w.fail(p, CodeUnsupported, "the recording must navigate first: a capability run begins at its declared start")
		return consumed
	}
	w.acts = append(w.acts, recPending{a: a, cands: cands, src: i})
	return consumed
}

// operation fills a from step i by its type; false when the step adds no
// action (ignored or refused). It returns the steps it consumed.
func (w *recSteps) operation(i int, p string, st *recStep, a *capability.Action, cands []locator.Candidate) (int, bool) {
	r := w.r
	if note, ok := recIgnored[st.Type]; ok {
		r.add(Unmapped, p, "", st.Type+": "+note)
		return 0, false
	}
	switch st.Type {
	case "waitForExpression":
		r.add(Unmapped, p, "", "a capability never runs page JavaScript; a reviewer replaces the expression with a visible-state condition")
		return 0, false
	case "customStep":
		w.fail(p, CodeUnsupported, "custom step %q has no defined meaning outside the tool that recorded it", *st.Name)
		return 0, false
	case "navigate":
		return 0, w.navigate(p, st, a)
	case "click", "doubleClick":
		w.click(p, st, a, cands)
	case "change":
		a.Operation = capability.OpFill
		a.LocatorCandidates = cands
		a.Intent = "Type into " + describe(cands)
		a.Input = w.input(p, st, cands)
		a.Postcondition = w.asserted(p, w.at(), st.AssertedEvents)
		if a.Postcondition == nil {
			a.Postcondition = &capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: cands}
			r.add(Derived, p+".selectors", w.at()+".postcondition", "the field stays visible after it is filled")
		}
	case "keyDown":
		if !w.press(i, p, st, a) {
			return 0, false
		}
		return 1, true
	case "keyUp":
		w.fail(p, CodeUnsupported, "keyUp %q without its keyDown", *st.Key)
		return 0, false
	case "waitForElement":
		a.Operation = capability.OpWait
		a.Intent = "Wait for " + describe(cands)
		a.Postcondition = w.waitCondition(p, w.at(), st, cands)
	}
	return 0, true
}

// navigate converts a navigate step: a path on an allowed origin, the
// first one the declared start; false when refused.
func (w *recSteps) navigate(p string, st *recStep, a *capability.Action) bool {
	r := w.r
	flushNeeded := w.started
	org, path, err := splitURL(*st.URL)
	if err != nil || org == "" {
		if err == nil {
			err = errors.New("a recorded navigation is an absolute URL")
		}
		w.fail(p+".url", CodeUnsupported, "%v", err)
		return false
	}
	if flushNeeded {
		w.flush()
	}
	w.origins[org] = true
	a.Operation, a.URL, a.Intent = capability.OpNavigate, path, "Open "+path
	r.add(Mapped, p+".url", w.at()+".url", "as a path on the allowed origin")
	r.add(Derived, p+".url", "site.allowed_origins", "")
	if !w.started {
		w.c.Runtime.Start = path
		w.c.Site.Name = org
		r.add(Derived, p+".url", "runtime.start", "the first navigation is the declared start")
		w.started = true
	}
	a.Postcondition = w.asserted(p, w.at(), st.AssertedEvents)
	if a.Postcondition == nil {
		proof, _, _ := strings.Cut(path, "#")
		a.Postcondition = &capability.Condition{Kind: capability.CondURLIncludes, Value: proof}
		r.add(Derived, p+".url", w.at()+".postcondition", "the navigation is proven by the URL including its path")
	}
	return true
}

// click converts a click or double click: one click on the element, its
// offsets, device and duration reported as not kept.
func (w *recSteps) click(p string, st *recStep, a *capability.Action, cands []locator.Candidate) {
	r := w.r
	a.Operation = capability.OpClick
	a.LocatorCandidates = cands
	a.Intent = "Click " + describe(cands)
	r.add(Unmapped, p+".offsetX", "", "pixel offsets are never recorded in a capability; the click goes to the element")
	r.add(Unmapped, p+".offsetY", "", "pixel offsets are never recorded in a capability; the click goes to the element")
	if st.Button != nil {
		if *st.Button != "primary" {
			w.fail(p+".button", CodeUnsupported, "a %s-button click has no capability operation", *st.Button)
		}
		r.add(Mapped, p+".button", w.at()+".operation", "primary: a click")
	}
	if st.DeviceType != nil {
		r.keep(p+".deviceType", *st.DeviceType, "the runtime clicks with the mouse")
	}
	if st.Duration != nil {
		r.add(Unmapped, p+".duration", "", "the runtime's click has its own press duration")
	}
	if st.Type == "doubleClick" {
		r.add(Weakened, p+".type", w.at()+".operation", "a double click became one click: a dblclick handler does not fire; a reviewer must check the page needs only a click")
	}
	a.Postcondition = w.asserted(p, w.at(), st.AssertedEvents)
}

// press converts a keyDown and the keyUp that must follow it into one
// press on the element that has the focus; false when refused.
func (w *recSteps) press(i int, p string, st *recStep, a *capability.Action) bool {
	r, steps := w.r, w.steps
	if i+1 >= len(steps) || steps[i+1].Type != "keyUp" || steps[i+1].Key == nil || *steps[i+1].Key != *st.Key {
		w.fail(p, CodeUnsupported, "keyDown %q is not followed by its keyUp: a held key or a key chord has no capability operation", *st.Key)
		return false
	}
	if w.lastCands == nil {
		w.fail(p, CodeUnsupported, "a key press before any element was focused has no element to press on")
		return false
	}
	up := &steps[i+1]
	a.Operation, a.Key, a.LocatorCandidates = capability.OpPress, *st.Key, w.lastCands
	a.Intent = "Press " + *st.Key + " in " + describe(w.lastCands)
	r.add(Mapped, p+".key", w.at()+".key", "")
	r.add(Derived, p+".type", w.at()+".locator_candidates", "pressed on the element of the last click or change, which has the focus")
	up2 := idx("steps", i+1)
	r.add(Mapped, up2+".type", w.at(), "keyUp completes the press of the step before")
	r.add(Mapped, up2+".key", w.at()+".key", "")
	if up.Target != nil && *up.Target != "main" {
		w.fail(up2+".target", CodeUnsupported, "target %q is another page (a popup); a capability acts in one top-level tab", *up.Target)
	} else if up.Target != nil {
		r.add(Mapped, up2+".target", w.at(), "main: the top-level tab")
	}
	if up.Frame != nil || up.Selectors != nil {
		w.fail(up2, CodeUnknownMember, "a keyUp step has no frame or selectors")
	}
	if up.Timeout != nil {
		r.keep(up2+".timeout", fmt.Sprint(*up.Timeout), "the press's timeout is the keyDown's")
	}
	a.Postcondition = w.asserted(p, w.at(), st.AssertedEvents)
	if pc := w.asserted(up2, w.at(), up.AssertedEvents); pc != nil {
		a.Postcondition = pc
	}
	return true
}

// proveCompletions gives a click or press without an asserted navigation
// the next action's element, or the next wait's condition, as its
// postcondition; without either it is refused.
func (w *recSteps) proveCompletions() {
	r, acts := w.r, w.acts
	for k := range acts {
		a := &acts[k].a
		if a.Postcondition != nil {
			continue
		}
		if k+1 < len(acts) {
			n := acts[k+1].a
			switch {
			case n.Operation == capability.OpWait && n.Postcondition != nil:
				c := *n.Postcondition
				a.Postcondition = &c
				r.add(Derived, idx("steps", acts[k+1].src)+".selectors", fmt.Sprintf("milestones[%d].actions[%d].postcondition", len(w.ms), k), "proven by the next wait's condition")
				continue
			case len(n.LocatorCandidates) > 0:
				a.Postcondition = &capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: n.LocatorCandidates}
				r.add(Derived, idx("steps", acts[k+1].src)+".selectors", fmt.Sprintf("milestones[%d].actions[%d].postcondition", len(w.ms), k), "proven by the next step's element being visible")
				continue
			}
		}
		w.fail(idx("steps", acts[k].src), CodeUnsupported, "a %s is never completion: record an asserted navigation or a waitForElement after it", a.Operation)
	}
}

// finish writes the milestones, the allowed origins and the frame path
// into the capability.
func (w *recSteps) finish() {
	w.c.Milestones = w.ms
	for o := range w.origins {
		w.c.Site.AllowedOrigins = append(w.c.Site.AllowedOrigins, o)
	}
	sortStrings(w.c.Site.AllowedOrigins)
	if !w.started {
		w.fail("steps", CodeUnsupported, "the recording never navigates, so the site's origin is unknown")
	}
	if w.framed && len(w.frame) > 0 {
		for _, n := range w.frame {
			w.c.Runtime.FrameSelectors = append(w.c.Runtime.FrameSelectors, fmt.Sprintf("iframe:nth-of-type(%d)", n+1))
		}
	}
}

// frameOf checks that every step acts in the same frame: the capability's
// frame selectors hold for the whole run.
func (s *recConv) frameOf(p string, fr []int) {
	given := fr != nil
	if fr == nil {
		fr = []int{} // the main frame
	}
	if s.framed && !equalInts(s.frame, fr) {
		s.fail(p+".frame", CodeUnsupported, "steps act in different frames (%v, then %v); a capability selects one frame for the whole run", s.frame, fr)
		return
	}
	for _, n := range fr {
		if n < 0 {
			s.fail(p+".frame", CodeBadValue, "a frame index is not negative")
			return
		}
	}
	s.frame, s.framed = fr, true
	if !given {
		return
	}
	s.r.add(Derived, p+".frame", "runtime.frame_selectors", "frame index i became iframe:nth-of-type(i+1), which is the recorded frame when the frames are siblings in their document; a reviewer should use a stable selector (an id or title)")
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

var ariaRoleRE = regexp.MustCompile(`^(.*)\[role="([a-z]+)"\]$`)

// selectors maps the alternatives: ARIA to role (or, without a role, label)
// candidates, text/ to text, CSS to CSS fallbacks, in preference order;
// XPath, pierce and shadow paths are unmapped.
func (s *recConv) selectors(p, t string, sels []recSelector) []locator.Candidate {
	type cand struct {
		c   locator.Candidate
		src string
	}
	var got []cand
	for i, sel := range sels {
		sp := idx(p, i)
		if len(sel) > 1 {
			s.r.add(Unmapped, sp, "", "a selector path through shadow roots has no candidate strategy")
			continue
		}
		v := sel[0]
		var c locator.Candidate
		switch {
		case strings.HasPrefix(v, "aria/"):
			name := strings.TrimPrefix(v, "aria/")
			if m := ariaRoleRE.FindStringSubmatch(name); m != nil {
				c = locator.Candidate{Strategy: locator.Role, Role: m[2], Name: m[1], Exact: true}
			} else {
				c = locator.Candidate{Strategy: locator.Label, Label: name, Exact: true}
			}
		case strings.HasPrefix(v, "text/"):
			c = locator.Candidate{Strategy: locator.Text, Text: strings.TrimPrefix(v, "text/")}
		case strings.HasPrefix(v, "xpath/"):
			s.r.add(Unmapped, sp, "", "XPath is not a candidate strategy (it encodes the DOM's structure, which restyling changes)")
			continue
		case strings.HasPrefix(v, "pierce/"):
			s.r.add(Unmapped, sp, "", "a shadow-piercing selector is not a candidate strategy")
			continue
		default:
			c = locator.Candidate{Strategy: locator.CSS, CSS: v}
		}
		if ps := c.Check(); len(ps) > 0 {
			s.r.add(Unmapped, sp, "", fmt.Sprintf("not a valid %s candidate: %s", c.Strategy, ps[0].Detail))
			continue
		}
		got = append(got, cand{c, sp})
	}
	// Preference order, stable within a strategy; duplicates dropped.
	var out []locator.Candidate
	seen := map[locator.Candidate]bool{}
	for _, strat := range locator.Strategies() {
		for _, g := range got {
			if g.c.Strategy != strat {
				continue
			}
			switch {
			case seen[g.c]:
				s.r.add(Unmapped, g.src, "", "a duplicate of an earlier alternative")
			case len(out) == locator.MaxCandidates:
				s.r.add(Unmapped, g.src, "", fmt.Sprintf("over the limit of %d candidates", locator.MaxCandidates))
			default:
				note := ""
				if g.c.Strategy == locator.Label {
					note = "an ARIA name without a role became a label candidate"
				}
				s.r.add(Mapped, g.src, fmt.Sprintf("%s[%d]", t, len(out)), note)
				seen[g.c] = true
				out = append(out, g.c)
			}
		}
	}
	if len(out) == 0 {
		s.fail(p, CodeUnsupported, "no selector alternative maps onto a locator candidate")
	}
	return out
}

// describe names an element for a generated intent.
func describe(cs []locator.Candidate) string {
	if len(cs) == 0 {
		return "the element"
	}
	c := cs[0]
	if c.Strategy == locator.Role {
		if c.Name == "" {
			return "the " + c.Role
		}
		return fmt.Sprintf("the %q %s", c.Name, c.Role)
	}
	return fmt.Sprintf("%q", c.Value())
}

// input declares the input a change step types: secret for a password
// field (the recorded value is never kept), else a required string input;
// non-secret values later in asserted URLs become its template.
func (s *recConv) input(p string, st *recStep, cands []locator.Candidate) string {
	base := "text"
	for _, c := range cands {
		if c.Strategy == locator.Role || c.Strategy == locator.Label {
			base = c.Value()
			break
		}
	}
	name := snake(strings.ToLower(slugRE.ReplaceAllString(strings.ToLower(base), " ")))
	name = strings.Trim(slugRE.ReplaceAllString(name, "_"), "_")
	if !ident.ValidName(name) {
		name = "text"
	}
	for k := 2; ; k++ {
		if _, dup := s.c.Input(name); !dup {
			break
		}
		name = fmt.Sprintf("%s_%d", strings.TrimRight(name, "_0123456789"), k)
	}
	in := capability.Input{Name: name, Type: capability.InputString, Required: true, Description: "Typed into " + describe(cands)}
	t := fmt.Sprintf("inputs[%d]", len(s.c.Inputs))
	if passwordField(cands) || secretName(name) {
		in.Secret = true
		s.r.add(Mapped, p+".value", t, "typed into a password field: a secret input; the recorded value is not kept anywhere")
	} else {
		if *st.Value != "" {
			s.values[*st.Value] = "{{" + name + "}}"
		}
		s.r.keep(p+".value", *st.Value, fmt.Sprintf("the typed value became the input %q; the recorded value is kept here only as an example", name))
		s.r.Entries[len(s.r.Entries)-1].Disposition, s.r.Entries[len(s.r.Entries)-1].Target = Mapped, t
	}
	s.c.Inputs = append(s.c.Inputs, in)
	return name
}

// asserted maps asserted navigation events onto a postcondition: the
// asserted URL's path and fragment, with typed values as templates.
func (s *recConv) asserted(p, t string, evs []recEvent) *capability.Condition {
	var pc *capability.Condition
	for i, e := range evs {
		ep := idx(p+".assertedEvents", i)
		if e.Type != "navigation" {
			s.fail(ep+".type", CodeBadValue, "asserted event type %q is not navigation", e.Type)
			continue
		}
		s.r.add(Mapped, ep+".type", t+".postcondition", "")
		if e.Title != nil {
			s.r.keep(ep+".title", *e.Title, "a capability has no page-title condition")
		}
		if e.URL == nil {
			continue
		}
		u, err := url.Parse(*e.URL)
		if err != nil || u.RawQuery != "" || !u.IsAbs() {
			s.r.keep(ep+".url", "", "an asserted URL with a query, or not absolute, has no URL condition; a reviewer adds a visible-state condition")
			continue
		}
		v := u.EscapedPath()
		if u.Fragment != "" {
			frag := u.Fragment
			for lit, tmpl := range s.values {
				frag = strings.ReplaceAll(frag, lit, tmpl)
			}
			v += "#" + frag
		}
		if pc == nil {
			pc = &capability.Condition{Kind: capability.CondURLIncludes, Value: v}
			s.r.add(Mapped, ep+".url", t+".postcondition", "url_includes of the asserted path and fragment; typed values became their input templates")
		} else {
			s.r.keep(ep+".url", "", "a second asserted navigation; the first is the postcondition")
		}
	}
	return pc
}

// waitCondition maps waitForElement: count >= 1 (or the default ==1) is
// locator_visible, count 0 (== or <=) is locator_hidden.
func (s *recConv) waitCondition(p, t string, st *recStep, cands []locator.Candidate) *capability.Condition {
	op, count := "==", 1
	if st.Operator != nil {
		op = *st.Operator
		if op != "==" && op != ">=" && op != "<=" {
			s.fail(p+".operator", CodeBadValue, "operator %q is not ==, >= or <=", op)
			return nil
		}
	}
	if st.Count != nil {
		count = *st.Count
	}
	visible := st.Visible == nil || *st.Visible
	kind := capability.CondLocatorVisible
	switch {
	case count == 0 && (op == "==" || op == "<="):
		kind = capability.CondLocatorHidden
	case count == 1 && (op == "==" || op == ">=") && visible:
	case count > 1 && op == ">=" && visible:
		s.r.add(Weakened, p+".count", t+".postcondition", fmt.Sprintf("at least %d elements became: the element is visible", count))
	default:
		s.fail(p, CodeUnsupported, "waiting for %s %d elements (visible %v) has no capability condition", op, count, visible)
		return nil
	}
	if st.Operator != nil {
		s.r.add(Mapped, p+".operator", t+".postcondition.kind", "")
	}
	if st.Count != nil && count <= 1 {
		s.r.add(Mapped, p+".count", t+".postcondition.kind", "")
	}
	if st.Visible != nil {
		s.r.add(Mapped, p+".visible", t+".postcondition.kind", "")
	}
	if st.Properties != nil {
		s.r.add(Unmapped, p+".properties", "", "a capability condition does not compare DOM properties")
	}
	if st.Attributes != nil {
		s.r.add(Unmapped, p+".attributes", "", "a capability condition does not compare attributes")
	}
	return &capability.Condition{Kind: kind, LocatorCandidates: cands}
}

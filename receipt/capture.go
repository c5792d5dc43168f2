package receipt

import (
	"encoding/base64"
	"slices"
	"strconv"

	"github.com/vera-run/vera/internal/canonjson"
)

// Step capture (Evidence v2, FORMAT.md section 16): the per-step record a
// run with runtime.WithCapture leaves in its run directory as capture.json.
const (
	// SchemaCapture is the schema of capture.json.
	SchemaCapture = "browser-run-capture/v1"
	// SchemaLockV3 is the run lock of a run with a capture: v2's members
	// (recovery_proposals optional) and the capture's digest.
	SchemaLockV3 = "browser-run-lock/v3"
	// FileCapture is the capture's file name inside a run directory.
	FileCapture = "capture.json"
)

// MaxCaptureBytes bounds capture.json. The runtime's total capture budget
// (runtime.MaxCaptureTotalBytes) keeps a capture well below it.
const MaxCaptureBytes = 96 << 20

// CaptureState is the state of one captured section ([CaptureSection]).
type CaptureState string

// The capture states. Only captured is evidence a comparison may call
// equal; truncated and missing make the capture ineligible for an
// equality claim; disabled is a section the policy did not ask for (or
// withheld, with its reason).
const (
	CaptureCaptured  CaptureState = "captured"
	CaptureTruncated CaptureState = "truncated"
	CaptureMissing   CaptureState = "missing"
	CaptureDisabled  CaptureState = "disabled"
)

// captureStates is the closed set of capture states.
var captureStates = []CaptureState{CaptureCaptured, CaptureDisabled, CaptureMissing, CaptureTruncated}

// Capture reasons ([CaptureSection.Reason]).
const (
	// CaptureReasonPolicy: the capture policy did not ask for the section.
	CaptureReasonPolicy = "policy"
	// CaptureReasonUnsupported: the driver does not capture page state.
	CaptureReasonUnsupported = "driver_unsupported"
	// CaptureReasonDriverError: the driver failed to capture the section
	// (the local detail is logged, never recorded).
	CaptureReasonDriverError = "driver_error"
	// CaptureReasonSectionLimit: the section is larger than the policy's
	// byte limit for it; its first bytes are kept.
	CaptureReasonSectionLimit = "section_limit"
	// CaptureReasonTotalLimit: the capture's total byte budget was spent.
	CaptureReasonTotalLimit = "total_limit"
	// CaptureReasonEventLimit: events beyond the step's count or byte
	// limit were omitted (counted in total and omitted).
	CaptureReasonEventLimit = "event_limit"
	// CaptureReasonDriverEventLimit: the driver's own event buffer
	// overflowed, so events were lost before the runtime saw them.
	CaptureReasonDriverEventLimit = "driver_event_limit"
	// CaptureReasonSecretInput: a screenshot withheld because a secret
	// input has been entered into the page (pixels cannot be redacted).
	CaptureReasonSecretInput = "secret_input"
)

// captureReasons is the closed set of reasons.
var captureReasons = []string{CaptureReasonDriverError, CaptureReasonDriverEventLimit, CaptureReasonEventLimit,
	CaptureReasonPolicy, CaptureReasonSecretInput, CaptureReasonSectionLimit, CaptureReasonTotalLimit, CaptureReasonUnsupported}

// Capture is a browser-run-capture/v1 document (capture.json): the initial
// state of the page and one record per executed action. It is private,
// owner-only evidence like outputs.json: listed in the run lock (v3),
// redacted (secret input values never appear; a value is replaced by
// "[secret:NAME]"), never in a bundle.
type Capture struct {
	Schema string `json:"schema"`
	RunID  string `json:"run_id"`
	// Context is what two captures must share to be compared.
	Context CaptureContext `json:"context"`
	// Policy is the capture policy the run used.
	Policy CapturePolicy `json:"policy"`
	// PreAttachGap is declared by a capture in an externally owned browser
	// (connect mode): events before the driver attached were not observed.
	PreAttachGap bool `json:"pre_attach_gap"`
	// RedactedInputs names the secret inputs whose values were replaced.
	RedactedInputs []string `json:"redacted_inputs"`
	// Eligible is true only when no section of any step is truncated or
	// missing: only an eligible capture supports an equality claim.
	Eligible bool `json:"eligible"`
	// Initial is the page after the start navigation (step -1 in effect:
	// index 0, no action).
	Initial CaptureStep `json:"initial"`
	// Steps holds one record per executed action, in execution order.
	Steps []CaptureStep `json:"steps"`
	// Totals count what the capture holds and what it omitted.
	Totals CaptureTotals `json:"totals"`
}

// CaptureContext is the browser and origin context of a capture.
type CaptureContext struct {
	CapabilityID  string        `json:"capability_id"`
	ExecutionHash string        `json:"execution_hash"`
	Mode          ExecutionMode `json:"execution_mode"`
	Browser       string        `json:"browser"`
	// Origins are the capability's allowed origins, sorted.
	Origins []string `json:"origins"`
	// Viewport is "WIDTHxHEIGHT" of the captured screenshots, "" when
	// unknown.
	Viewport string `json:"viewport"`
}

// CapturePolicy is the capture policy recorded in capture.json.
type CapturePolicy struct {
	Screenshot    bool `json:"screenshot"`
	DOM           bool `json:"dom"`
	Accessibility bool `json:"accessibility"`
	History       bool `json:"history"`
	Storage       bool `json:"storage"`
	Events        bool `json:"events"`
	// MaxEvents bounds the events kept per step.
	MaxEvents int `json:"max_events"`
	// MaxEventBytes bounds the bytes of the events kept per step.
	MaxEventBytes int `json:"max_event_bytes"`
	// MaxSectionBytes bounds one text section (DOM, accessibility,
	// history, storage, URL).
	MaxSectionBytes int `json:"max_section_bytes"`
	// MaxScreenshotBytes bounds one screenshot's PNG bytes.
	MaxScreenshotBytes int `json:"max_screenshot_bytes"`
	// MaxTotalBytes bounds the content of all sections together.
	MaxTotalBytes int `json:"max_total_bytes"`
}

// CaptureStep is the record of one step: the initial state or an action.
type CaptureStep struct {
	// Index is 0 for the initial state and n for the n-th executed action.
	Index int `json:"index"`
	// ActionID, Milestone, Visit, Operation and Status name the action
	// (empty for the initial state); Status is its receipt status.
	ActionID  string `json:"action_id"`
	Milestone string `json:"milestone"`
	Visit     int    `json:"visit"`
	Operation string `json:"operation"`
	Status    string `json:"status"`
	// ElapsedMS is the time from the run's start to this capture.
	ElapsedMS int64 `json:"elapsed_ms"`
	// URL is the top-level page's sanitized URL: origin and path, query
	// names without values, no fragment.
	URL           CaptureSection `json:"url"`
	Screenshot    CaptureSection `json:"screenshot"`
	DOM           CaptureSection `json:"dom"`
	Accessibility CaptureSection `json:"accessibility"`
	History       CaptureSection `json:"history"`
	Storage       CaptureSection `json:"storage"`
	Events        CaptureEvents  `json:"events"`
}

// Sections returns the step's sections by name (url, screenshot, dom,
// accessibility, history, storage), in that order.
func (s *CaptureStep) Sections() []NamedSection {
	return []NamedSection{{"url", &s.URL}, {"screenshot", &s.Screenshot}, {"dom", &s.DOM},
		{"accessibility", &s.Accessibility}, {"history", &s.History}, {"storage", &s.Storage}}
}

// NamedSection is one section of a step and its name.
type NamedSection struct {
	Name    string
	Section *CaptureSection
}

// CaptureSection is one independently typed section of a step.
type CaptureSection struct {
	State CaptureState `json:"state"`
	// Reason says why a section is not captured; "" when captured.
	Reason string `json:"reason,omitempty"`
	// Bytes is the full size of the content before any truncation.
	Bytes int `json:"bytes"`
	// SHA256 is the sha256 of the kept content's bytes (for a screenshot,
	// the PNG bytes); present when captured or truncated.
	SHA256 string `json:"sha256,omitempty"`
	// Content is the kept content: text (UTF-8, redacted), or for the
	// screenshot the standard base64 of the PNG.
	Content string `json:"content,omitempty"`
}

// CaptureEvents are the events attributed to one step.
type CaptureEvents struct {
	State  CaptureState `json:"state"`
	Reason string       `json:"reason,omitempty"`
	// Total counts every event attributed to the step; Omitted those the
	// limits left out (and those the driver lost).
	Total   int `json:"total"`
	Omitted int `json:"omitted"`
	// Bytes is the size of the kept events ([CaptureEvent.Size]).
	Bytes   int            `json:"bytes"`
	Records []CaptureEvent `json:"records"`
}

// CaptureEventKind is the kind of a [CaptureEvent].
type CaptureEventKind string

// The event kinds.
const (
	EventConsole          CaptureEventKind = "console"
	EventPageError        CaptureEventKind = "page_error"
	EventRequest          CaptureEventKind = "request"
	EventWebSocket        CaptureEventKind = "websocket"
	EventWebSocketSent    CaptureEventKind = "websocket_frame_sent"
	EventWebSocketRecv    CaptureEventKind = "websocket_frame_received"
	EventFrame            CaptureEventKind = "frame"
	EventWorker           CaptureEventKind = "worker"
	EventPopup            CaptureEventKind = "popup"
	EventDownloadCanceled CaptureEventKind = "download_canceled"
)

// eventKinds is the closed set of event kinds.
var eventKinds = []CaptureEventKind{EventConsole, EventDownloadCanceled, EventFrame, EventPageError, EventPopup,
	EventRequest, EventWebSocket, EventWebSocketRecv, EventWebSocketSent, EventWorker}

// CaptureEvent is one page event. Text is redacted and bounded; URLs are
// sanitized like [CaptureStep.URL]; a WebSocket frame records its payload
// length only.
type CaptureEvent struct {
	// Seq is the event's position among all events of the run (ignored by
	// comparison).
	Seq  int              `json:"seq"`
	Kind CaptureEventKind `json:"kind"`
	// Level is a console message's type (log, warning, error, ...) or a
	// request's resource type or a worker's target type.
	Level  string `json:"level,omitempty"`
	Method string `json:"method,omitempty"`
	URL    string `json:"url,omitempty"`
	Text   string `json:"text,omitempty"`
	// Length is a WebSocket frame's payload length in bytes.
	Length int `json:"length,omitempty"`
}

// Size is the number of bytes an event counts against the event byte
// limit: the lengths of its kind, level, method, URL and text.
func (e *CaptureEvent) Size() int {
	return len(e.Kind) + len(e.Level) + len(e.Method) + len(e.URL) + len(e.Text)
}

// CaptureTotals count a capture's steps and sections.
type CaptureTotals struct {
	Steps     int `json:"steps"`
	Captured  int `json:"captured"`
	Truncated int `json:"truncated"`
	Missing   int `json:"missing"`
	Disabled  int `json:"disabled"`
	Events    int `json:"events"`
	Omitted   int `json:"omitted_events"`
	Bytes     int `json:"bytes"`
}

// AllSteps returns the initial state followed by the action steps.
func (c *Capture) AllSteps() []*CaptureStep {
	out := make([]*CaptureStep, 0, len(c.Steps)+1)
	out = append(out, &c.Initial)
	for i := range c.Steps {
		out = append(out, &c.Steps[i])
	}
	return out
}

// Summarize recomputes Totals and Eligible from the steps; the runtime
// calls it before writing and the verifier checks the result.
func (c *Capture) Summarize() {
	var t CaptureTotals
	eligible := true
	for _, s := range c.AllSteps() {
		if s != &c.Initial {
			t.Steps++
		}
		for _, ns := range s.Sections() {
			switch ns.Section.State {
			case CaptureCaptured:
				t.Captured++
			case CaptureTruncated:
				t.Truncated++
				eligible = false
			case CaptureMissing:
				t.Missing++
				eligible = false
			case CaptureDisabled:
				t.Disabled++
			}
			t.Bytes += len(ns.Section.Content)
		}
		t.Events += s.Events.Total
		t.Omitted += s.Events.Omitted
		if s.Events.State == CaptureTruncated || s.Events.State == CaptureMissing {
			eligible = false
		}
	}
	c.Totals = t
	c.Eligible = eligible
}

// LoadCapture decodes capture.json strictly, as [LoadReceipt] does (size
// limit [MaxCaptureBytes], canonical form, schema [SchemaCapture], no
// unknown member, the writer's form), and applies its schema rules
// (FORMAT.md 16.3): closed states, reasons and event kinds, digests that
// match the content, indexes in order, totals and eligibility that match
// the steps. Errors are *[VerifyError] values. Like outputs.json it is
// not scanned for secret-shaped strings: it is the run's private page
// evidence, redacted by the writer.
func LoadCapture(raw []byte) (*Capture, error) {
	var c Capture
	ok, ps := decodeDoc(specCapture, raw, &c)
	if ok {
		ps = append(ps, checkCapture(&c)...)
	}
	return result(&c, ok, ps)
}

var specCapture = docSpec{FileCapture, MaxCaptureBytes, []string{SchemaCapture}}

// checkCapture applies capture.json's schema rules.
func checkCapture(c *Capture) problems {
	const f = FileCapture
	var ps problems
	if !validRunID(c.RunID) {
		ps.add(f, ErrSchema, "run_id is not 1 to %d bytes of [A-Za-z0-9._-]", MaxRunIDLen)
	}
	if !slices.IsSorted(c.Context.Origins) {
		ps.add(f, ErrSchema, "context.origins are not sorted")
	}
	if c.Context.ExecutionHash != "" && !canonjson.ValidDigest(c.Context.ExecutionHash) {
		ps.add(f, ErrSchema, "context.execution_hash is not a sha256 digest")
	}
	p := c.Policy
	for _, x := range []struct {
		name string
		v    int
	}{{"max_events", p.MaxEvents}, {"max_event_bytes", p.MaxEventBytes}, {"max_section_bytes", p.MaxSectionBytes},
		{"max_screenshot_bytes", p.MaxScreenshotBytes}, {"max_total_bytes", p.MaxTotalBytes}} {
		if x.v < 0 {
			ps.add(f, ErrSchema, "policy.%s is negative", x.name)
		}
	}
	if !slices.IsSorted(c.RedactedInputs) {
		ps.add(f, ErrSchema, "redacted_inputs are not sorted")
	}
	for i, s := range c.AllSteps() {
		sp := "initial"
		if i > 0 {
			sp = "steps[" + strconv.Itoa(i-1) + "]"
		}
		if s.Index != i {
			ps.add(f, ErrSchema, "%s.index is %d, not %d", sp, s.Index, i)
		}
		if i == 0 && (s.ActionID != "" || s.Operation != "" || s.Status != "") {
			ps.add(f, ErrSchema, "initial names an action")
		}
		if i > 0 && !validID(s.ActionID) {
			ps.add(f, ErrSchema, "%s.action_id is not a valid id", sp)
		}
		if s.ElapsedMS < 0 {
			ps.add(f, ErrSchema, "%s.elapsed_ms is negative", sp)
		}
		for _, ns := range s.Sections() {
			checkSection(sp+"."+ns.Name, ns.Name == "screenshot", ns.Section, &ps)
		}
		checkEvents(sp+".events", &s.Events, &p, &ps)
	}
	want := *c
	want.Summarize()
	if want.Totals != c.Totals {
		ps.add(f, ErrInconsistent, "totals do not match the steps")
	}
	if want.Eligible != c.Eligible {
		ps.add(f, ErrInconsistent, "eligible is %t, the sections say %t", c.Eligible, want.Eligible)
	}
	return ps
}

func checkSection(path string, binary bool, s *CaptureSection, ps *problems) {
	const f = FileCapture
	if !slices.Contains(captureStates, s.State) {
		ps.add(f, ErrSchema, "%s.state %s is not a capture state", path, short(string(s.State)))
		return
	}
	if s.State == CaptureCaptured {
		if s.Reason != "" {
			ps.add(f, ErrSchema, "%s is captured but has a reason", path)
		}
	} else if !slices.Contains(captureReasons, s.Reason) {
		ps.add(f, ErrSchema, "%s.reason %s is not a capture reason", path, short(s.Reason))
	}
	if s.Bytes < 0 {
		ps.add(f, ErrSchema, "%s.bytes is negative", path)
	}
	switch s.State {
	case CaptureCaptured, CaptureTruncated:
		content := []byte(s.Content)
		if binary {
			b, err := base64.StdEncoding.Strict().DecodeString(s.Content)
			if err != nil {
				ps.add(f, ErrSchema, "%s.content is not standard base64", path)
				return
			}
			content = b
		}
		if s.SHA256 != canonjson.SumBytes(content) {
			ps.add(f, ErrHashMismatch, "%s.sha256 does not match its content", path)
		}
		if s.State == CaptureCaptured && s.Bytes != len(content) {
			ps.add(f, ErrInconsistent, "%s is captured but bytes is %d, the content %d", path, s.Bytes, len(content))
		}
		if s.State == CaptureTruncated && s.Bytes <= len(content) && s.Reason == CaptureReasonSectionLimit {
			ps.add(f, ErrInconsistent, "%s is truncated but keeps all %d bytes", path, s.Bytes)
		}
	default:
		if s.Content != "" || s.SHA256 != "" {
			ps.add(f, ErrSchema, "%s is %s but has content", path, s.State)
		}
	}
}

func checkEvents(path string, e *CaptureEvents, p *CapturePolicy, ps *problems) {
	const f = FileCapture
	if !slices.Contains(captureStates, e.State) {
		ps.add(f, ErrSchema, "%s.state %s is not a capture state", path, short(string(e.State)))
	}
	if e.State == CaptureCaptured && e.Reason != "" {
		ps.add(f, ErrSchema, "%s is captured but has a reason", path)
	}
	if e.State != CaptureCaptured && !slices.Contains(captureReasons, e.Reason) {
		ps.add(f, ErrSchema, "%s.reason %s is not a capture reason", path, short(e.Reason))
	}
	if e.Total < 0 || e.Omitted < 0 || e.Total != len(e.Records)+e.Omitted {
		ps.add(f, ErrInconsistent, "%s: total %d is not %d records plus %d omitted", path, e.Total, len(e.Records), e.Omitted)
	}
	if (e.Omitted > 0) != (e.State == CaptureTruncated) {
		ps.add(f, ErrInconsistent, "%s: state %s with %d omitted", path, e.State, e.Omitted)
	}
	if e.State == CaptureDisabled && len(e.Records) > 0 {
		ps.add(f, ErrSchema, "%s is disabled but has records", path)
	}
	size := 0
	for i := range e.Records {
		r := &e.Records[i]
		if !slices.Contains(eventKinds, r.Kind) {
			ps.add(f, ErrSchema, "%s.records[%d].kind %s is not an event kind", path, i, short(string(r.Kind)))
		}
		if r.Seq < 0 || r.Length < 0 {
			ps.add(f, ErrSchema, "%s.records[%d] has a negative seq or length", path, i)
		}
		if i > 0 && r.Seq <= e.Records[i-1].Seq {
			ps.add(f, ErrSchema, "%s.records[%d].seq is not increasing", path, i)
		}
		size += r.Size()
	}
	if size != e.Bytes {
		ps.add(f, ErrInconsistent, "%s.bytes is %d, the records %d", path, e.Bytes, size)
	}
	if p.Events && (len(e.Records) > p.MaxEvents || e.Bytes > p.MaxEventBytes) {
		ps.add(f, ErrInconsistent, "%s keeps more than the policy's limits", path)
	}
}

// checkLinksV3 checks a v3 lock's optional proposals and required capture.
func checkLinksV3(rf *RunFiles, hasProposals bool, ps *problems) {
	l := rf.Lock
	switch {
	case hasProposals && l.RecoveryProposals == "":
		ps.add(FileProposals, ErrLink, "present, but the %s lock records no recovery proposals", SchemaLockV3)
	case !hasProposals && l.RecoveryProposals != "":
		ps.add(FileProposals, ErrMissingFile, "missing although the %s lock records it", SchemaLockV3)
	case hasProposals && rf.Hashes[FileProposals] != l.RecoveryProposals:
		ps.add(FileProposals, ErrHashMismatch, "sha256 is %s, the lock records %s", rf.Hashes[FileProposals], short(l.RecoveryProposals))
	}
	if _, ok := rf.Raw[FileCapture]; !ok {
		ps.add(FileCapture, ErrMissingFile, "missing although the %s lock records it", SchemaLockV3)
	} else if got := rf.Hashes[FileCapture]; got != l.Capture {
		ps.add(FileCapture, ErrHashMismatch, "sha256 is %s, the lock records %s", got, short(l.Capture))
	}
}

// checkCaptureReceipt checks that a capture describes its receipt's run:
// the same capability and mode, and one step per action record, in
// order, with the record's id, milestone, visit, operation and status.
func checkCaptureReceipt(c *Capture, r *Receipt, ps *problems) {
	const f = FileCapture
	if c.Context.CapabilityID != r.Capability.ID || c.Context.ExecutionHash != r.Capability.ExecutionHash {
		ps.add(f, ErrLink, "context names another capability than the receipt")
	}
	if c.Context.Mode != r.ExecutionMode {
		ps.add(f, ErrLink, "context.execution_mode differs from the receipt's")
	}
	if len(c.Steps) != len(r.Actions) {
		ps.add(f, ErrLink, "%d steps for %d action records", len(c.Steps), len(r.Actions))
		return
	}
	for i := range c.Steps {
		s, a := &c.Steps[i], &r.Actions[i]
		if s.ActionID != a.ID || s.Milestone != a.Milestone || s.Visit != a.Visit || s.Operation != a.Operation || s.Status != string(a.Status) {
			ps.add(f, ErrLink, "steps[%d] does not describe action record %d", i, i)
		}
	}
}

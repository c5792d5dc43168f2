package runtime

import (
	"context"
	"encoding/base64"
	"html"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/receipt"
)

// captureRec is the capture of one run (WithCapture).
type captureRec struct {
	pol CapturePolicy
	// drv is the driver's Capturer, nil when it has none.
	drv     Capturer
	started bool
	doc     receipt.Capture
	// initial is set once the initial state has been captured.
	initial bool
	used    int // content bytes spent of MaxTotalBytes
	seq     int // events seen, for Seq
	// secrets are the redaction pairs (value forms, marker), longest
	// value first.
	secrets []secretForm
	// secretEntered: an action used a secret input, so screenshots are
	// withheld from then on.
	secretEntered bool
}

type secretForm struct{ value, marker string }

// newCapture prepares the run's capture; nil without WithCapture.
func (r *run) newCapture() *captureRec {
	if r.cfg.capture == nil {
		return nil
	}
	c := &captureRec{pol: *r.cfg.capture}
	c.drv, _ = r.drv.(Capturer)
	origins := slices.Clone(r.plan.allowed)
	slices.Sort(origins)
	c.doc = receipt.Capture{
		Context: receipt.CaptureContext{
			CapabilityID: r.cap.ID, ExecutionHash: r.execHash, Mode: r.info.Mode, Browser: r.info.Browser,
			Origins: nonNil(origins),
		},
		Policy: receipt.CapturePolicy{
			Screenshot: c.pol.Screenshot, DOM: c.pol.DOM, Accessibility: c.pol.Accessibility,
			History: c.pol.History, Storage: c.pol.Storage, Events: c.pol.Events,
			MaxEvents: c.pol.MaxEvents, MaxEventBytes: c.pol.MaxEventBytes, MaxSectionBytes: c.pol.MaxSectionBytes,
			MaxScreenshotBytes: c.pol.MaxScreenshotBytes, MaxTotalBytes: c.pol.MaxTotalBytes,
		},
		PreAttachGap:   r.info.Mode == ModeLiveConnected,
		RedactedInputs: []string{},
		Steps:          []receipt.CaptureStep{},
	}
	for i := range r.cap.Inputs {
		in := &r.cap.Inputs[i]
		v, ok := r.vals[in.Name]
		if !in.Secret || !ok || v.text == "" {
			continue
		}
		c.doc.RedactedInputs = append(c.doc.RedactedInputs, in.Name)
		marker := "[secret:" + in.Name + "]"
		for _, form := range []string{v.text, url.QueryEscape(v.text), url.PathEscape(v.text), html.EscapeString(v.text), jsonEscape(v.text)} {
			c.secrets = append(c.secrets, secretForm{form, marker})
		}
	}
	slices.Sort(c.doc.RedactedInputs)
	slices.SortStableFunc(c.secrets, func(a, b secretForm) int { return len(b.value) - len(a.value) })
	return c
}

// jsonEscape is s as it appears inside a JSON string.
func jsonEscape(s string) string {
	b, err := canonjson.Marshal(s)
	if err != nil || len(b) < 2 {
		return s
	}
	return string(b[1 : len(b)-1])
}

// redact replaces every form of every secret input value.
func (c *captureRec) redact(s string) string {
	for _, f := range c.secrets {
		if f.value != "" && strings.Contains(s, f.value) {
			s = strings.ReplaceAll(s, f.value, f.marker)
		}
	}
	return s
}

// captureCtx bounds one capture call: the caller's context (not the run's,
// so a run that timed out still records where it stopped).
func (r *run) captureCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.parent, captureTimeout)
}

// captureStart starts the driver's event observation, before the start
// navigation.
func (r *run) captureStart() {
	c := r.capt
	if c == nil || c.drv == nil {
		return
	}
	ctx, cancel := r.captureCtx()
	defer cancel()
	if err := c.drv.StartCapture(ctx); err != nil {
		r.log.Debug("vera capture start failed", "run", r.runID, "detail", err.Error())
		return
	}
	c.started = true
}

// captureInitial records the page after the start navigation, once.
func (r *run) captureInitial() {
	c := r.capt
	if c == nil || c.initial {
		return
	}
	c.initial = true
	c.doc.Initial = r.captureStep(0)
}

// captureAction records the page after an executed action.
func (r *run) captureAction(m *capability.Milestone, out *ActionOutcome) {
	c := r.capt
	if c == nil {
		return
	}
	r.captureInitial()
	if !c.secretEntered {
		for _, n := range r.cap.ApprovalInputs(m.ID, out.ID) {
			if v, ok := r.vals[n]; ok && v.secret {
				c.secretEntered = true
			}
		}
	}
	s := r.captureStep(len(c.doc.Steps) + 1)
	s.ActionID, s.Milestone, s.Visit, s.Operation, s.Status = out.ID, out.Milestone, out.Visit, out.Operation, string(out.Status)
	c.doc.Steps = append(c.doc.Steps, s)
}

// captureFinish stops the observation and returns the finished document.
func (r *run) captureFinish() *receipt.Capture {
	c := r.capt
	if c == nil {
		return nil
	}
	r.captureInitial()
	if c.started {
		ctx, cancel := r.captureCtx()
		if err := c.drv.StopCapture(ctx); err != nil {
			r.log.Debug("vera capture stop failed", "run", r.runID, "detail", err.Error())
		}
		cancel()
	}
	c.doc.Summarize()
	return &c.doc
}

// captureStep captures one step's sections and events.
func (r *run) captureStep(index int) receipt.CaptureStep {
	c := r.capt
	s := receipt.CaptureStep{Index: index, ElapsedMS: time.Since(r.started).Milliseconds()}
	ctx, cancel := r.captureCtx()
	defer cancel()
	raw, err := r.drv.URL(ctx)
	s.URL = c.text(sanitizeURL(raw), err, true)

	pol := c.pol
	req := SnapshotRequest{Screenshot: pol.Screenshot && !c.secretEntered, DOM: pol.DOM,
		Accessibility: pol.Accessibility, History: pol.History, Storage: pol.Storage}
	var snap *Snapshot
	var serr error
	switch {
	case c.drv == nil:
		serr = errUnsupportedCapture
	case !c.started:
		serr = errCaptureNotStarted
	default:
		snap, serr = c.drv.Snapshot(ctx, req)
		if serr == nil && snap == nil {
			serr = errCaptureNotStarted
		}
	}
	if serr != nil {
		r.log.Debug("vera capture snapshot failed", "run", r.runID, "detail", serr.Error())
		reason := receipt.CaptureReasonDriverError
		if serr == errUnsupportedCapture {
			reason = receipt.CaptureReasonUnsupported
		}
		miss := func(on bool) receipt.CaptureSection {
			if !on {
				return disabled(receipt.CaptureReasonPolicy)
			}
			return receipt.CaptureSection{State: receipt.CaptureMissing, Reason: reason}
		}
		s.Screenshot, s.DOM, s.Accessibility = miss(pol.Screenshot), miss(pol.DOM), miss(pol.Accessibility)
		s.History, s.Storage = miss(pol.History), miss(pol.Storage)
		if pol.Screenshot && c.secretEntered {
			s.Screenshot = disabled(receipt.CaptureReasonSecretInput)
		}
		s.Events = receipt.CaptureEvents{State: receipt.CaptureDisabled, Reason: receipt.CaptureReasonPolicy, Records: []receipt.CaptureEvent{}}
		if pol.Events {
			s.Events = receipt.CaptureEvents{State: receipt.CaptureMissing, Reason: reason, Records: []receipt.CaptureEvent{}}
		}
		return s
	}
	for _, e := range []struct {
		name string
		err  error
	}{{"screenshot", snap.ScreenshotErr}, {"dom", snap.DOMErr}, {"accessibility", snap.AccessibilityErr},
		{"history", snap.HistoryErr}, {"storage", snap.StorageErr}} {
		if e.err != nil {
			r.log.Debug("vera capture section failed", "run", r.runID, "step", index, "section", e.name, "detail", e.err.Error())
		}
	}
	if c.doc.Context.Viewport == "" {
		c.doc.Context.Viewport = snap.Viewport
	}
	switch {
	case !pol.Screenshot:
		s.Screenshot = disabled(receipt.CaptureReasonPolicy)
	case c.secretEntered:
		s.Screenshot = disabled(receipt.CaptureReasonSecretInput)
	default:
		s.Screenshot = c.binary(snap.Screenshot, snap.ScreenshotErr)
	}
	s.DOM = c.text(snap.DOM, snap.DOMErr, pol.DOM)
	s.Accessibility = c.text(snap.Accessibility, snap.AccessibilityErr, pol.Accessibility)
	s.History = c.text(historyText(snap.History, snap.HistoryIndex), snap.HistoryErr, pol.History)
	s.Storage = c.text(storageText(snap.Storage), snap.StorageErr, pol.Storage)
	s.Events = c.events(snap.Events, snap.EventsLost)
	return s
}

var (
	errUnsupportedCapture = errorString("driver does not implement runtime.Capturer")
	errCaptureNotStarted  = errorString("capture was not started")
)

type errorString string

func (e errorString) Error() string { return string(e) }

func disabled(reason string) receipt.CaptureSection {
	return receipt.CaptureSection{State: receipt.CaptureDisabled, Reason: reason}
}

// text is a redacted, bounded text section.
func (c *captureRec) text(content string, err error, on bool) receipt.CaptureSection {
	if !on {
		return disabled(receipt.CaptureReasonPolicy)
	}
	if err != nil {
		return receipt.CaptureSection{State: receipt.CaptureMissing, Reason: receipt.CaptureReasonDriverError}
	}
	content = strings.ToValidUTF8(c.redact(content), "\uFFFD")
	n, reason := c.bound(len(content), c.pol.MaxSectionBytes)
	kept := cutRunes(content, n)
	return c.section(len(content), []byte(kept), kept, reason)
}

// binary is a bounded screenshot section.
func (c *captureRec) binary(png []byte, err error) receipt.CaptureSection {
	if err != nil || len(png) == 0 {
		return receipt.CaptureSection{State: receipt.CaptureMissing, Reason: receipt.CaptureReasonDriverError}
	}
	// base64 takes 4/3 of the budget.
	kept, reason := c.boundEncoded(len(png))
	b := png[:kept]
	return c.section(len(png), b, base64.StdEncoding.EncodeToString(b), reason)
}

// bound returns how many of n bytes fit the section limit and the total
// budget, and the truncation reason ("" when all fit).
func (c *captureRec) bound(n, limit int) (int, string) {
	kept, reason := n, ""
	if kept > limit {
		kept, reason = limit, receipt.CaptureReasonSectionLimit
	}
	if left := c.pol.MaxTotalBytes - c.used; kept > left {
		kept, reason = max(left, 0), receipt.CaptureReasonTotalLimit
	}
	return kept, reason
}

func (c *captureRec) boundEncoded(n int) (int, string) {
	kept, reason := n, ""
	if kept > c.pol.MaxScreenshotBytes {
		kept, reason = c.pol.MaxScreenshotBytes, receipt.CaptureReasonSectionLimit
	}
	left := (c.pol.MaxTotalBytes - c.used) / 4 * 3
	if kept > left {
		kept, reason = max(left, 0), receipt.CaptureReasonTotalLimit
	}
	return kept, reason
}

func (c *captureRec) section(full int, kept []byte, content, reason string) receipt.CaptureSection {
	c.used += len(content)
	s := receipt.CaptureSection{State: receipt.CaptureCaptured, Bytes: full, SHA256: canonjson.SumBytes(kept), Content: content}
	if reason != "" {
		s.State, s.Reason = receipt.CaptureTruncated, reason
	}
	return s
}

// cutRunes returns s's first n bytes, shortened to a rune boundary.
func cutRunes(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// events bounds and redacts the events of one step.
func (c *captureRec) events(evs []PageEvent, lost int) receipt.CaptureEvents {
	if !c.pol.Events {
		return receipt.CaptureEvents{State: receipt.CaptureDisabled, Reason: receipt.CaptureReasonPolicy, Records: []receipt.CaptureEvent{}}
	}
	out := receipt.CaptureEvents{State: receipt.CaptureCaptured, Records: []receipt.CaptureEvent{}}
	reason := ""
	for _, e := range evs {
		c.seq++
		out.Total++
		rec := receipt.CaptureEvent{
			Seq: c.seq, Kind: e.Kind, Level: cutRunes(e.Level, receipt.MaxCodeLen), Method: cutRunes(e.Method, receipt.MaxCodeLen),
			Length: max(e.Length, 0),
		}
		if e.URL != "" {
			rec.URL = cutRunes(strings.ToValidUTF8(c.redact(sanitizeURL(e.URL)), "\uFFFD"), MaxCaptureEventText)
		}
		rec.Text = cutRunes(strings.ToValidUTF8(c.redact(e.Text), "\uFFFD"), MaxCaptureEventText)
		if len(out.Records) >= c.pol.MaxEvents || out.Bytes+rec.Size() > c.pol.MaxEventBytes {
			out.Omitted++
			reason = receipt.CaptureReasonEventLimit
			continue
		}
		out.Bytes += rec.Size()
		out.Records = append(out.Records, rec)
	}
	if lost > 0 {
		c.seq += lost
		out.Total += lost
		out.Omitted += lost
		reason = receipt.CaptureReasonDriverEventLimit
	}
	if out.Omitted > 0 {
		out.State, out.Reason = receipt.CaptureTruncated, reason
	}
	return out
}

// sanitizeURL keeps a URL's origin and path and its query names without
// values; the fragment and any user information are dropped. A URL
// without a host keeps its scheme only ("about:blank" stays itself).
func sanitizeURL(raw string) string {
	if raw == "" || raw == "about:blank" {
		return raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return ""
	}
	if u.Host == "" {
		return u.Scheme + ":"
	}
	var b strings.Builder
	b.WriteString(u.Scheme + "://" + u.Host + u.EscapedPath())
	if u.RawQuery != "" {
		var names []string
		for _, kv := range strings.Split(u.RawQuery, "&") {
			k, _, _ := strings.Cut(kv, "=")
			names = append(names, k+"=")
		}
		b.WriteString("?" + strings.Join(names, "&"))
	}
	return b.String()
}

// historyText renders the navigation history, one sanitized URL a line,
// the current entry marked "*".
func historyText(entries []string, current int) string {
	var b strings.Builder
	for i, e := range entries {
		mark := "  "
		if i == current {
			mark = "* "
		}
		b.WriteString(mark + sanitizeURL(e) + "\n")
	}
	return b.String()
}

// storageText renders storage entries sorted by area and key, one
// "area<TAB>key<TAB>value" a line (tabs and newlines inside escaped).
func storageText(items []StorageItem) string {
	items = slices.Clone(items)
	slices.SortFunc(items, func(a, b StorageItem) int {
		if c := strings.Compare(a.Area, b.Area); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
	esc := strings.NewReplacer("\\", "\\\\", "\t", "\\t", "\n", "\\n", "\r", "\\r")
	var b strings.Builder
	for _, it := range items {
		b.WriteString(it.Area + "\t" + esc.Replace(it.Key) + "\t" + esc.Replace(it.Value) + "\n")
	}
	return b.String()
}

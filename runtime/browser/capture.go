package browser

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// SnapshotSectionTimeout bounds each section of a Snapshot (within the
// caller's ctx), so one section that cannot be taken leaves the others.
const SnapshotSectionTimeout = 3 * time.Second

// MaxCaptureBuffer bounds the page events the driver buffers between two
// snapshots; later events are counted as lost (runtime.Snapshot.EventsLost).
const MaxCaptureBuffer = 20_000

var _ runtime.Capturer = (*Driver)(nil)

// capState is the driver's event observation for runtime.WithCapture.
type capState struct {
	mu     sync.Mutex
	events []runtime.PageEvent
	lost   int
	// downloads are the GUIDs of downloads begun in the driver's frames.
	downloads map[string]bool
	// internal are the sessions of browser-internal documents (chrome://
	// WebUI such as the omnibox popup, which new headless Chromium may
	// open in the driver's context): never the page's events.
	internal map[proto.TargetSessionID]bool
	remove   func()
	// baseEntry is the id of the page's last history entry when the
	// capture started (-1 when unknown): the history a snapshot reports
	// is the entries after it, the run's own.
	baseEntry int
}

// internalURL reports a browser-internal document.
func internalURL(u string) bool {
	for _, p := range []string{"chrome:", "chrome-untrusted:", "devtools:", "chrome-extension:", "chrome-search:"} {
		if strings.HasPrefix(u, p) {
			return true
		}
	}
	return false
}

func (c *capState) isInternal(sid proto.TargetSessionID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.internal[sid]
}

func (c *capState) add(e runtime.PageEvent) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.events) >= MaxCaptureBuffer {
		c.lost++
		return
	}
	c.events = append(c.events, e)
}

// take returns and clears the buffered events.
func (c *capState) take() ([]runtime.PageEvent, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	evs, lost := c.events, c.lost
	c.events, c.lost = nil, 0
	return evs, lost
}

// capturing returns the active observation, nil when none.
func (d *Driver) capturing() *capState {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.capt
}

// StartCapture implements [runtime.Capturer]: it enables the Runtime and
// Network domains on the page and every target the driver owns (and on
// every target attached later, before it runs), and observes console
// messages, exceptions, requests, WebSockets, frames, workers, popups and
// cancelled downloads. Events reported while enabling (messages the
// browser replays from before) are discarded.
func (d *Driver) StartCapture(ctx context.Context) error {
	ctx, done, err := d.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	c := &capState{downloads: map[string]bool{}, internal: map[proto.TargetSessionID]bool{}}
	var infos proto.TargetGetTargetsResult
	if err := d.call(ctx, "", proto.TargetGetTargets{}, &infos); err != nil {
		return err
	}
	urls := map[proto.TargetTargetID]string{}
	for _, ti := range infos.TargetInfos {
		urls[ti.TargetID] = ti.URL
	}
	d.mu.Lock()
	if d.capt != nil {
		d.mu.Unlock()
		return fmt.Errorf("%w: capture already started", runtime.ErrInvalidArgument)
	}
	d.capt = c
	var sids []proto.TargetSessionID
	for sid, t := range d.targets {
		if internalURL(urls[t.id]) {
			c.internal[sid] = true
			continue
		}
		sids = append(sids, sid)
	}
	d.mu.Unlock()
	c.baseEntry = -1
	var hist proto.PageGetNavigationHistoryResult
	if d.call(ctx, d.pageSIDNow(), proto.PageGetNavigationHistory{}, &hist) == nil && len(hist.Entries) > 0 {
		c.baseEntry = hist.Entries[len(hist.Entries)-1].ID
	}
	c.remove = d.addWaiter(func(ev *cdp.Event) { d.onCaptureEvent(c, ev) })
	for _, sid := range sids {
		d.enableCapture(ctx, sid)
	}
	if err := ctx.Err(); err != nil {
		_ = d.StopCapture(context.WithoutCancel(ctx))
		return err
	}
	c.take()
	return nil
}

func (d *Driver) pageSIDNow() proto.TargetSessionID {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.pageSID
}

// enableCapture enables the event domains on one session (best effort: a
// target that went away has nothing to observe).
func (d *Driver) enableCapture(ctx context.Context, sid proto.TargetSessionID) {
	if err := d.call(ctx, sid, proto.RuntimeEnable{}, nil); err != nil {
		d.log.Debug("capture: runtime events not available", "err", err)
	}
	if err := d.call(ctx, sid, proto.NetworkEnable{}, nil); err != nil {
		d.log.Debug("capture: network events not available", "err", err)
	}
}

// captureAttached enables capture on a newly attached target of the
// driver's context, before it runs (called from onAttached); a
// browser-internal document is marked and left alone.
func (d *Driver) captureAttached(ctx context.Context, sid proto.TargetSessionID, url string) {
	c := d.capturing()
	if c == nil {
		return
	}
	if internalURL(url) {
		c.mu.Lock()
		c.internal[sid] = true
		c.mu.Unlock()
		return
	}
	d.enableCapture(ctx, sid)
}

// StopCapture implements [runtime.Capturer]: it stops the observation and
// disables the Runtime domain again (Network stays on for Settle). It is
// idempotent.
func (d *Driver) StopCapture(ctx context.Context) error {
	if ctx == nil {
		return errNilContext
	}
	d.mu.Lock()
	c := d.capt
	d.capt = nil
	var sids []proto.TargetSessionID
	for sid := range d.targets {
		sids = append(sids, sid)
	}
	closed := d.closed || d.closing
	d.mu.Unlock()
	if c == nil {
		return nil
	}
	c.remove()
	if closed {
		return nil
	}
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return nil // nothing left to disable
	}
	defer done()
	// Network stays enabled: Settle follows the page's fetch and XHR
	// loads through it (events.go, causal.loads).
	for _, sid := range sids {
		_ = d.call(cctx, sid, proto.RuntimeDisable{}, nil)
	}
	return nil
}

// onCaptureEvent turns one CDP event of the driver's targets into a page
// event. It runs on the event loop and never blocks or calls.
func (d *Driver) onCaptureEvent(c *capState, ev *cdp.Event) {
	sid := proto.TargetSessionID(ev.SessionID)
	if sid != "" && ev.Method != "Target.attachedToTarget" && (d.targetOf(sid) == nil || c.isInternal(sid)) {
		return
	}
	switch ev.Method {
	case "Runtime.consoleAPICalled":
		var e struct {
			Type string            `json:"type"`
			Args []json.RawMessage `json:"args"`
		}
		if decode(ev, &e) {
			c.add(runtime.PageEvent{Kind: receipt.EventConsole, Level: e.Type, Text: consoleText(e.Args)})
		}
	case "Runtime.exceptionThrown":
		var e proto.RuntimeExceptionThrown
		if decode(ev, &e) && e.ExceptionDetails != nil {
			c.add(runtime.PageEvent{Kind: receipt.EventPageError, Text: exceptionText(e.ExceptionDetails), URL: e.ExceptionDetails.URL})
		}
	case "Network.requestWillBeSent":
		var e proto.NetworkRequestWillBeSent
		if decode(ev, &e) && e.Request != nil {
			c.add(runtime.PageEvent{Kind: receipt.EventRequest, Level: string(e.Type), Method: e.Request.Method, URL: e.Request.URL})
		}
	case "Network.webSocketCreated":
		var e proto.NetworkWebSocketCreated
		if decode(ev, &e) {
			c.add(runtime.PageEvent{Kind: receipt.EventWebSocket, URL: e.URL})
		}
	case "Network.webSocketFrameSent", "Network.webSocketFrameReceived":
		var e struct {
			Response *struct {
				Opcode      float64 `json:"opcode"`
				PayloadData string  `json:"payloadData"`
			} `json:"response"`
		}
		if decode(ev, &e) && e.Response != nil {
			kind := receipt.EventWebSocketSent
			if ev.Method == "Network.webSocketFrameReceived" {
				kind = receipt.EventWebSocketRecv
			}
			n := len(e.Response.PayloadData)
			if e.Response.Opcode != 1 { // binary frames are base64
				if b, err := base64.StdEncoding.DecodeString(e.Response.PayloadData); err == nil {
					n = len(b)
				}
			}
			c.add(runtime.PageEvent{Kind: kind, Level: "opcode_" + strconv.Itoa(int(e.Response.Opcode)), Length: n})
		}
	case "Page.frameNavigated":
		var e proto.PageFrameNavigated
		if decode(ev, &e) && e.Frame != nil && e.Frame.ParentID != "" {
			c.add(runtime.PageEvent{Kind: receipt.EventFrame, URL: e.Frame.URL})
		}
	case "Target.attachedToTarget":
		var e proto.TargetAttachedToTarget
		if !decode(ev, &e) || e.TargetInfo == nil {
			return
		}
		nt := d.targetOf(e.SessionID)
		if nt == nil || internalURL(e.TargetInfo.URL) || c.isInternal(sid) {
			return
		}
		switch nt.kind {
		case kindPopup:
			c.add(runtime.PageEvent{Kind: receipt.EventPopup, URL: e.TargetInfo.URL})
		case kindWorker:
			c.add(runtime.PageEvent{Kind: receipt.EventWorker, Level: string(e.TargetInfo.Type), URL: e.TargetInfo.URL})
		}
	case "Browser.downloadWillBegin":
		var e proto.BrowserDownloadWillBegin
		if sid == "" && decode(ev, &e) {
			d.mu.Lock()
			ours := d.frames[e.FrameID] || e.FrameID == proto.PageFrameID(d.pageTarget)
			d.mu.Unlock()
			if ours {
				c.mu.Lock()
				c.downloads[e.GUID] = true
				c.mu.Unlock()
			}
		}
	case "Browser.downloadProgress":
		var e proto.BrowserDownloadProgress
		if sid == "" && decode(ev, &e) && e.State == proto.BrowserDownloadProgressStateCanceled {
			c.mu.Lock()
			ours := c.downloads[e.GUID]
			delete(c.downloads, e.GUID)
			c.mu.Unlock()
			if ours {
				c.add(runtime.PageEvent{Kind: receipt.EventDownloadCanceled})
			}
		}
	}
}

// consoleText renders console arguments: strings as themselves, other
// values as JSON, objects by their description.
func consoleText(args []json.RawMessage) string {
	parts := make([]string, 0, len(args))
	for _, raw := range args {
		var a struct {
			Type        string          `json:"type"`
			Value       json.RawMessage `json:"value"`
			Description string          `json:"description"`
		}
		if json.Unmarshal(raw, &a) != nil {
			continue
		}
		var s string
		switch {
		case a.Type == "string" && json.Unmarshal(a.Value, &s) == nil:
		case len(a.Value) > 0:
			s = string(a.Value)
		case a.Description != "":
			s = a.Description
		default:
			s = a.Type
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// Snapshot implements [runtime.Capturer] on the top-level page: a PNG of
// the viewport (Page.captureScreenshot), the document's serialization
// (DOM.getOuterHTML of the document), the full accessibility tree
// (Accessibility.getFullAXTree) as indented text, the navigation history
// (Page.getNavigationHistory), the top-level origin's local and session
// storage (DOMStorage.getDOMStorageItems), and the events observed since
// the last snapshot.
func (d *Driver) Snapshot(ctx context.Context, req runtime.SnapshotRequest) (*runtime.Snapshot, error) {
	c := d.capturing()
	if c == nil {
		return nil, fmt.Errorf("%w: capture not started", runtime.ErrInvalidArgument)
	}
	ctx, done, err := d.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	d.mu.Lock()
	sid, pageURL := d.pageSID, d.url
	d.mu.Unlock()
	s := &runtime.Snapshot{}
	// Each section has its own share of the deadline, so one that hangs
	// (a screenshot of a page hidden behind a popup waits for a frame
	// that never comes) is missing alone, never the others.
	outer := ctx
	section := func() (context.Context, context.CancelFunc) {
		return context.WithTimeout(outer, SnapshotSectionTimeout)
	}
	if req.Screenshot {
		ctx, cancel := section()
		defer cancel()
		var res struct {
			Data []byte `json:"data"`
		}
		s.ScreenshotErr = d.call(ctx, sid, proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng}, &res)
		s.Screenshot = res.Data
		var lm proto.PageGetLayoutMetricsResult
		if d.call(ctx, sid, proto.PageGetLayoutMetrics{}, &lm) == nil && lm.CSSLayoutViewport != nil {
			s.Viewport = strconv.Itoa(lm.CSSLayoutViewport.ClientWidth) + "x" + strconv.Itoa(lm.CSSLayoutViewport.ClientHeight)
		}
	}
	if req.DOM {
		ctx, cancel := section()
		s.DOM, s.DOMErr = d.outerHTML(ctx, sid)
		cancel()
	}
	if req.Accessibility {
		ctx, cancel := section()
		s.Accessibility, s.AccessibilityErr = d.axText(ctx, sid)
		cancel()
	}
	if req.History {
		ctx, cancel := section()
		defer cancel()
		var res proto.PageGetNavigationHistoryResult
		s.HistoryErr = d.call(ctx, sid, proto.PageGetNavigationHistory{}, &res)
		// Only the entries after the capture's start are the run's; when
		// the base entry is gone (pruned), every entry is reported.
		first := 0
		for i, e := range res.Entries {
			if e.ID == c.baseEntry {
				first = i + 1
			}
		}
		s.HistoryIndex = res.CurrentIndex - first
		for _, e := range res.Entries[first:] {
			s.History = append(s.History, e.URL)
		}
	}
	if req.Storage {
		ctx, cancel := section()
		s.Storage, s.StorageErr = d.storage(ctx, sid, pageURL)
		cancel()
	}
	// The events last, so those the captures themselves caused (none
	// should) are the next step's, never lost.
	s.Events, s.EventsLost = c.take()
	return s, nil
}

// outerHTML serializes the top-level document.
func (d *Driver) outerHTML(ctx context.Context, sid proto.TargetSessionID) (string, error) {
	var ev proto.RuntimeEvaluateResult
	if err := d.call(ctx, sid, proto.RuntimeEvaluate{Expression: "document", ObjectGroup: objectGroup}, &ev); err != nil {
		return "", err
	}
	if ev.Result == nil || ev.Result.ObjectID == "" {
		return "", fmt.Errorf("no document")
	}
	var res proto.DOMGetOuterHTMLResult
	if err := d.call(ctx, sid, proto.DOMGetOuterHTML{ObjectID: ev.Result.ObjectID}, &res); err != nil {
		return "", err
	}
	return res.OuterHTML, nil
}

// axNode is the part of an Accessibility.AXNode the text form uses.
type axNode struct {
	NodeID   string   `json:"nodeId"`
	Ignored  bool     `json:"ignored"`
	Role     *axValue `json:"role"`
	Name     *axValue `json:"name"`
	Value    *axValue `json:"value"`
	ParentID string   `json:"parentId"`
	ChildIDs []string `json:"childIds"`
}

type axValue struct {
	Value json.RawMessage `json:"value"`
}

func (v *axValue) text() string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(v.Value, &s) == nil {
		return s
	}
	return string(v.Value)
}

// axText renders the full accessibility tree: one line per node that is
// not ignored, indented two spaces per depth, role then the quoted name
// and value when present.
func (d *Driver) axText(ctx context.Context, sid proto.TargetSessionID) (string, error) {
	var res struct {
		Nodes []axNode `json:"nodes"`
	}
	if err := d.call(ctx, sid, proto.AccessibilityGetFullAXTree{}, &res); err != nil {
		return "", err
	}
	byID := make(map[string]*axNode, len(res.Nodes))
	for i := range res.Nodes {
		byID[res.Nodes[i].NodeID] = &res.Nodes[i]
	}
	var b strings.Builder
	seen := map[string]bool{}
	var walk func(n *axNode, depth int)
	walk = func(n *axNode, depth int) {
		if seen[n.NodeID] || depth > 512 {
			return
		}
		seen[n.NodeID] = true
		next := depth
		if !n.Ignored {
			b.WriteString(strings.Repeat("  ", depth) + n.Role.text())
			if name := n.Name.text(); name != "" {
				b.WriteString(" " + strconv.Quote(name))
			}
			if v := n.Value.text(); v != "" {
				b.WriteString(" value=" + strconv.Quote(v))
			}
			b.WriteString("\n")
			next++
		}
		for _, id := range n.ChildIDs {
			if ch := byID[id]; ch != nil {
				walk(ch, next)
			}
		}
	}
	for i := range res.Nodes {
		if n := &res.Nodes[i]; n.ParentID == "" {
			walk(n, 0)
		}
	}
	return b.String(), nil
}

// storage reads the local and session storage of the page's origin.
func (d *Driver) storage(ctx context.Context, sid proto.TargetSessionID, pageURL string) ([]runtime.StorageItem, error) {
	u, err := url.Parse(pageURL)
	if err != nil || u.Host == "" {
		return nil, nil // an opaque document (about:blank) has no storage
	}
	origin := u.Scheme + "://" + u.Host
	var items []runtime.StorageItem
	for _, local := range []bool{true, false} {
		var res proto.DOMStorageGetDOMStorageItemsResult
		err := d.call(ctx, sid, proto.DOMStorageGetDOMStorageItems{StorageID: &proto.DOMStorageStorageID{SecurityOrigin: origin, IsLocalStorage: local}}, &res)
		if err != nil {
			return nil, err
		}
		area := "session"
		if local {
			area = "local"
		}
		for _, it := range res.Entries {
			if len(it) == 2 {
				items = append(items, runtime.StorageItem{Area: area, Key: it[0], Value: it[1]})
			}
		}
	}
	return items, nil
}

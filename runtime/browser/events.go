package browser

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/runtime"
)

// targetKind says how an attached target relates to the driver's page.
type targetKind int

const (
	kindPage       targetKind = iota // the driver's page
	kindFrame                        // an out-of-process frame of the page
	kindPopup                        // a page opened by the page (window.open, target=_blank)
	kindPopupFrame                   // a frame of a popup
	kindWorker                       // a worker or anything else in the context
)

// document reports whether a target of kind k shows a document: the
// page, a popup, or an out-of-process frame of either.
func (k targetKind) document() bool { return k != kindWorker }

// target is one target the driver attached to through auto-attach. Its
// session carries the request interception and, for pages and frames,
// every DOM, Runtime, Accessibility and Input command.
type target struct {
	sid  proto.TargetSessionID
	id   proto.TargetTargetID
	typ  proto.TargetTargetInfoType
	kind targetKind
	// policyScript is the connect-policy script installed on a page or
	// frame target (guarded by Driver.mu).
	policyScript proto.PageScriptIdentifier
	// loads is set once the renderer reports the target's fetch and XHR
	// loads (Network enabled; guarded by Driver.mu): Settle follows them
	// to the end of their body (causal.loads), not only to the
	// interceptor's response. On a worker it means the worker's own
	// fetch and XHR loads are followed (causal.wloads).
	loads bool
	// owner is the document a dedicated worker serves (the frame that
	// created it; see ownerLocked); zero for every other target.
	owner frameKey
	// scriptLoaded and setUp (guarded by Driver.mu) decide a worker for
	// the barrier: its interception is installed and it runs (setUp),
	// and its script has loaded (Inspector.workerScriptLoaded), so a
	// worker check can run in it and what its script starts is reported.
	scriptLoaded, setUp bool
}

// workerType reports whether a target type is a worker that runs
// script: a dedicated, shared or service worker.
func workerType(typ proto.TargetTargetInfoType) bool {
	switch typ {
	case targetTypeWorker, targetTypeSharedWorker, targetTypeServiceWorker:
		return true
	}
	return false
}

// localScheme reports whether raw is a blob: or data: URL: the browser
// serves it itself, without a network request the interceptor could pause.
func localScheme(raw string) bool {
	i := strings.IndexByte(raw, ':')
	if i < 0 {
		return false
	}
	switch strings.ToLower(raw[:i]) {
	case "blob", "data":
		return true
	}
	return false
}

// eventLoop reads every CDP event. It never makes a CDP call itself: the
// client delivers responses and events on one reader goroutine, so a call
// made here could deadlock. Work that needs calls runs in goroutines.
// Between events it closes the fences posted to it (dispatched).
func (d *Driver) eventLoop() {
	defer d.wg.Done()
	defer close(d.loopDone)
	events := d.cdp.Event()
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				d.markCrashed("connection to the browser closed")
				return
			}
			if h := d.dispatchHook.Load(); h != nil {
				(*h)(ev)
			}
			d.dispatch(ev)
		case f := <-d.fences:
			close(f)
		}
	}
}

// dispatched returns once the event loop has dispatched every event the
// connection delivered before the call: a response the caller has
// received came after them on the wire, and the client's reader hands
// each event to the loop (an unbuffered send) before it reads the next
// message, but the loop may still be dispatching the last one when the
// response reaches its caller. Settle fences each round trip so that
// what the page reported before answering is counted (an act's fetch
// reported just before the first round trip's answer is the act's, and
// a causal event just before a confirming round trip's answer sends it
// round again). It returns at once when the loop has ended, and
// ctx.Err() when ctx ends first.
func (d *Driver) dispatched(ctx context.Context) error {
	f := make(chan struct{})
	select {
	case d.fences <- f:
	case <-d.loopDone:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-f:
	case <-d.loopDone:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// goHandle runs fn in a goroutine that Close waits for.
func (d *Driver) goHandle(fn func()) {
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		fn()
	}()
}

func decode(ev *cdp.Event, v any) bool { return json.Unmarshal(ev.Params, v) == nil }

func (d *Driver) dispatch(ev *cdp.Event) {
	sid := proto.TargetSessionID(ev.SessionID)
	switch ev.Method {
	case "Fetch.requestPaused":
		var e proto.FetchRequestPaused
		if decode(ev, &e) {
			d.onRequest(sid, &e)
		}
	case "Target.attachedToTarget":
		var e proto.TargetAttachedToTarget
		if decode(ev, &e) && e.TargetInfo != nil {
			// go-rod's TargetInfo lacks parentFrameId: the frame that
			// created a dedicated worker.
			var p struct {
				TargetInfo struct {
					ParentFrameID proto.PageFrameID `json:"parentFrameId"`
				} `json:"targetInfo"`
			}
			_ = json.Unmarshal(ev.Params, &p)
			d.onAttached(sid, &e, p.TargetInfo.ParentFrameID)
		}
	case "Target.detachedFromTarget":
		var e proto.TargetDetachedFromTarget
		if decode(ev, &e) {
			d.onDetached(e.SessionID)
		}
	case "Target.targetDestroyed":
		var e proto.TargetTargetDestroyed
		if decode(ev, &e) && e.TargetID != "" && e.TargetID == d.pageTargetID() {
			d.markCrashed("page target destroyed")
		}
	case "Target.targetCrashed":
		var e proto.TargetTargetCrashed
		if decode(ev, &e) && e.TargetID != "" && e.TargetID == d.pageTargetID() {
			d.markCrashed("page renderer crashed")
		}
	case "Inspector.targetCrashed":
		if t := d.targetOf(sid); t != nil && t.kind == kindPage {
			d.markCrashed("page renderer crashed")
		}
	case "Page.javascriptDialogOpening":
		var e proto.PageJavascriptDialogOpening
		if t := d.targetOf(sid); t != nil && (t.kind == kindPage || t.kind == kindFrame) && decode(ev, &e) {
			d.onDialog(string(e.Type))
		}
	case "Page.javascriptDialogClosed":
		if t := d.targetOf(sid); t != nil && (t.kind == kindPage || t.kind == kindFrame) {
			d.mu.Lock()
			d.dialog = ""
			d.mu.Unlock()
		}
	case "Page.frameRequestedNavigation":
		var e proto.PageFrameRequestedNavigation
		if d.targetOf(sid) != nil && decode(ev, &e) {
			if e.Disposition == "" || e.Disposition == proto.PageClientNavigationDispositionCurrentTab {
				d.navRequested(sid, e.FrameID, e.URL)
			} else {
				d.noteCausal() // a new window or download: its own events follow
			}
		}
	case "Page.frameScheduledNavigation", "Page.frameStartedLoading":
		var e struct {
			FrameID proto.PageFrameID `json:"frameId"`
		}
		if d.targetOf(sid) != nil && decode(ev, &e) {
			if ev.Method == "Page.frameStartedLoading" {
				d.loadStart(sid, e.FrameID)
			} else {
				d.navStart(sid, e.FrameID)
			}
		}
	case "Page.frameClearedScheduledNavigation", "Page.frameStoppedLoading":
		var e struct {
			FrameID proto.PageFrameID `json:"frameId"`
		}
		if d.targetOf(sid) != nil && decode(ev, &e) {
			if ev.Method == "Page.frameClearedScheduledNavigation" {
				d.navCleared(sid, e.FrameID)
			} else {
				d.navStopped(sid, e.FrameID)
			}
		}
	case "Page.lifecycleEvent":
		var e proto.PageLifecycleEvent
		if d.targetOf(sid) != nil && decode(ev, &e) && e.Name == "load" {
			d.loadFired(sid, e.FrameID, e.LoaderID)
		}
	case "Page.frameAttached":
		var e proto.PageFrameAttached
		if t := d.targetOf(sid); t != nil && (t.kind == kindPage || t.kind == kindFrame) && decode(ev, &e) {
			d.mu.Lock()
			d.frames[e.FrameID] = true
			d.mu.Unlock()
		}
	case "Page.frameNavigated":
		var e proto.PageFrameNavigated
		t := d.targetOf(sid)
		if t == nil || t.kind == kindWorker || !decode(ev, &e) || e.Frame == nil {
			break
		}
		d.mu.Lock()
		d.commitViolationLocked(t, e.Frame)
		if t.kind == kindPage || t.kind == kindFrame {
			d.frames[e.Frame.ID] = true
			d.invalidateFrameLocked(e.Frame.ID)
			// The act's navigation of this frame committed.
			delete(d.causal.actNavs, frameKey{sid, e.Frame.ID})
			if e.Frame.ParentID == "" {
				// A new top document of this target: every handle of
				// the session is gone, its child frames' included. A
				// cross-process navigation sends no frameDetached for the
				// old process's frames, and the new renderer's backend
				// node ids restart, so a kept handle would alias a new
				// node with a dead object.
				d.invalidateSessionLocked(sid)
				d.dropHelpersLocked(sid)
			}
			if t.kind == kindPage && e.Frame.ParentID == "" {
				d.url = e.Frame.URL + e.Frame.URLFragment
				d.topDoc = ""
			}
			d.causal.documentReplacedLocked(sid, e.Frame.ID, e.Frame.ParentID == "")
			d.causal.committedLocked(sid, e.Frame.ID, e.Frame.LoaderID, e.Frame.ParentID == "")
			d.causal.noteLocked()
		}
		d.mu.Unlock()
	case "Page.navigatedWithinDocument":
		var e proto.PageNavigatedWithinDocument
		if t := d.targetOf(sid); t != nil && t.kind != kindWorker && decode(ev, &e) {
			d.mu.Lock()
			d.epochs.adoptedLocked(e.FrameID)
			if t.kind == kindPage && e.FrameID == proto.PageFrameID(t.id) {
				d.url = e.URL
				d.causal.noteLocked()
			}
			d.mu.Unlock()
		}
	case "Page.frameDetached":
		var e proto.PageFrameDetached
		if t := d.targetOf(sid); t != nil && decode(ev, &e) {
			d.mu.Lock()
			d.invalidateFrameLocked(e.FrameID)
			d.causal.documentReplacedLocked(sid, e.FrameID, false)
			d.causal.frameRemovedLocked(sid, e.FrameID, e.Reason != proto.PageFrameDetachedReasonSwap)
			d.mu.Unlock()
			d.navDone(sid, e.FrameID)
		}
	case "Network.requestWillBeSent":
		var e struct {
			RequestID        proto.NetworkRequestID    `json:"requestId"`
			LoaderID         proto.NetworkLoaderID     `json:"loaderId"`
			Type             proto.NetworkResourceType `json:"type"`
			FrameID          proto.PageFrameID         `json:"frameId"`
			RedirectResponse json.RawMessage           `json:"redirectResponse"`
			Request          struct {
				URL    string `json:"url"`
				Method string `json:"method"`
			} `json:"request"`
		}
		t := d.targetOf(sid)
		if t != nil && t.kind == kindWorker && workerType(t.typ) && decode(ev, &e) {
			if e.Type == proto.NetworkResourceTypeFetch || e.Type == proto.NetworkResourceTypeXHR {
				d.workerLoadSent(sid, e.RequestID)
			}
		} else if t != nil && t.kind != kindWorker && decode(ev, &e) && e.FrameID != "" {
			d.mu.Lock()
			d.epochs.announcedLocked(loadKey{sid, e.RequestID}, e.LoaderID)
			if e.Type == proto.NetworkResourceTypeDocument {
				d.epochs.navigationLocked(e.LoaderID)
			}
			d.mu.Unlock()
			switch {
			case e.Type == proto.NetworkResourceTypeFetch || e.Type == proto.NetworkResourceTypeXHR:
				d.loadSent(sid, e.RequestID, e.FrameID, e.Request.URL)
			case e.Type == proto.NetworkResourceTypeScript && e.LoaderID != "" && !localScheme(e.Request.URL) && d.causedNow(sid, e.FrameID):
				// A script the act's input asked for (a route's
				// code-split chunk): followed as an act-caused load to
				// its end, when it runs and starts what it was loaded
				// for (the route's data fetch, caused one link deep).
				// Followed only until the interceptor decided it, it
				// was still on the wire when Settle let go, and the old
				// view was read as the new one (TestUnseen3NavSPA
				// defer=chunk). Only a document's script: a dedicated
				// worker's main script is reported here too, without a
				// loader, while its answer and end are reported on the
				// worker's own session; followed, it held the Settle of
				// the click that started the worker to the action
				// timeout (TestCaptureTargetEvents).
				d.loadSent(sid, e.RequestID, e.FrameID, e.Request.URL)
			case e.Type == proto.NetworkResourceTypeDocument:
				// A navigation: the frame's load tracks it.
			default:
				// A blob: or data: URL never reaches the network, so the
				// interceptor never pauses it, and a blob: worker's
				// script load ends on the worker's session, not this one:
				// followed, it held the next Settle to the cap.
				if e.RedirectResponse == nil && !localScheme(e.Request.URL) {
					d.requestSent(sid, e.RequestID, e.FrameID)
				}
			}
		}
	case "Network.responseReceived":
		// The answer's headers: an act-caused load no longer holds
		// Settle past its cap (causal.caused).
		// Only decoded while an act-caused load awaits one.
		d.mu.Lock()
		awaited := len(d.causal.caused) > 0
		d.mu.Unlock()
		var e struct {
			RequestID proto.NetworkRequestID `json:"requestId"`
			Response  struct {
				Status  int             `json:"status"`
				Headers json.RawMessage `json:"headers"`
			} `json:"response"`
		}
		if awaited && sid != "" && decode(ev, &e) {
			// The headers are read only for a status pages retry (its
			// Retry-After).
			ra := ""
			if st := e.Response.Status; st == 408 || st == 429 || st >= 500 {
				var h proto.NetworkHeaders
				if json.Unmarshal(e.Response.Headers, &h) == nil {
					ra = headerValue(h, "Retry-After")
				}
			}
			d.loadAnswered(sid, e.RequestID, e.Response.Status, ra)
		}
	case "Network.loadingFinished", "Network.loadingFailed":
		var e struct {
			RequestID     proto.NetworkRequestID `json:"requestId"`
			ErrorText     string                 `json:"errorText"`
			Canceled      bool                   `json:"canceled"`
			BlockedReason string                 `json:"blockedReason"`
		}
		if sid != "" && decode(ev, &e) {
			if ev.Method == "Network.loadingFailed" && connectionLost(e.ErrorText, e.Canceled, e.BlockedReason) {
				d.loadLost(sid, e.RequestID, e.ErrorText)
			}
			d.loadEnded(sid, e.RequestID)
		}
	case "Network.webSocketFrameSent", "Network.webSocketFrameReceived", "Network.webSocketClosed", "Network.webSocketFrameError":
		var e struct {
			RequestID proto.NetworkRequestID `json:"requestId"`
		}
		if t := d.targetOf(sid); t != nil && t.kind.document() && decode(ev, &e) {
			d.socketEvent(sid, proto.PageFrameID(t.id), e.RequestID, ev.Method)
		}
	case "Inspector.workerScriptLoaded":
		d.workerScriptLoaded(sid)
	case "ServiceWorker.workerVersionUpdated":
		var e proto.ServiceWorkerWorkerVersionUpdated
		if t := d.targetOf(sid); t != nil && t.kind == kindPage && decode(ev, &e) {
			d.mu.Lock()
			for _, v := range e.Versions {
				if v != nil {
					d.causal.swVersionLocked(v)
				}
			}
			d.mu.Unlock()
		}
	case "Audits.issueAdded":
		var e proto.AuditsIssueAdded
		if decode(ev, &e) {
			d.onIssue(sid, &e)
		}
	case "Browser.downloadWillBegin":
		var e proto.BrowserDownloadWillBegin
		if sid == "" && decode(ev, &e) {
			d.onDownloadBegin(&e)
			d.noteCausal()
		}
	case "Browser.downloadProgress":
		var e proto.BrowserDownloadProgress
		if sid == "" && decode(ev, &e) {
			d.onDownloadProgress(&e)
		}
	}
	d.mu.Lock()
	ws := make([]func(*cdp.Event), 0, len(d.waiters))
	for _, w := range d.waiters {
		ws = append(ws, w)
	}
	d.mu.Unlock()
	for _, w := range ws {
		w(ev)
	}
}

func (d *Driver) pageTargetID() proto.TargetTargetID {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.pageTarget
}

func (d *Driver) targetOf(sid proto.TargetSessionID) *target {
	if sid == "" {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.targets[sid]
}

// addWaiter registers fn to see every event after the loop's own
// handling; fn must not block. The returned func removes it.
func (d *Driver) addWaiter(fn func(*cdp.Event)) func() {
	d.mu.Lock()
	d.nextID++
	id := d.nextID
	d.waiters[id] = fn
	d.mu.Unlock()
	return func() {
		d.mu.Lock()
		delete(d.waiters, id)
		d.mu.Unlock()
	}
}

// onAttached classifies a newly attached target. Targets of other browser
// contexts (an operator's own tabs, in connect mode) are resumed and
// detached at once. Targets of the driver's context get request
// interception, then nested auto-attach, then run.
//
// A dedicated worker's owner is parentFrame of the parent session (the
// frame that created it), or its parent worker's owner.
func (d *Driver) onAttached(parent proto.TargetSessionID, e *proto.TargetAttachedToTarget, parentFrame proto.PageFrameID) {
	info := e.TargetInfo
	d.mu.Lock()
	ours := d.browserCtxID != "" && info.BrowserContextID == d.browserCtxID
	// An adopted target (a Browser's driver, attach.go) is held by the
	// host's attacher, not by this session: release lets it run.
	release := d.adopted[info.TargetID]
	delete(d.adopted, info.TargetID)
	if release != nil {
		// The barrier's wait moves to this session (below).
		delete(d.causal.targets, adoptKey(info.TargetID))
	}
	if !ours {
		d.foreign++
	}
	var kind targetKind
	if ours {
		switch {
		case parent == "" && info.Type == proto.TargetTargetInfoTypePage:
			if d.pageTarget == "" || d.pageTarget == info.TargetID {
				d.pageTarget = info.TargetID
				d.pageSID = e.SessionID
				kind = kindPage
			} else {
				kind = kindPopup
			}
		case info.Type == targetTypeIframe:
			kind = kindFrame
			if pt := d.targets[parent]; pt != nil && (pt.kind == kindPopup || pt.kind == kindPopupFrame) {
				kind = kindPopupFrame
			}
		default:
			kind = kindWorker
		}
		t := &target{sid: e.SessionID, id: info.TargetID, typ: info.Type, kind: kind}
		if pt := d.targets[parent]; pt != nil && info.Type == targetTypeWorker {
			switch {
			case pt.kind == kindWorker:
				t.owner = pt.owner
			case parentFrame != "":
				t.owner = frameKey{parent, parentFrame}
			default:
				t.owner = frameKey{parent, proto.PageFrameID(pt.id)}
			}
		}
		d.targets[e.SessionID] = t
		d.byTarget[info.TargetID] = t
		if kind == kindFrame {
			d.frames[proto.PageFrameID(info.TargetID)] = true
		}
		if kind != kindPage {
			// Held by the causal barrier until it runs (a popup: until
			// its first document is decided).
			d.causal.targets[e.SessionID] = time.Now()
		}
		d.causal.noteLocked()
	}
	d.mu.Unlock()
	sid := e.SessionID
	waiting := e.WaitingForDebugger
	// resume lets the target run: this session's debugger pause, or the
	// attacher's hold of an adopted target.
	resume := func() {
		if waiting {
			_ = d.call(d.lifeCtx, sid, proto.RuntimeRunIfWaitingForDebugger{}, nil)
			waiting = false
		}
		if release != nil {
			release()
			release = nil
		}
	}
	d.goHandle(func() {
		ctx := d.lifeCtx
		if !ours {
			resume()
			_ = d.call(ctx, "", proto.TargetDetachFromTarget{SessionID: sid}, nil)
			return
		}
		// Fetch and XHR responses pause too, so that Settle waits for
		// the data an act asked for (see causal.responses).
		fetch := func() {
			if err := d.call(ctx, sid, proto.FetchEnable{Patterns: []*proto.FetchRequestPattern{
				{URLPattern: "*", RequestStage: proto.FetchRequestStageRequest},
				{URLPattern: "*", ResourceType: proto.NetworkResourceTypeFetch, RequestStage: proto.FetchRequestStageResponse},
				{URLPattern: "*", ResourceType: proto.NetworkResourceTypeXHR, RequestStage: proto.FetchRequestStageResponse},
			}}, nil); err != nil {
				d.log.Debug("request interception not available", "target_type", string(info.Type), "err", err)
			}
		}
		// Audits reports the connections the connect-src policy refused
		// (WebSockets above all), so they become violations. A paused
		// service worker answers Audits.enable only once it runs (waiting
		// here kept its registration from ever settling): it is resumed
		// first; its connections are the network gate's to refuse.
		audits := func() {
			if err := d.call(ctx, sid, proto.AuditsEnable{}, nil); err != nil {
				d.log.Debug("issue reports not available", "target_type", string(info.Type), "err", err)
			}
		}
		// A worker's own fetch and XHR loads are followed by the barrier
		// (causal.wloads): enabled before it runs, except for a service
		// worker, which is already running (see above).
		followLoads := func() {
			if err := d.call(ctx, sid, proto.NetworkEnable{}, nil); err != nil {
				d.log.Debug("worker load events not available", "target_type", string(info.Type), "err", err)
				return
			}
			d.mu.Lock()
			if t := d.targets[sid]; t != nil {
				t.loads = true
			}
			d.mu.Unlock()
		}
		script := kind == kindWorker && workerType(info.Type)
		if info.Type == proto.TargetTargetInfoTypePage || info.Type == targetTypeIframe {
			// A page or frame is paused until resume below: its set-up
			// commands are independent of each other, so they are sent
			// at once and all answered before it runs (one round trip
			// to a renderer that is still starting, not ten).
			var wg sync.WaitGroup
			wg.Go(fetch)
			wg.Go(audits)
			wg.Go(func() { _ = d.call(ctx, sid, proto.PageEnable{}, nil) })
			// The renderer reports the page's fetch and XHR loads, for
			// Settle (causal.loads).
			wg.Go(func() {
				if err := d.call(ctx, sid, proto.NetworkEnable{}, nil); err != nil {
					d.log.Debug("load events not available", "target_type", string(info.Type), "err", err)
					return
				}
				d.mu.Lock()
				if t := d.targets[sid]; t != nil {
					t.loads = true
				}
				d.mu.Unlock()
			})
			if kind == kindPage {
				// The context's service worker versions, for Settle
				// (causal.sw): one call at set-up, none per action.
				wg.Go(func() {
					if err := d.call(ctx, sid, proto.ServiceWorkerEnable{}, nil); err != nil {
						d.log.Debug("service worker events not available", "err", err)
					}
				})
				wg.Go(func() { _ = d.call(ctx, sid, proto.PageSetLifecycleEventsEnabled{Enabled: true}, nil) })
				wg.Go(func() { _ = d.call(ctx, sid, proto.EmulationSetFocusEmulationEnabled{Enabled: true}, nil) })
			}
			if kind == kindPage || kind == kindPopup {
				// WithViewport, before the page or popup runs; the page's
				// failure fails setup (a run at the wrong size would pass
				// as one at the right size).
				wg.Go(func() {
					if err := d.applyViewport(ctx, sid); err != nil {
						d.log.Warn("viewport not set", "target_type", string(info.Type), "err", err)
						if kind == kindPage {
							d.mu.Lock()
							d.viewportErr = err
							d.mu.Unlock()
						}
					}
				})
			}
			wg.Go(func() {
				_ = d.call(ctx, sid, proto.TargetSetAutoAttach{AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true}, nil)
			})
			wg.Wait()
			d.mu.Lock()
			t, csp := d.targets[sid], ""
			if d.origins != nil {
				csp = d.origins.csp
			}
			d.mu.Unlock()
			if t != nil && csp != "" {
				if err := d.installPolicy(ctx, t, csp); err != nil {
					d.log.Debug("connect policy not installed", "target_type", string(info.Type), "err", err)
				}
			}
		} else {
			fetch()
			if info.Type == targetTypeServiceWorker {
				resume()
			}
			if script {
				followLoads()
			}
			audits()
		}
		d.captureAttached(ctx, sid, info.URL)
		resume()
		switch {
		case script:
			d.mu.Lock()
			if t := d.targets[sid]; t != nil {
				t.setUp = true
				d.workerDecidedLocked(t)
			}
			d.mu.Unlock()
		case kind != kindPopup:
			d.mu.Lock()
			d.targetDecidedLocked(sid)
			d.mu.Unlock()
		}
		if kind == kindPage {
			select {
			case <-d.pageReady:
			default:
				close(d.pageReady)
			}
		}
	})
}

// workerScriptLoaded records that the script of worker session sid
// loaded (Inspector.workerScriptLoaded).
func (d *Driver) workerScriptLoaded(sid proto.TargetSessionID) {
	d.mu.Lock()
	if t := d.targets[sid]; t != nil && t.kind == kindWorker && workerType(t.typ) {
		t.scriptLoaded = true
		d.workerDecidedLocked(t)
	}
	d.mu.Unlock()
}

// workerDecidedLocked ends the barrier's wait for worker t once it is set
// up and its script loaded, and asks for a worker check of a dedicated or
// shared worker (checkLanded): what the script does first (a fetch, a
// message to the page) is then reported before the check answers.
func (d *Driver) workerDecidedLocked(t *target) {
	if !t.setUp || !t.scriptLoaded {
		return
	}
	if _, ok := d.causal.targets[t.sid]; !ok {
		return
	}
	d.targetDecidedLocked(t.sid)
	if t.typ != targetTypeServiceWorker {
		// A service worker's start is the install the barrier follows
		// through its versions (causal.sw), and the page reaches it
		// through fetches it follows: no check.
		d.causal.workerLandedLocked(t.sid, time.Now(), false)
	}
}

func (d *Driver) onDetached(sid proto.TargetSessionID) {
	d.mu.Lock()
	t := d.targets[sid]
	d.forgetSessionLocked(sid)
	for k := range d.epochs.byReq {
		if k.sid == sid {
			delete(d.epochs.byReq, k)
		}
	}
	if t != nil {
		delete(d.targets, sid)
		if d.byTarget[t.id] == t {
			delete(d.byTarget, t.id)
		}
		for k, el := range d.elems {
			if k.sid == sid {
				el.stale = true
				delete(d.elems, k)
			}
		}
	}
	d.mu.Unlock()
	if t != nil && t.kind == kindPage {
		d.markCrashed("page detached")
	}
}

// onRequest decides one paused request: continue it when its origin is
// inside the scope, else fail it as blocked by client and record a
// violation. The decision is made here, in event order; only the reply
// runs in a goroutine.
func (d *Driver) onRequest(sid proto.TargetSessionID, e *proto.FetchRequestPaused) {
	if e.Request == nil {
		return
	}
	if e.ResponseStatusCode != nil || e.ResponseErrorReason != "" {
		d.onResponse(sid, e)
		return
	}
	origin, governed := originOf(e.Request.URL)
	document := e.ResourceType == proto.NetworkResourceTypeDocument
	// The browser's own image fetch (the document's icon, see
	// imageFetch) is not the page's work: its reply, handed to the tab
	// strip, cannot change the page or start more work, so it holds no
	// barrier (the browser fetches it after every load, and a barrier
	// whose confirming round trip saw it paused went round again). Its
	// decision, a violation included, is made here all the same.
	icon := imageFetch(e)
	d.mu.Lock()
	t := d.targets[sid]
	// A fetch or XHR of a target whose loads the renderer reports is
	// followed to the end of its body and the page's handling of it
	// (causal.loads, domQuiet): its replies open no quiet window.
	tracked := t != nil && t.loads && (e.ResourceType == proto.NetworkResourceTypeFetch || e.ResourceType == proto.NetworkResourceTypeXHR)
	seedDoc := d.seedRequestLocked(sid, e)
	allowed := seedDoc || !governed || d.origins.permits(origin, document)
	var v runtime.Violation
	closePopup := false
	earlier := d.epochs.pausedLocked(loadKey{sid, e.NetworkID}, e.FrameID)
	if !allowed && !earlier {
		earlier = d.referrerEarlierLocked(headerValue(e.Request.Headers, "Referer"))
	}
	if !allowed && t != nil {
		v = runtime.Violation{Kind: runtime.ViolationSubresource, Origin: origin}
		if document {
			switch {
			case t.kind == kindPage && e.FrameID == proto.PageFrameID(t.id):
				v.Kind = runtime.ViolationNavigation
			case t.kind == kindPopup && e.FrameID == proto.PageFrameID(t.id):
				v.Kind = runtime.ViolationPopup
				closePopup = true
			default:
				v.Kind = runtime.ViolationFrame
			}
		}
		switch {
		case earlier:
			// Blocked, but the previous run's (scopeEpochs).
			d.epochs.blocked++
		case t.kind == kindPage || t.kind == kindFrame || t.kind == kindPopup || t.kind == kindPopupFrame || t.kind == kindWorker:
			d.violations = append(d.violations, v)
		}
	}
	// A worker's request the barrier follows through the worker's own
	// session (causal.wloads): the page's view of it is not awaited,
	// and past the worker's follow bound it holds nothing at all.
	wsid, wat, worker := d.causal.workerNetLocked(e.NetworkID)
	unfollowed := worker && !d.causal.followedLocked(wsid, wat)
	// The barrier waits for the reply; a document request is a causal
	// event of its own.
	d.causal.requestDecidedLocked(sid, e.NetworkID, icon)
	counted := !icon && !unfollowed
	id := e.RequestID
	pk := pauseKey{sid, id, false}
	if counted {
		d.causal.paused[pk] = e.NetworkID
	}
	if document {
		d.causal.noteLocked()
	}
	d.mu.Unlock()
	chains := chainingResource(e.ResourceType) && !icon && !tracked
	replied := func() {
		if !counted {
			return
		}
		d.mu.Lock()
		if chains {
			d.causal.repliedLocked(e.ResourceType, e.FrameID)
		}
		// The last reply of those that held the barrier is a causal
		// event: what it waited for has gone on.
		if d.causal.replyEndedLocked(pk, e.NetworkID, tracked && d.dedicatedWorkersLocked()) && !d.causal.pausedHoldLocked() {
			d.causal.noteLocked()
		}
		d.mu.Unlock()
	}
	if seedDoc {
		d.goHandle(func() {
			_ = d.fulfillSeed(sid, id)
			replied()
		})
		return
	}
	if allowed {
		if (e.ResourceType == proto.NetworkResourceTypeFetch || e.ResourceType == proto.NetworkResourceTypeXHR) && !worker {
			d.mu.Lock()
			d.causal.responses[respKey{sid, id}] = respVal{loadVal{time.Now(), e.FrameID}, e.NetworkID}
			d.mu.Unlock()
			d.log.Debug("settle: request let through", "type", string(e.ResourceType), "url", e.Request.URL)
		}
		d.goHandle(func() {
			_ = d.call(d.lifeCtx, sid, proto.FetchContinueRequest{RequestID: id}, nil)
			replied()
		})
		return
	}
	d.log.Info("request blocked", "kind", string(v.Kind), "origin", origin, "earlier_scope", earlier)
	var popup proto.TargetTargetID
	if closePopup && t != nil {
		popup = t.id
	}
	d.goHandle(func() {
		_ = d.call(d.lifeCtx, sid, proto.FetchFailRequest{RequestID: id, ErrorReason: proto.NetworkErrorReasonBlockedByClient}, nil)
		if popup != "" {
			_ = d.call(d.lifeCtx, "", proto.TargetCloseTarget{TargetID: popup}, nil)
			// The blocked popup is decided: its violation is recorded
			// and it is closing.
			d.mu.Lock()
			d.targetDecidedLocked(sid)
			d.mu.Unlock()
		}
		replied()
	})
}

// dedicatedWorkersLocked reports whether a dedicated worker of the
// driver's context is attached: its fetch and XHR requests are paused on
// its page's session, reported on its own (causal.unattributed).
func (d *Driver) dedicatedWorkersLocked() bool {
	for _, t := range d.targets {
		if t.kind == kindWorker && t.typ == targetTypeWorker {
			return true
		}
	}
	return false
}

// onResponse continues a fetch or XHR response paused at the response
// stage: the request's data has arrived, and the page gets it. The
// handling is followed through the renderer's load events and a
// DOM-quiet check (causal.loads), or for a target whose loads are not
// reported, covered by the quiet window after a chaining reply.
func (d *Driver) onResponse(sid proto.TargetSessionID, e *proto.FetchRequestPaused) {
	id := e.RequestID
	d.mu.Lock()
	// A worker's response past the worker's follow bound holds nothing
	// (see onRequest).
	wsid, wat, worker := d.causal.workerNetLocked(e.NetworkID)
	counted := !worker || d.causal.followedLocked(wsid, wat)
	pk := pauseKey{sid, id, true}
	if counted {
		d.causal.paused[pk] = e.NetworkID
	}
	t := d.targets[sid]
	tracked := t != nil && t.loads
	chains := !tracked && !worker
	d.mu.Unlock()
	var reply proto.Request = proto.FetchContinueResponse{RequestID: id}
	if e.ResponseErrorReason != "" {
		reply = proto.FetchFailRequest{RequestID: id, ErrorReason: e.ResponseErrorReason}
	}
	d.log.Debug("settle: response paused", "type", string(e.ResourceType), "url", e.Request.URL)
	d.goHandle(func() {
		_ = d.call(d.lifeCtx, sid, reply, nil)
		d.log.Debug("settle: response continued", "url", e.Request.URL)
		d.mu.Lock()
		delete(d.causal.responses, respKey{sid, id})
		if chains {
			d.causal.repliedLocked(e.ResourceType, e.FrameID)
		}
		if d.causal.replyEndedLocked(pk, e.NetworkID, tracked && d.dedicatedWorkersLocked()) {
			d.causal.noteLocked()
		}
		d.mu.Unlock()
	})
}

// onIssue turns a connect-src refusal reported by the browser into a
// subresource violation when the refused origin is outside the scope.
func (d *Driver) onIssue(sid proto.TargetSessionID, e *proto.AuditsIssueAdded) {
	if e.Issue == nil || e.Issue.Code != proto.AuditsInspectorIssueCodeContentSecurityPolicyIssue || e.Issue.Details == nil {
		return
	}
	c := e.Issue.Details.ContentSecurityPolicyIssueDetails
	if c == nil || c.IsReportOnly || c.ViolatedDirective != "connect-src" || c.BlockedURL == "" {
		return
	}
	origin, governed := originOf(c.BlockedURL)
	if !governed {
		return
	}
	d.mu.Lock()
	t := d.targets[sid]
	blocked := t != nil && d.origins != nil && !d.origins.permits(origin, false)
	// Refused in a document of an earlier scope (scopeEpochs): the
	// target's document decides, the issue names no frame.
	earlier := blocked && d.epochs.frameEarlierLocked(proto.PageFrameID(t.id))
	switch {
	case earlier:
		d.epochs.blocked++
	case blocked:
		d.violations = append(d.violations, runtime.Violation{Kind: runtime.ViolationSubresource, Origin: origin})
	}
	d.mu.Unlock()
	if blocked {
		d.log.Info("connection blocked", "kind", string(runtime.ViolationSubresource), "origin", origin, "layer", "connect-src", "earlier_scope", earlier)
	}
}

// onDialog records an open native dialog and interrupts every call in
// flight; the dialog is never accepted or dismissed.
func (d *Driver) onDialog(typ string) {
	d.mu.Lock()
	d.dialog = typ
	d.causal.noteLocked()
	d.interruptLocked(&dialogError{typ: typ})
	d.mu.Unlock()
	d.log.Warn("native dialog open", "type", typ)
}

// dialogError is the interruption cause of a native dialog.
type dialogError struct{ typ string }

func (e *dialogError) Error() string { return runtime.ErrNativeDialog.Error() + ": " + e.typ }
func (e *dialogError) Unwrap() error { return runtime.ErrNativeDialog }

// invalidateFrameLocked marks every element handle of frame stale.
func (d *Driver) invalidateFrameLocked(frame proto.PageFrameID) {
	for k, el := range d.elems {
		if el.frame == frame {
			el.stale = true
			delete(d.elems, k)
		}
	}
}

// invalidateSessionLocked marks every handle of the session stale.
func (d *Driver) invalidateSessionLocked(sid proto.TargetSessionID) {
	for k, el := range d.elems {
		if k.sid == sid {
			el.stale = true
			delete(d.elems, k)
		}
	}
}

// targetTypeIframe is the CDP target type of an out-of-process frame
// (go-rod's proto package lists no constant for it).
const targetTypeIframe proto.TargetTargetInfoType = "iframe"

// The CDP target types of workers.
const (
	targetTypeWorker        proto.TargetTargetInfoType = "worker"
	targetTypeSharedWorker  proto.TargetTargetInfoType = "shared_worker"
	targetTypeServiceWorker proto.TargetTargetInfoType = "service_worker"
)

// Package browser is the go-rod [runtime.Driver]: it runs capabilities in
// a real Chrome or Chromium through the Chrome DevTools Protocol, using
// go-rod's CDP client, protocol types and browser lookup.
//
// [Launch] starts a provider-owned headless Chromium with a fresh
// temporary profile (mode live_launched_browser, download route
// browser_path). [Connect] attaches to an externally owned Chrome through
// its DevTools endpoint (mode live_connected_chrome, download route
// directory). Either way the driver opens one page in a browser context
// of its own, so runs never share cookies or storage.
//
// Invariants:
//   - No automatic browser download: the executable comes from
//     [WithBrowserPath], then VERA_BROWSER, then the usual install
//     locations; only [WithAutoDownloadUnsafe] lets go-rod fetch one.
//     go-rod's "leakless" helper binary is never used.
//   - A launched browser runs in its own process group with its profile,
//     XDG config/cache and TMPDIR inside one temporary folder. Close kills
//     the group, then every process whose command line still names that
//     folder (the crash handler daemonizes out of the group), waits for
//     them and deletes the folder. A connected browser is never killed and
//     its settings never change: Close disposes only the driver's browser
//     context (its page and popups) and drops the connection.
//   - The origin scope is enforced by the browser: browser-level
//     auto-attach pauses every new target of the driver's context (the
//     page, out-of-process frames, popups, workers) before it runs, Fetch
//     interception is installed on it, and only then is it resumed. Every
//     request outside the scope is failed as "blocked by client" before it
//     leaves and recorded as a [runtime.Violation] holding only the origin:
//     navigations and redirects (each redirect hop is its own request),
//     form posts, frames, popups (closed once blocked) and subresources.
//     Subresource-only origins never serve documents. Targets of other
//     browser contexts (an operator's own tabs) are resumed and detached
//     at once.
//   - Connections Fetch interception never sees, WebSocket handshakes
//     above all, are refused by the browser's own Content Security
//     Policy: while a scope is installed every new document of the
//     driver's context gets one more policy, "connect-src" listing the
//     scope's origins, each with its ws/wss twin, plus blob: and data:.
//     It is delivered before any page script runs, from an isolated world
//     the page cannot reach (see the decisions); documents with local URLs
//     (about:blank, srcdoc, data:, blob:) and blob: workers inherit it. A
//     policy cannot be widened by the page, only narrowed. Each refusal
//     the browser reports (an Audits issue) whose origin is outside the
//     scope is recorded as a subresource [runtime.Violation] with the
//     ws:// or wss:// origin.
//   - Roles and accessible names are the browser's: a role candidate is
//     answered from Chromium's accessibility tree, never by computing names
//     by hand (see Find). Ignored nodes and invisible elements never match.
//   - One handle per DOM node: handles are pointers kept in a map keyed by
//     (target session, backend node id), so the same node compares equal
//     across Find calls; a frame navigation marks its handles stale.
//   - Actions wait, bounded by ctx, for the element to be attached,
//     visible, stable (the same box on two polls about a frame apart), enabled and
//     not covered at its centre; clicks are real mouse events dispatched
//     to the top-level page at top-level coordinates (frame offsets added),
//     so out-of-process frames work like any other. A click into a frame
//     is checked: listeners in the element's document and its ancestors
//     say where the press went; one the browser misrouted to the frame's
//     own <iframe> element (its hit-test data lags under load) is
//     released and pressed again after a rendered frame, one that reached
//     anything else fails as not interactable (see clickroute.go).
//   - Native dialogs are never accepted or dismissed by a call. When one
//     opens every call in flight fails with [runtime.ErrNativeDialog] and
//     so does every later call until it closes. Only Close of a connected
//     driver answers one (dismiss, never accept), after asking the
//     context's scripts to terminate: Chromium exits when a page with an
//     open dialog is closed, which would take the operator's browser down.
//   - A dead browser or connection interrupts every call in flight and
//     every later call fails promptly with [runtime.ErrBrowserCrashed]; no
//     call hangs or panics. After Close every call fails with
//     [runtime.ErrClosed]. No goroutine outlives Close.
//
// Decisions where the contract is silent:
//   - Before the first RestrictOrigins the driver blocks nothing.
//   - Navigate refuses an out-of-scope URL itself, before the browser
//     sends anything, and records a navigation violation; a non-network
//     URL other than about:blank is refused once a scope is installed.
//     An HTTP status of 400 or more on the main document returns
//     [runtime.ErrTargetUnreachable] after the page has loaded; so do
//     net::ERR_* failures. A navigation that outlives ctx returns ctx's
//     error. A fragment-only navigation waits (up to a second) for the
//     browser to report the new URL.
//   - Role lookup: a page-side helper narrows the scope to the visible
//     elements that may carry the role (their tag's implicit roles, an
//     explicit role attribute, and custom elements, which may set a role
//     through ElementInternals); when there are many it also drops those
//     whose text, labels and attributes cannot contain the name. The
//     browser's own role and name of each remaining element
//     (Accessibility.getPartialAXTree) decide. A role outside the
//     helper's table, or more than 64 candidates, is answered by one
//     Accessibility.queryAXTree over the scope instead (slower on large
//     pages, the same answer). Exact names are compared after whitespace
//     normalisation; other names by case-insensitive substring.
//   - Label: form controls and elements with aria-label or
//     aria-labelledby whose <label> text, labelledby text or aria-label
//     matches (Playwright's getByLabel), computed in the page.
//     Placeholder: the placeholder attribute. Test id: data-testid, exact.
//     Text: the smallest visible elements whose whitespace-normalised
//     innerText matches. CSS: querySelectorAll; a trailing ":visible"
//     keeps elements with a non-empty box and visibility:visible.
//   - Frame waits, bounded by ctx, for each frame to leave its initial
//     empty document (an iframe with a src still on about:blank, or a
//     document still loading), so the reported origin is the real one. A
//     frame whose document was blocked resolves with origin "null".
//   - fill selects the content and inserts the text (input events), then
//     fires change; date-like inputs get their value set directly. An
//     empty value is a Delete key press. select matches an option's value,
//     then its label, and waits for a matching option to appear.
//     check/uncheck click only when the state differs and verify it
//     changed.
//   - Downloads: a launched browser saves into a folder of the driver's
//     temporary profile (or [WithDownloadDir]) under the download GUID;
//     the event is attributed by GUID to the first armed listener when the
//     download starts in one of the page's frames. Connected, the driver
//     only enables download events on its own context (behavior
//     "default"), so the browser's own settings decide where files go.
//     With [WithDownloadDir] its own context saves into that folder under
//     the download GUID ("allow" would replace a file of the same name),
//     and on completion, before the event is delivered, the driver gives
//     the file the suggested name, or the first free "stem (n).ext" as
//     Chrome's download manager would, by hard-linking the new name
//     (which never replaces an entry) and removing the GUID name. A name
//     with separators, NUL or colon, a leading dot, a partial-download or
//     OS metadata name, or a folder without hard links keeps the GUID
//     name. The directory route's file attribution is the runtime's
//     (package download).
//   - Connect accepts loopback endpoints with an explicit port; remote
//     ws:// and wss:// endpoints need [WithRemoteEndpoint]. An http(s)
//     endpoint is resolved through /json/version and the websocket URL it
//     returns is re-pointed at the endpoint's host and port.
//   - Connected mode attaches at browser level so that popups can be
//     paused before their first request; the operator's own new tabs are
//     paused for one round trip while the driver resumes and detaches them.
//   - The connect policy is a <meta http-equiv="Content-Security-Policy">
//     that a script registered with Page.addScriptToEvaluateOnNewDocument
//     (in an isolated world, on the page, every out-of-process frame and
//     every popup, before it runs) adds to <head> the moment the parser
//     creates it and removes at once: a delivered policy stays in force,
//     and a MutationObserver callback runs at the microtask checkpoint
//     before the parser runs the first script. Every other way was tried
//     in Chromium 156: Fetch does not pause WebSocket handshakes;
//     Network.setBlockedURLs (urls and urlPatterns alike) does not block
//     them; a Content-Security-Policy header added by
//     Fetch.continueResponse reaches the header bytes but not the policies
//     the browser parsed for the document; one added by
//     Fetch.fulfillRequest works, but a fulfilled document loses its IP
//     address space, so Local Network Access then blocks its requests to
//     loopback and private hosts (the invoicing ledger frame stopped
//     loading). RestrictOrigins replaces the script on every target; pages
//     loaded before it keep the policy they had.
//   - Chromium's TMPDIR must be short (its singleton socket path is
//     limited to 108 bytes); when the temporary folder's path is too long
//     a short folder under /tmp is used and deleted with the profile.
//
// Known limits: the connect policy is a document policy. Dedicated,
// shared and service workers loaded from an http(s) URL take the policy of
// their own script response, so such a worker can still open a WebSocket
// to an origin outside the scope (blob: workers inherit the page's
// policy; a script injected into a paused worker crashed the renderer).
// A document without <head> (XML, SVG) gets no policy. As in every CSP, a
// source also allows its secure upgrade (ws://h:p allows wss://h:p).
// WebRTC (ICE over UDP) and other non-HTTP transports are outside both
// Fetch and connect-src. Workers of the driver's context are attached and
// get the same interception where the browser supports Fetch on them; the
// tests cover pages, frames, popups, and WebSockets from pages, frames and
// blob: workers.
package browser

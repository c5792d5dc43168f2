// Package browser is the go-rod [runtime.Driver]: it runs capabilities in
// a real Chrome or Chromium through the Chrome DevTools Protocol, using
// go-rod's CDP client, protocol types and browser lookup, over a
// WebSocket transport of its own (internal/cdpws, on
// github.com/coder/websocket) for Launch and Connect alike.
//
// [Launch] starts a provider-owned headless Chromium with a fresh
// temporary profile (mode live_launched_browser, download route
// browser_path). [Connect] attaches to an externally owned Chrome through
// its DevTools endpoint (mode live_connected_chrome, download route
// directory). Either way the driver opens one page in a browser context
// of its own, so runs never share cookies or storage. [StartLocal] starts
// a caller-owned local Chromium (a [LocalBrowser]: endpoint, profile
// folder, Close) to stand in for an operator's browser in development,
// tests and examples of connect mode.
//
// Invariants:
//   - No automatic browser download: the executable comes from
//     [WithBrowserPath], then VERA_BROWSER, then the usual install
//     locations (a search list of Vera's own, as chromedp keeps one).
//     Nothing of go-rod's lib/launcher is linked: no download machinery
//     and no "leakless" helper binary end up in a program that embeds
//     Vera (go list -deps shows neither leakless nor fetchup).
//   - One launcher: Launch and StartLocal start the browser the same way
//     (internal/chromeproc, which the driver's own tests also use) with
//     one flag list, [DefaultFlags] (headless, quiet, DevTools on
//     127.0.0.1 only, no QUIC or non-proxied WebRTC UDP, ...), plus the
//     profile and --remote-debugging-port=0; the endpoint is read from
//     the profile's DevToolsActivePort file. [EnvBrowser], [InstallHint]
//     and the search list are defined once, in that launcher.
//   - A launched browser runs in its own process group with its profile,
//     XDG config/cache and TMPDIR inside one temporary folder. Close kills
//     the group, then every process whose command line still names that
//     folder (the crash handler daemonizes out of the group), waits for
//     them and deletes the folder. On Linux a host that dies without
//     Close (SIGKILL, a crash) takes its launched browser with it: the
//     browser has SIGKILL as its parent-death signal; the folder stays.
//     A connected browser is never killed and
//     its settings never change: Close disposes only the driver's browser
//     context (its page and popups) and drops the connection.
//   - The origin scope is enforced by the browser: browser-level
//     auto-attach (the driver's own, or for a [Browser]'s driver the
//     Browser's attach connection) pauses every new target of the
//     driver's context (the page, out-of-process frames, popups, workers)
//     before it runs, Fetch interception is installed on it, and only
//     then is it resumed. Every
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
//   - A second, network-level layer holds what the first cannot see:
//     every Driver (every browser context) has its own network gate, a
//     forward HTTP proxy on 127.0.0.1 with a random port
//     (internal/netgate), started before the context is created and
//     closed by Close. The context is created with it as proxyServer
//     (Target.createBrowserContext, so launch and connect mode alike)
//     and proxyBypassList "<-loopback>" (without it Chromium sends
//     loopback hosts directly). Every TCP connection of the context goes
//     through it: plain http requests, CONNECT tunnels (https, and
//     ws/wss, which Chromium always tunnels), from pages, frames, popups,
//     dedicated, shared and service workers, and preconnects. The gate
//     gets the scope in RestrictOrigins and admits a connection only to
//     the host and effective port of a scope origin (tunnels for https
//     origins and for ws to an http origin's port; plain requests for
//     http origins; navigations, which the browser marks with Sec-Fetch
//     headers, only for Allowed origins). It resolves a name once per
//     connection and dials exactly an address from that answer; a
//     non-public address (loopback, private, link-local, unspecified) is
//     dialled only when a scope origin names that address and port
//     literally (or is localhost), so a name that rebinds to 127.0.0.2
//     or 10.0.0.5 is refused before any connection. Each refusal is a
//     [runtime.Violation]: navigation or frame when the request says so,
//     else subresource, every refused tunnel included (a CONNECT does not
//     say what it carries; its origin is https://host on port 443,
//     http://host:port otherwise).
//   - What each layer covers. Interception (first layer) sees requests
//     with their frame and resource type, so it names navigations,
//     popups and frames, closes blocked popups and never lets a request
//     out of scope leave; the connect policy refuses WebSockets of
//     documents. The gate (second layer) sees connections, not
//     documents: it holds worker and service-worker WebSockets and
//     fetches, the TCP connection Chromium opens (preconnect) before
//     interception pauses a blocked navigation, popup or frame, and DNS
//     rebinding, which no URL check can see. A request blocked by the
//     first layer never reaches the gate, so nothing is counted twice.
//     A document that commits outside the scope without a request either
//     layer could block (a back-forward cache restore: the page goes
//     back, in memory, to a document of an earlier run on another site)
//     is recorded when it commits (Page.frameNavigated), as a navigation,
//     frame or popup violation; committed error pages (a blocked
//     navigation, already recorded) and local URLs are not.
//   - Violations are the current scope's. A driver reused for the next
//     run (RestrictOrigins with its scope) still hosts the previous
//     run's document until the start navigation replaces it, and after
//     that its backlog: Chromium serializes same-URL GETs, so a page
//     that polled one URL faster than it was answered left requests that
//     were paused, proxied or refused by the connect policy up to a second
//     after it had gone. They are blocked when outside the new scope but
//     are not recorded: a request whose document (its loader) last
//     committed, or was navigated within, before the current scope was
//     installed, the commit of a navigation sent before it (the previous
//     page leaving by a timer, answered late), a connect-src refusal in
//     such a document, and a request
//     whose Referer names an origin outside the whole scope (no document
//     or resource of the current scope can have one) are an earlier
//     scope's. Recorded, they made a clean run on another site end
//     completed but not clean, with up to 30 blocked requests
//     (TestReusedDriverScopes). A request whose document is unknown, or
//     without a Referer, is recorded; workers' requests are always
//     recorded. Chromium answers the connect policy's install
//     (Page.addScriptToEvaluateOnNewDocument) only once a pending
//     navigation of the page's top-level document has its response (a
//     frame's does not hold it), so RestrictOrigins first stops such a
//     navigation (Page.stopLoading): left pending, the previous run's act
//     on a server that never answers failed the next run. One the driver
//     has not heard of yet is waited for, up to ctx.
//   - Roles and accessible names are the browser's: a role candidate is
//     answered from Chromium's accessibility tree, except for the
//     elements whose role and name the page reads with certainty (a
//     plain native button, input button, link or heading named by its
//     own text alone, or a text, search, number, checkbox or radio
//     input, textarea or single select named by its one plain <label>,
//     a data table's td named by its own text,
//     or a div, span, li or a with one explicit widget role (button,
//     link, checkbox, radio, switch, tab, menuitem, option in a listbox,
//     treeitem in a tree, heading and the like) named by a non-blank
//     aria-label or its own text, with no other ARIA than a few states,
//     no title, CSS generated content or text transform, no
//     ancestor that can hide it or change its role, and no slot, shadow
//     root, aria-owns or modal dialog in the way; see Role lookup), where
//     the page's reading is used and cannot differ (a differential test
//     holds it against Chromium's). Every other element gets the
//     browser's answer; nothing is guessed. Ignored nodes and invisible
//     elements never match.
//   - One handle per DOM node: handles are pointers kept in a map keyed by
//     (target session, backend node id), so the same node compares equal
//     across Find calls; a frame navigation marks its handles stale.
//   - Actionability is Playwright's. Actions wait, bounded by ctx, for
//     the element to be attached, visible, enabled and stable (the same
//     box on two polls about a frame apart). A fill, as Playwright's,
//     needs it attached, visible, enabled and editable, not stable (the
//     text goes to the focused element, not to a point on the screen):
//     one call checks and prepares it, then the text goes in and one call
//     ends it (three calls in all; a field not ready yet is checked again
//     every 25 ms). A click (check and uncheck click too) also needs the element in
//     view and receiving events at its click point. The element's visible
//     part is its box cut by every clipping ancestor (a scrolled or
//     overflow-hidden container; a fixed-position element escapes those
//     above it) and its frame's visual viewport, then, frame by frame up
//     to the top, by each iframe's content box, clipping ancestors and
//     viewport. Whenever that cuts the box the element is scrolled into
//     view (DOM.scrollIntoViewIfNeeded, which scrolls every container and
//     frame above it, out-of-process frames included) and measured again;
//     whether the box merely overlaps the viewport does not matter. The
//     click point is the centre of the visible part, hit-tested in the
//     element's document (the element, a descendant or one of its
//     <label>s must be hit) and in each parent document of its frame path
//     (the iframe must be hit). When something else is hit (a sticky
//     header, a banner, an overlay) the element is scrolled again with
//     block and inline alignment "end", then "center", then "start", then
//     round again, pausing 0, 20, 100, 100 and then 500 ms between tries,
//     until ctx ends. Clicks are real mouse events dispatched to the
//     top-level page at top-level coordinates (frame offsets added), so
//     out-of-process frames work like any other. A click into a frame
//     is checked: listeners in the element's document and its ancestors
//     say where the press went; one the browser misrouted to the frame's
//     own <iframe> element (its hit-test data lags under load) is
//     released and pressed again after a rendered frame (see
//     clickroute.go). Every click is guarded against a layout that moves
//     between the measurement and the press (a late stylesheet, an
//     inserted banner, a re-render): capture listeners on the element's
//     window (and on each ancestor's, for frames) stop a press that did
//     not reach the element, a descendant or one of its labels, with the
//     rest of its click, so the element that is there now never gets it;
//     the element is then measured and clicked again, at most 5 more
//     times, and after that refused as not interactable. A press whose
//     element's document went away before its guard was read (the page
//     remounted the element's frame, or navigated, between the arming
//     and the press) went nobody knows where, maybe into the document
//     that replaced it: the button is released away from the point (no
//     click completes) and the act fails not interactable, dispatched;
//     it is not the stale element of a click that navigated, which the
//     runtime counts as done (TestClickDocumentGoneBeforePress). Any
//     other error while the press is down also releases it away.
//   - An element fully in view costs no extra round trip: two state
//     reads (the stability proof) and one call per iframe on its frame
//     path, as before actionability scrolled; only an element that is not
//     fully in view, or covered, is scrolled and measured again.
//   - An action whose ctx ends while it waits returns a
//     *[NotInteractableError]: it wraps [runtime.ErrNotInteractable] and
//     ctx's error and names the check that failed last (Check*
//     constants), the cover and the click point when the hit test failed,
//     the element's box and the viewport size, e.g. "element not
//     interactable: covered by <div class=modal-backdrop> at (400,300);
//     box {x:16 y:536 w:140 h:40}; viewport 800x600: context deadline
//     exceeded". The runtime keeps that message as the failure's local
//     detail, and its [NotInteractableError.Actionability] in the run's
//     local cause (runtime.Cause).
//   - [Driver.ExplainLocator] (for authoring tools) and
//     [Driver.NearestNames] (runtime.NearestNamer, for the run's local
//     cause of a miss) list the accessible names of a role candidate's
//     role from one Accessibility.queryAXTree over the scope, visible
//     elements only (the same page-side filter as Find), at most
//     [MaxExplainNodes] nodes, ranked by locator.NearestNames. They never
//     act on the page. Chromium puts a space at every <wbr> and between a
//     button's block children, which is why an exact
//     "GET /api/pets/{petId}" misses "GET /api /pets /{petId} Info for a
//     specific pet": the explanation names that name with the
//     differences whitespace and extra_text.
//   - [Driver.DeclaredSets] (runtime.SetDeclarer) reads, in one page
//     call per document, the ARIA set declarations of a list
//     extraction's record containers (aria-rowcount and aria-rowindex of
//     a grid's rows, aria-setsize and aria-posinset of items), so the
//     runtime fails a virtualized grid read as a list instead of
//     completing with the rows in view. It also reports the record
//     containers marked aria-busy="true" (on themselves or an ancestor),
//     declared set or not, and the runtime fails such a read too: a
//     table whose rows fill their cells only once scrolled near, showing
//     "Loading…" until then, completed with one "Loading…" record
//     standing for 30 rows (TestUnseen3FormsLedger). It reads attributes
//     and DOM structure, not the accessibility tree: roles are the
//     explicit role's first token or the tag's implicit role (see
//     setsize.go).
//   - Settle is the causal barrier ([runtime.Driver.Settle]). The event
//     loop tracks, per session, what the page's input set in motion: a
//     navigation a frame requested, scheduled or started loading
//     (Page.frameRequestedNavigation for the current tab,
//     frameScheduledNavigation, frameStartedLoading) until the document
//     it committed fired its load event (Page.lifecycleEvent "load" of
//     the committed loader, where lifecycle events are on; the load event
//     of an earlier document ends nothing), it stops loading or its
//     frame detaches, a blocked navigation included (it
//     commits an error page); a cleared scheduled navigation
//     (frameClearedScheduledNavigation) ends only the request, never a
//     load already started (Chromium clears it right after
//     frameStartedLoading); a target attached through
//     auto-attach (Target.attachedToTarget: popup, frame, worker) until
//     its interception is installed and it was resumed, and a popup until
//     its first document stopped loading or it closed (a blocked popup is
//     decided as soon as its violation is recorded); a paused request
//     (Fetch.requestPaused) until its reply is sent, except the
//     favicon (below: the browser's, not the page's); any other
//     subresource request of a page or frame as its renderer reports it
//     (Network.requestWillBeSent, ordered by the round trip through the
//     page) until the interceptor paused it (its networkId) or its load
//     ended without it (a memory-cache hit; blob: and data: URLs,
//     which never reach the network, are not awaited): the pause travels
//     another way, and an image a load handler added to the next
//     document of a form post was paused after the barrier let go, its
//     violation missed, in 1 of 30-60 runs at load 30
//     (TestSettleHoldsThroughLoadHandler); a fetch or XHR
//     request it let through until its response arrives (Fetch pauses
//     fetch and XHR responses too); and a fetch or XHR load of a page or
//     frame as its renderer reports it, from Network.requestWillBeSent
//     until Network.loadingFinished or loadingFailed, then a DOM-quiet
//     check of its frame: a single-page app that changed its URL with
//     pushState keeps showing the old view until the data it fetched
//     arrives and is rendered, and an act on that view (a "Show details"
//     of the previous record) or a read of it gave a completed run with
//     the previous record's answer (webcheck_test.go). The renderer sends
//     requestWillBeSent on the session's own channel when the page starts
//     the request, so the round trip after an input orders it; the
//     interceptor's Fetch.requestPaused travels another way and on two
//     saturated cores came up to 50 ms after the confirming round trips,
//     which is how 3 of 24 runs of that page read the old view at load
//     ~60 when the click's only postcondition was the URL. No event says
//     the page has handled the data, so the DOM-quiet check observes it:
//     in an isolated world of the frame (page scripts cannot reach it) a
//     MutationObserver waits until the document has gone 40 ms of the
//     page's own time without a mutation, from a first zero-delay timer
//     on (the page's tasks run in order, so the handling of a body the
//     renderer already has runs before such a timer), bounded at 400 ms:
//     a document that never stops mutating (a clock, a spinner) holds a
//     barrier that long, not to the cap. Then the barrier looks again
//     (the handling may have started more work). Measured: 64 of 64 runs
//     of that page answered right at load 40-60 (TestStressWebcheck). The
//     replies to such fetches open no quiet window (below). What it does
//     not cover: a page that renders the data later than 40 ms after it
//     arrived (a debounce, a deliberately delayed animation frame), or in
//     a frame of another session than the one that fetched it; author
//     such a step with a postcondition on the new view's content (a
//     heading or field of the record it opens), which no timing can
//     satisfy early. A fetch aborted or failed before its response holds
//     no barrier for more than the cap after it was sent, nor does a
//     streamed response that never ends. The page's workers are
//     followed the same way. A dedicated, shared or service worker
//     (Network enabled on its session, before it runs except for a
//     service worker, which already runs) holds the barrier from its
//     attach until it is set up and its script has loaded
//     (Inspector.workerScriptLoaded); a fetch or XHR it reports on its
//     own session (Network.requestWillBeSent) holds it until its
//     loadingFinished or loadingFailed. Then a worker check runs a
//     settleDOMQuiet (40 ms) timer through the worker (its tasks run in
//     order: handling the data it has, aggregating, posting the result,
//     all run before the timer fires, and a fetch it starts meanwhile is
//     reported before the answer; bounded at 400 ms), then a DOM-quiet
//     check of the document it serves: a dedicated worker's creating
//     frame (the attach's parent session and parentFrameId, or its
//     parent worker's), a shared or service worker's the driver's page.
//     The page's interceptor pauses a dedicated worker's requests on the
//     page's session (its Fetch has no domain of its own): those are
//     known by their network id and are the worker's load, not an
//     awaited response of the page. Before, the barrier let go right
//     after such a reply, before the worker posted the data, and a
//     dashboard fed by a worker read its skeleton (open_total "", a
//     completed run: TestUnseenWorker). An act's message to a worker is
//     ordered by a zero-delay timer through every running dedicated and
//     shared worker in each confirming round (after the page's, before
//     the browser's; parallel, each bounded at 400 ms): the message was
//     queued before it, so the fetch that handles it is reported first.
//     A page without workers makes no such call. Service workers: the
//     page's session reports the context's versions
//     (ServiceWorker.enable at set-up, workerVersionUpdated); a version
//     new, installing or activating, or installed with no active
//     version in its registration, holds the barrier (a page that
//     registered one waits for it before its data fetch), each status
//     no longer than the cap; a version that waits behind an active one
//     holds nothing. When one the barrier waited for is activated, the
//     page gets a DOM-quiet check (it then handles its new controller
//     and sends its fetch, which the barrier then follows). No event
//     reports a registration the page has just started until the
//     browser looked it up in its storage, which on a loaded machine
//     came after every round trip of the Settle after the load, so the
//     first confirming round trip after the page's top document fired
//     its load event also asks the page (main world, after the timer)
//     whether a registration of its origin has no active worker yet or
//     is activating it (navigator.serviceWorker.getRegistrations, sent
//     on the same channel as its register call); yes holds the barrier
//     until the browser reports a version, at most the cap. One page
//     call per document load, none per other action. Bounds: a worker's
//     follow-up is bounded per Settle: its loads sent more than
//     settleDOMBound (400 ms) after the first of them was reported,
//     after the first that ended and after its first check hold
//     nothing, are no causal event and get no check (nor do their
//     pauses on the page's session), so a worker that polls back to
//     back holds one Settle for its first polls and that bound, never
//     to the cap (TestSettleWorkerPollBound); every Settle starts with
//     no bound. A dedicated worker's request is paused on its page's
//     session, and on a loaded machine the worker's own report of it
//     can come after the interceptor's reply: while dedicated workers
//     run, the reply to a fetch or XHR no renderer has reported yet is
//     decided by the report that follows (the page's load, or a
//     followed worker's, is a causal event; a worker's past its bound
//     is none), or counts as one after 400 ms without a report. Counted
//     as the page's at once, every poll was a causal event and, with
//     the bound started only by a check that a pending poll kept from
//     running, held each Settle to the cap
//     (TestSettleWorkerPollBound/poll=1/worker-lags,
//     TestReplyAttribution, TestWorkerFollowPushes). Not covered: a
//     worker that handles its data later than 40 ms of its own time
//     after it arrived (a debounce, a wait on IndexedDB), a chain of
//     worker requests whose next one starts more than 400 ms after the
//     first ended or was checked, a register call later than the load
//     event (a timer, an interaction), and a message a page posts to a
//     service worker; author such a step with a postcondition on the
//     data.
//     Every such event, a committed frame, Browser.downloadWillBegin and
//     Page.javascriptDialogOpening also count as causal events. Settle
//     first makes a round trip through the page (a zero-delay timer in
//     the main world, awaited), so the renderer has run the handlers of
//     the input it received and sent what they caused, then waits on
//     those events until nothing is pending and a confirming round trip
//     (through the page, then a Browser.getVersion through the browser,
//     which sends every event it had before it answers; each answer is
//     fenced through the driver's event loop, so the events that came
//     before it are dispatched before Settle looks, where a loaded
//     machine used to let the act's fetch report land after the act
//     window closed: TestSettleFencesEvents) saw no new
//     causal event; capped at 3 s (pending work older than the cap no
//     longer holds it; the runtime's later waits go on draining). The
//     cap does not let go of a request the act caused that has no answer
//     yet: a fetch or XHR the renderer reported between the act's start
//     and the end of the Settle's first round trip (the input's handlers
//     and the tasks they queued), a script it reported then (a route's
//     code-split chunk: followed to the end of its body like such a
//     load, so what the chunk starts when it runs is the act's too;
//     followed only until the interceptor let it through, the old view
//     was read as the new route's, TestUnseen3NavSPA defer=chunk; a
//     document's script only: a dedicated worker's main script, which
//     Chromium reports on the page's session without a loader and ends
//     on the worker's, is the worker's, followed as such), or one a
//     frame sent while handling
//     such a request's answer (from its headers, for 400 ms, or from the
//     end of its body until the frame's DOM-quiet check, at most 3 s:
//     the refresh after a POST; one link deep, so a poll timer firing
//     then does not chain on; such a request answered with a status
//     pages retry after a backoff, 408, 429 or a 5xx, keeps its frame's
//     chain window open, and Settle waiting, until the page sends the
//     retry, which is followed the same way, or for the answer's
//     Retry-After plus 400 ms when that is at most 10 s, and at least
//     2 s, doubling with each retry of the Settle up to 10 s (client
//     backoffs double, and many ignore Retry-After); at most 4 retries
//     per Settle: an optimistic page that showed the new value and
//     retried the 503'd save silently completed with the server
//     holding nothing, TestUnseen3NavRetry. A page that does not retry
//     pays that wait once. Such a request, whatever its method, so
//     answered, or failed on the way without an answer (a connection
//     reset or closed, a timeout: not cancelled, aborted or blocked; a
//     write the server may have done, a read that brought nothing; and
//     through the network gate such a failure reaches the page as the
//     gate's 502), waits the same way and stays unserved until an
//     answer with another status comes to the same URL, its query
//     aside (the page's retry); one still unserved when Settle ends,
//     its waits or ctx run out, fails it with [runtime.ErrActPending]:
//     an optimistic page whose retries were all refused, or came later
//     than the waits, showed the new value and completed with the
//     server holding nothing (TestUnseen3NavRetry fail=5, fail=2
//     backoff=1000; TestUnseen3NavDropped with and without the gate),
//     and a search whose attempts all failed, or whose connection closed
//     without the gate, left the list from before on screen, read as
//     its results (TestUnseen3NavSearchRetry). A request the act caused
//     that is not the business (a log endpoint or a widget's data
//     answering 503, never retried) fails the action the same way: an
//     error, never an answer built on a page the server did not
//     serve). Until its
//     response headers arrive
//     (Network.responseReceived) Settle holds past the cap, up to its
//     ctx, and then fails with [runtime.ErrActPending], which the
//     runtime bounds by the action timeout and reports as
//     postcondition_failed: the act's outcome is unknown, so its
//     postcondition and the steps after it are never judged on the
//     optimistic render (an invoice shown "Paid" before the server
//     refused it, TestUnseen2Invoice/conflict-5s; a "Load more" page of
//     3.5 s, TestUnseen2Payments). Once answered, the load is bounded
//     like any other (a streamed body never ends), and its handling gets
//     a whole cap from the answer. Work the act did not cause holds
//     nothing past the cap: a poll timer, a long-poll or a stream
//     started before the act, an EventSource or WebSocket (not fetch
//     or XHR loads), a stream the act opened whose headers came
//     (TestSettleHoldsActRequest). A message the act's input sends on a
//     WebSocket (Network.webSocketFrameSent while the act window is
//     open) is the page asking its server, as every event of a Phoenix
//     LiveView or Blazor Server page does: Settle waits for the server's
//     next message on that socket (or the socket's end) and then for
//     the DOM-quiet check of the session's main frame, within the cap;
//     without it the list from before the search was read as its
//     results, whatever the server's delay (TestUnseen3NavLive). Limits:
//     an answer later than the cap is not waited for; the first message
//     from the server counts as the answer (a socket that also pushes
//     unrelated messages can end the wait early); a message no answer
//     follows (a typing notice) holds the barrier to the cap; a socket
//     of a same-process child frame is checked through the main
//     frame's DOM. A click that starts a fetch
//     long-poll whose server withholds its headers cannot be told from a
//     slow answer: it holds the action to its timeout and fails it
//     (safe). A fill into a field the page may search from as the user
//     types (role combobox, aria-autocomplete list or both, an input
//     with a list of suggestions, or type search or role searchbox with
//     no submit button in its form) that sent nothing while its text
//     went in is followed
//     by a Settle that waits up to 700 ms for the search the page starts
//     after its debounce, as for a retry above (the request ends the
//     wait and is followed as the act's own load): the recent customers
//     still on screen were read as the results, TestUnseen3NavSearch; a
//     search field that searches nothing pays that wait. Not covered: a
//     fetch the act's handlers start later than the first round trip in
//     any other field (a timer), a debounce longer than 700 ms, a
//     worker's fetch, a second link of a chain; these are capped as
//     before. A
//     navigation the act asked for in its own frame (a form it
//     submitted, a link it followed: Page.frameRequestedNavigation
//     while the act window is open) holds the same way while the frame
//     is still navigating and has not committed the new document (its
//     answer's headers have not come): a filter form whose server
//     answers after 4.5 s is read on the filtered page, never off the
//     list it was leaving (TestSettleHoldsActNavigation,
//     TestUnseen2Orders). In an iframe the old document stays readable
//     until the new one commits, and the old code read the unfiltered
//     count there; in the top-level page Chromium holds the session's
//     commands while its main frame navigates, which hid the gap. Past
//     ctx Settle fails with
//     [runtime.ErrActPending] naming "the navigation to" its URL. Once
//     committed, the new document's load is capped as any other; a
//     same-document link, a 204 and a download end the frame's
//     navigation and hold nothing, nor does a navigation the page
//     started itself (a timer setting an iframe's src). The
//     act window opens just before the input (each mouse press, each
//     attempt of a fill's, key press's or select's page-side call): a
//     request the page sent while the act waited for its element is not
//     the act's. A frame the act asked to navigate in itself (a form it
//     submitted, a link; Page.frameRequestedNavigation while the window
//     is open) that the page removes before the new document commits
//     (Page.frameDetached, reason remove) took the navigation and its
//     request with it: the act's Settle fails with
//     [runtime.ErrActPending] naming the URL (without its query), never
//     nil, where it used to let the parent's next view satisfy the
//     postcondition (TestSettleLostNavigation, TestUnseen2Frame). Only
//     the act's own Settle judges this; a navigation that never commits
//     (a 204, a download) is forgotten then. A
//     dialog ends it at once with [runtime.ErrNativeDialog]. "Quiet"
//     waits for causal events only, never for a fixed time: a page that
//     is busy re-rendering (a controlled input, a time-sliced render, a
//     CSS transition) is not causal work, so an act on it that fetched
//     nothing pays two round trips, not a window (issue 22.7: a fixed 60 ms window was half of
//     the teller flow's action time). The one exception is the reply to a
//     paused document or script request (or a fetch or XHR of a worker
//     whose loads are not reported, where its Network domain is not
//     available): the page receives
//     the response on its own channel, so no round trip orders the
//     request, popup or navigation the response may cause, and the
//     barrier stays up for 60 ms after such a reply (a stylesheet, image,
//     font or media reply only paints and does not hold it; nor does the
//     favicon, an untyped request whose Accept header lists only image
//     types: Chromium fetches it after every load and hands its response
//     to the tab strip, never to the page, and it cost every navigating
//     click a 60 ms window of its own, issue 21), nor a document reply
//     for a frame that is loading: the browser's navigation receives it,
//     and what it leads to (commit, error page, download, a dropped
//     navigation) is the frame's load, which holds the barrier until the
//     new document's load event (or until the frame stops loading, for
//     one that commits nothing). The popup
//     of a click is attached before the first round trip answers, and a
//     form post holds the barrier through its own loading.
//   - Act reports an error after its input went out (the mouse press of
//     a click or check, the key down of a press, even when that CDP call
//     itself then fails) as a *[runtime.DispatchError]: the page may have
//     acted on it, so the runtime never retries it.
//   - Document replacement is a state: every CDP error text that means
//     the document, a node or its execution context was replaced ("Argument
//     should belong to the same JavaScript world as target object",
//     "Cannot find context with specified id", "Execution context was
//     destroyed", "No node with given id", "Node is detached from
//     document", "Could not find node with given id", "Cannot find object
//     with id", "Inspected target navigated or closed", ...) is listed in
//     one place (rpc.go, isStaleError) and reaches the runtime as
//     [runtime.ErrStaleElement] (re-resolve), never as an internal error.
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
//   - The CDP endpoint is not trusted. go-rod's reader goroutine panics on
//     any message it cannot decode, so the transport hands it only
//     messages that passed a shape check: one JSON object, no repeated
//     member and no case variant of a CDP member name ("ID"; encoding/json
//     matches names case-insensitively), "id" an integer from 0 to the
//     largest int, "method" and "sessionId" strings, "params" and
//     "result" objects, "error" an object with an integer "code", a
//     string "message" and an optional string "data", and exactly one of
//     a response (id with result or error) or an event (a non-empty
//     method). A response with id 0, which the client never sends, is
//     dropped. The first message that fails ends the connection with a
//     [*ProtocolError] (it says what was wrong, never quotes the message).
//   - WebSocket: pings are answered, fragmented messages reassembled,
//     control frames between fragments handled; a close frame ends the
//     connection with a [*CloseError] (status and reason); a dropped
//     connection or a truncated frame with [ErrDisconnected]; a frame
//     that breaks RFC 6455 (reserved bits, a bad opcode, a continuation
//     without a start) with a [*ProtocolError]. No compression is
//     negotiated. The dial uses no proxy from the environment and
//     follows no redirect; it is bounded by ctx and 10 s. Connect's ctx
//     bounds the start only, not the connection's life.
//   - Read limit: one message, all its fragments together, is read up
//     to [WithMaxMessageBytes] ([DefaultMaxMessageBytes], 256 MiB) into
//     a buffer that grows with the bytes actually received. A frame
//     header claiming 2^62 bytes allocates nothing; a message that
//     passes the limit closes the connection there with a
//     [*ProtocolError].
//   - Stalls: while a call waits and nothing has arrived for a second,
//     the driver pings the endpoint; no pong within [StallTimeout] (5 s),
//     or a write that does not complete within it, ends the connection
//     with [ErrEndpointStalled]. A call whose own deadline passes first
//     pings once before it returns, so a stalled endpoint is reported as
//     a crash, not as the page's timeout. A ping is a WebSocket
//     control frame the endpoint answers without any page work, so a
//     slow page does not look stalled; nor does the driver's own reader
//     while it is busy handing a message on.
//   - Every connection failure above is the cause of the driver's crash:
//     during a run calls fail with [runtime.ErrBrowserCrashed] wrapping
//     it (runs end browser_crashed with it as the local detail); during
//     Connect or Launch the error wraps [runtime.ErrBrowserUnavailable]
//     and it. Both are usable with errors.Is and errors.As.
//   - Close never waits on the endpoint past [CloseTimeout] (5 s): the
//     clean-up calls of a connected driver share that deadline and the
//     socket is dropped without the WebSocket close handshake. A
//     launched browser's processes get up to CloseTimeout more to exit.
//
// Decisions where the contract is silent:
//   - Before the first RestrictOrigins the driver blocks nothing.
//   - Window size ([WithViewport]) is an emulation
//     (Emulation.setDeviceMetricsOverride, width and height only, the
//     device scale factor left to the browser), set on the page and on
//     every popup while the browser still holds them before their first
//     script, not the window's bounds (Browser.setWindowBounds): bounds
//     size an OS window, toolbars and frame included, so the viewport is
//     what they leave and differs by browser, platform and window manager;
//     headless windows are no narrower than 500 pixels, so a phone width
//     cannot be reached at all; and in connect mode the window may be the
//     operator's, whose settings the driver never changes. The emulation
//     gives the exact innerWidth x innerHeight in launch and connect mode,
//     per driver (two drivers on one browser keep their own sizes), and
//     ends with the driver's browser context. Failing to set it on the page
//     fails Launch or Connect (a run at the wrong size would pass as one at
//     the right size); on a popup it is logged. The size is not in the
//     receipt: browser-run-receipt/v3 has no member for it and the
//     declared environment is compared by Finalize, so one capability's
//     runs at several sizes stay comparable.
//   - Navigate refuses an out-of-scope URL itself, before the browser
//     sends anything, and records a navigation violation; a non-network
//     URL other than about:blank is refused once a scope is installed.
//     An HTTP status of 400 or more on the main document returns
//     [runtime.ErrTargetUnreachable] after the page has loaded; so do
//     net::ERR_* failures. A navigation that outlives ctx returns ctx's
//     error. A fragment-only navigation waits (up to a second) for the
//     browser to report the new URL.
//   - FrameURL reads document.URL of the scope's own document, in the
//     frame's own session for an out-of-process frame (so a cross-origin
//     frame's URL is read where it lives, pushState and fragment changes
//     included); a detached or replaced document, or a frame target that
//     is gone, is [runtime.ErrStaleElement], and a nil or top-level scope
//     is the top-level URL, as URL reports it.
//   - Role lookup: a page-side helper narrows the scope to the visible
//     elements that may carry the role (their tag's implicit roles, an
//     explicit role attribute, and custom elements, which may set a role
//     through ElementInternals); when there are many it also drops those
//     whose text, labels and attributes cannot contain the name (an
//     element with a non-blank aria-label, looked up by a widget role, is
//     named by that label whatever its content). Role tokens compare
//     case-insensitively, as Chromium's do (role="Button" is a button). The
//     page then reads the role and name of the remaining elements where
//     they are certain (rolefast.go lists the conditions: a <button>,
//     <a href>, <h1> to <h6> or <input type=button|submit|reset> with
//     only a few harmless attributes, named by its own text nodes or
//     value, with no label, generated content, list marker, hyphenation
//     or text transform; or a textbox, searchbox, spinbutton, checkbox,
//     radio or combobox field (<input> of type text, e-mail, tel, url,
//     search, number, checkbox or radio, <textarea>, <select> without
//     multiple or size) named by its one rendered <label>, which holds
//     text only and passes the same checks; or a <td> of a table with a
//     caption, thead or tfoot (which Chromium takes for a data table for
//     certain; its layout tables' cells are LayoutTableCell), laid out as
//     a table; or a <div>, <span>, <li> or
//     <a> whose role attribute is exactly one lower-case token of button,
//     link, checkbox, radio, switch, tab, menuitem, menuitemcheckbox,
//     menuitemradio, option (its parent a listbox), treeitem (its parent
//     a tree) or heading, named by a non-blank aria-label (whatever its
//     content) or else its own text, with no ARIA attribute but a few
//     states (aria-checked, -selected, -pressed, -haspopup, -expanded,
//     -controls, -disabled, -level, -posinset, -setsize); in the
//     document's tree, with
//     no aria-hidden, inert, hidden, contenteditable, interactive, custom
//     or shadow-hosting ancestor, nor one with a role other than a
//     container's (tablist, menu, menubar, listbox, tree, group,
//     radiogroup, toolbar); in a document
//     without aria-owns or a modal dialog, and whose viewport corners do
//     not both hit one element, the sign of a modal dialog in a closed
//     shadow root). A
//     match read so is believed only once DOM.describeNode, which sees
//     closed shadow roots, showed that no element of its ancestor chain
//     is slotted. This skips the first accessibility call on a document,
//     for which Chromium builds the whole tree (100 to 350 ms on 10,000
//     elements, 3.5 to 8 s on 10,000 form controls: before the fields
//     and headings were read so, a cold role textbox lookup there took
//     4.5 s, twice Playwright's getByRole, and a heading 7.9 s; an icon
//     button named by aria-label on 10,000 ARIA widgets 380 ms, 3.3
//     times Playwright's; a cell of a 2,000-row table 99 ms). The
//     browser's own role and name of every other remaining element
//     (Accessibility.getPartialAXTree) decide. More than 64 candidates
//     (up to 4,096) are answered by the page alone when it decides every
//     one (each node of their ancestor chains described once: 1,111
//     matching buttons of 10,000 elements took 840 ms through the tree,
//     now about 380 ms). A role outside the helper's table, or more
//     candidates than that, is answered by one
//     Accessibility.queryAXTree over the scope instead (slower on large
//     pages, the same answer). Exact names are compared after whitespace
//     normalisation; other names by case-insensitive substring. Roles and
//     names are Chromium's even where Playwright's getByRole computes its
//     own: a row of a plain table has no name (Chromium names a row from
//     its cells only in a grid or treegrid), so a row there is found
//     through a cell; a table Chromium takes for a layout table (no
//     caption, thead, tfoot or th, and one cell or a layout it reads as
//     presentational) has the
//     roles LayoutTable, LayoutTableRow and LayoutTableCell, which no
//     locator asks for. The fake driver (runtimetest) follows the same
//     rules, and refuses to guess a table's kind.
//   - Label: labelable elements (form controls and form-associated
//     custom elements, whose class has formAssociated: label.control
//     returns them, through <label for> or a wrapping label) and elements
//     with aria-label or aria-labelledby whose <label> text, labelledby
//     text or aria-label matches (Playwright's getByLabel, except that it
//     reads <label>s of native controls only; HTML makes a
//     form-associated custom element labelable too), computed in the
//     page, visible and not inert. Inert is what cannot take focus or input and what the
//     accessibility tree, and so the role strategy, leaves out: a
//     computed interactivity of inert (the inert attribute on the element
//     or a flat-tree ancestor, crossing shadow roots to the host's
//     ancestors, or CSS interactivity:inert), and, while a <dialog> is
//     open modal (showModal), every element outside the topmost modal
//     dialog's flat tree (the one both viewport corners hit: its
//     ::backdrop; when they do not agree, only elements outside every
//     modal dialog count as inert). A wizard keeping earlier steps inert
//     with the same labels, or a form behind a modal dialog, so does not
//     make a label ambiguous. A modal dialog inside a closed shadow root
//     or in a parent frame's document is not seen. The rule is one helper
//     (jsInert) that Find and FindCounts share. Placeholder, test id,
//     text and CSS do not drop inert elements, as Playwright's locators
//     do not: inert content is rendered and read (a text behind a modal
//     dialog is visible, an extraction reads it); a fill of an inert
//     text field, whatever found it, types nothing (see fill). A label's
//     text is its rendered text (innerText); the lookup starts from the
//     labels, not the controls (label.go): a label without element
//     children whose textContent is ASCII is dropped unread when that
//     text, whitespace removed and lowercased, cannot contain the wanted
//     one (ASCII), since it renders that text give or take whitespace and
//     an ASCII case transform; only the remaining labels are tied to their
//     control (label.control) and laid out. Nothing is cached between
//     lookups. The answer is the same as asking every control for its
//     labels (TestLabelFastSameAnswer compares both in Chromium over a
//     corpus of every label form).
//     Placeholder: the placeholder attribute. Test id: data-testid, exact.
//     Text: the smallest visible elements whose whitespace-normalised
//     innerText matches. CSS: querySelectorAll; a trailing ":visible"
//     keeps elements with a non-empty box and visibility:visible.
//   - Shadow DOM: every strategy, and so every condition (text visible,
//     locator visible or hidden, outcome detection, all of which go
//     through Find), sees open shadow roots, nested ones and declarative
//     ones (<template shadowrootmode=open>) included, as Playwright's
//     locators do by default. One pass over the scope finds them (a
//     TreeWalker, or the text strategy's own element list); on a page
//     without open shadow roots every helper then takes the light-DOM path
//     it had before, so the pass is the whole cost (about 0.5 ms per
//     10,000 elements in Chromium 156, measured in the page).
//     Roles and names stay the browser's: the pre-filter also collects
//     candidates inside shadow trees and keeps every element whose
//     rendered content differs from its light DOM (hosts, slots and their
//     flat-tree ancestors), whatever its text; queryAXTree already
//     pierces. Labels: el.labels (a <label for> in the same shadow root, a
//     wrapping label), aria-labelledby resolved in the element's own tree
//     (document or shadow root), aria-label, and a shadow-tree <label>
//     that a control is slotted into; a label's text is its rendered text,
//     slotted content included. Text is rendered text along the flat tree:
//     shadow content where it renders and a slotted node at its slot, so a
//     slotted element is one candidate (found at its light-DOM position)
//     and its text counts for the shadow elements that render it, never
//     twice; "smallest element" follows flat-tree parents. Elements whose
//     subtree holds no host or slot keep innerText; composed levels join
//     their children's text (block children on their own line), without
//     innerText's text-transform. Read of text uses the same rendered
//     text. CSS follows Playwright's engine: the selector list is checked
//     by the browser's own parser, the last compound is queried in the
//     scope and every open shadow root under it, and the compounds before
//     it are matched walking up (descendant and child combinators cross
//     into the host, sibling combinators stay in one tree); compounds are
//     matched with Element.matches, so :is(), :not() and :has() arguments
//     are judged within one tree; a top-level :scope is the root (or the
//     document element). Unlike Playwright, ancestors above a Find root
//     still count, as for querySelectorAll. Document order across trees
//     is Playwright's: a host, its light descendants, then its shadow
//     tree. The same element is never returned twice.
//   - Closed shadow roots (and the browser's own, such as an <input>'s)
//     stay invisible, as to any page script: their elements are never
//     returned, not even by role, although Chromium's accessibility tree
//     shows them (elements found there inside a root whose mode is not
//     "open" are dropped). Their hosts and the light-DOM nodes slotted
//     into them are ordinary elements. Frame selectors do not enter
//     shadow roots.
//   - Frame waits, bounded by ctx, for each frame to leave its initial
//     empty document (an iframe with a src still on about:blank, or a
//     document still loading), so the reported origin is the real one. A
//     frame whose document was blocked resolves with origin "null".
//   - Waits, event-driven and bounded (issue 21). Event-driven, woken
//     by what Chromium reports: Navigate (the load lifecycle event of the
//     navigation's loader; a same-document one on
//     Page.navigatedWithinDocument), Settle (the causal events listed
//     above and two round trips, see Settle), Frame (between two looks
//     at a frame that is not ready it waits for any Page or Target event
//     of the driver's sessions: commit, attach, loading, lifecycle; a
//     100 ms re-check covers a change no event announces), downloads
//     (Browser.downloadWillBegin and downloadProgress) and dialogs.
//     Bounded, because no event reports the change: the fragment-only
//     navigation whose URL did not change (nothing is reported; up to a
//     second), the stability proof of actionability (the same box on two
//     reads 16 ms, about a frame, apart: nothing says a box stopped
//     moving), an element becoming visible, enabled or editable and a
//     <select> getting a matching option (25 ms re-reads: a style or
//     attribute change has no CDP event unless the DOM domain tracks every
//     node, which costs more on large pages than the re-read), the
//     checked state after a check click (25 ms, at most 20 reads), the
//     pauses between hit-test retries (0, 20, 100, 100, 500 ms, as
//     Playwright), the connection's stall ping (1 s) and Settle's 3 s
//     cap. The runtime's condition waits (locators, postconditions,
//     transitions) are woken by [Driver.WaitChange]
//     ([runtime.ChangeWaiter]): a page-side MutationObserver on the
//     scope's document (one awaited Runtime.callFunctionOn that resolves
//     on the first mutation or at the bound) and the Page and Target
//     events that change what a condition sees (frameNavigated,
//     navigatedWithinDocument, frame attach and detach, loading started
//     and stopped, load and DOMContentLoaded, dialogs, targets attached,
//     detached or crashed; not lifecycle notices such as network idle).
//     Mutations in other frames and in shadow trees are not observed; the
//     runtime's poll interval still bounds every wait between two checks.
//   - Batched looks ([Driver.FindCounts], [runtime.BatchFinder]): the
//     runtime's modal and business-outcome checks of one decision point
//     run the page-side helpers of all their candidates in one
//     Runtime.callFunctionOn (jsCounts) and call Find only for those it
//     cannot rule out. A count is what Find would return for every
//     strategy but role; a role counts 0 only when its pre-filter (a
//     superset of the accessibility tree's answer) found nothing, else -1
//     (the tree decides in Find). The teller flow went from about 161 to
//     137 CDP commands per run (BenchmarkTellerFlow).
//   - Installed document helpers (helpers.go): the lookup helpers
//     (jsCounts, jsFind, jsRoleCandidates, jsFilter, jsLabel; 11 to 37 KB
//     of source each) are compiled at most once per document, and only
//     when a look needs them: each document gets a small dispatcher (the
//     top-level one's installed beside its lookup, a frame's before the
//     first helper call there), one function object bound to that
//     document in its own execution context (no page global); a helper's
//     first call in the document sends its source to the dispatcher,
//     which runs it and keeps it, and later calls send a one-line
//     declaration and the dispatcher's handle. The dispatcher dies with
//     the document, so a call on a replaced document fails as stale, as
//     with the source. A DOM or label Find answering one element gets it
//     as the element (callFunctionOn, then DOM.describeNode for its
//     backend id), or, when it is one of the last handles returned in
//     that document, as that handle's index (callFunctionOn only).
//     Handles stay one per node.
//   - <label> associations are read once per lookup: the role
//     pre-filter maps every label of the scope's tree (and its open shadow
//     roots) to label.control, the browser's own association, instead of
//     asking el.labels of each element; the label lookup reads
//     label.control only of the labels whose text may match. On a fresh
//     document el.labels walks the whole tree once per element (a live
//     list that Chromium caches only until the next DOM change): a cold
//     label lookup on 10,000 controls took over a minute under load, the
//     role pre-filter of 2,500 buttons over a second. The label lookup's
//     page-side helper went from about 70 to 31 ms of renderer CPU on a
//     fresh 10,000-control document (BenchmarkLabelHelperCPU, under load).
//   - fill fires a page's events once, as a user's typing and leaving the
//     field would, with the change at once rather than on the blur: a
//     page whose change handler autosaves, re-renders or counts has done
//     so before the next step, and does it once. A text <input> or
//     <textarea> is focused, its content selected and the text inserted
//     (Input.insertText: trusted beforeinput and input events; a line
//     break is an edit of its own; an empty value is a Delete key press
//     in an <input>, and empties a <textarea> as a set value below), then
//     one change event is dispatched (untrusted: the browser fires its
//     own only on blur or Enter). Chromium remembers
//     the value before the first edit and would fire a second, trusted
//     change on the next blur or Enter; the fill clears that record: an
//     <input> by switching its type to another text type and back (a
//     type change resets it; the type attribute is restored as it was,
//     which a MutationObserver on attributes sees), a <textarea> by
//     setting, before the text is inserted, its value to the text the
//     insertion will leave (line breaks as LF, cut to maxlength), so the
//     edit starts from the value it ends at (beforeinput handlers see that
//     value; a textarea that cancels the insertion gets its old value
//     back). A later blur then fires no change unless the value changed
//     again (a key pressed into the field). A contenteditable element
//     gets the input events and no change (browsers fire none for one).
//     A text <input> or <textarea> that does not take the focus (inert:
//     an inert ancestor, a modal dialog open elsewhere) is not ready, as
//     not editable ("does not take focus"), and gets nothing: the text
//     would otherwise go to whatever has the focus.
//     An element that is none of these but hosts a shadow root, open or
//     closed (a form-associated custom element wrapping an <input>), is
//     filled through its focus delegate: once the host is visible and
//     enabled (a custom element matching :disabled is disabled) it is
//     focused, and the element the browser moved focus to inside its
//     shadow tree (delegatesFocus; DOM.describeNode pierces a closed
//     root) is filled as above, up to 4 nested hosts deep; a host whose
//     focus stays outside its shadow tree is [runtime.ErrUnsupported].
//     Date, time, datetime-local, month, week, range and color inputs get
//     their value set directly (the prototype's value setter, so that a
//     framework's value tracker sees the input event as new) with
//     untrusted input and change. A value such a control, or a number
//     input, would sanitise to something else (a malformed date, a range
//     value off its bounds or step, "#FF0000" for a color, "seven" for a
//     number) is refused as [runtime.ErrUnsupported] after checking it on
//     a detached copy of the control: the field keeps its value, sees no
//     event and does not take the focus. select matches an option's value,
//     then its label, and waits for a matching option to appear; it sets
//     the option without focusing the <select> and fires input and change
//     once (untrusted; a later blur fires nothing).
//     check/uncheck click only when the state differs and verify it
//     changed. fill and press do not scroll themselves: they focus the
//     element, which scrolls it into view as the browser does for focus;
//     select sets the value without the pointer and needs no view.
//   - A click on a submit button (or a custom button inside a form that
//     calls requestSubmit), or Enter in a form's field, whose form the
//     browser's constraint validation refused (a required field left
//     empty, a value off its type, pattern or range) is
//     [runtime.ErrFormInvalid] inside a *[runtime.DispatchError] (the
//     runtime fails the run as act_failed): the act's form is watched
//     from before the input goes out until the act's last event was
//     dispatched, and an "invalid" event on one of its controls with no
//     "submit" event of it is the refusal. The error names the controls
//     (name, id or aria-label) and the validity flags that failed, never
//     a value. Nothing was posted; without this the click "worked" and a
//     postcondition that already held (the previous confirmation still
//     on screen) let the run go on. A novalidate form or a formnovalidate
//     button is not validated by the browser; a page that validates by
//     itself and then submits (or prevents the submit event) is judged by
//     its submit event, as the browser's own rule: a refusal the page
//     makes inside its submit handler is not seen here (its postcondition
//     decides). The watch costs one call after a click inside a form, and
//     nothing for other clicks. A navigation the act started in the
//     watched document's session ends the wait for that call: the form was
//     submitted, and Chromium holds commands to a navigating frame until
//     the navigation has its response, so the read would wait for the
//     server's answer (Settle holds for it as the act's navigation). See
//     formwatch.go.
//   - A fill the page refused is [runtime.ErrFillRefused] (the runtime
//     fails the run as act_failed), and fires no change for a typed
//     field: refused means that once the page has reacted the field holds
//     exactly the value it had before (its innerText for a
//     contenteditable element) while the value filled differs from it in
//     its letters or digits. That covers an input handler or a controlled
//     input that renders the old value back, a cancelled beforeinput, a
//     maxlength of 0, a date whose handler puts the old day back, and a
//     maxlength that cuts the text back to the old value. The page has
//     reacted when the call that ends the fill has waited for one 0 ms
//     timer it set itself: a restore made in an input or change handler,
//     in a microtask after it or from a 0 ms timer set then runs before
//     the value is read back (timers of equal delay run in order); a
//     restore from a longer timer, an animation frame or a server answer
//     is not seen, nor, in a hidden page (a connected browser's
//     background tab, whose timers run at most once a second; the wait is
//     then one message task), one from a 0 ms timer. The timer is the
//     page's window.setTimeout: a page that replaces it with one that
//     never fires holds the fill until ctx ends. Not refused, and no
//     error: a value the page reformatted (a phone mask, upper case,
//     thousands separators, trimming, a maxlength cut that keeps part of
//     the new text) changed as far as the fill can tell, and so did one
//     the page turned back into the old value when the value filled
//     differs from the old one only in case, spacing or punctuation (such
//     a refusal cannot be told from a reformatting). What the value means (the
//     page kept the right digits, the total updated) is the action's
//     postcondition to judge. The error names neither value (a fill may
//     carry a secret).
//   - The alternative scroll alignments use element.scrollIntoView
//     (behavior "instant") in the element's own world, the main world, as
//     do the hit tests (elementFromPoint): a page that replaces those
//     functions can mislead them, and then the hit test fails and names
//     what it saw; DOM.scrollIntoViewIfNeeded, the first try, is the
//     browser's own.
//   - Downloads: a launched browser saves into a folder of the driver's
//     temporary profile (or [WithDownloadDirectory]) under the download GUID;
//     the event is attributed by GUID to the first armed listener when the
//     download starts in one of the page's frames. Connected, the driver
//     only enables download events on its own context (behavior
//     "default"), so the browser's own settings decide where files go.
//     With [WithDownloadDirectory] its own context saves into that folder under
//     the download GUID ("allow" would replace a file of the same name),
//     and on completion, before the event is delivered, the driver gives
//     the file the suggested name, or the first free "stem (n).ext" as
//     Chrome's download manager would, by hard-linking the new name
//     (which never replaces an entry) and removing the GUID name. A name
//     with separators, NUL or colon, a leading dot, a partial-download or
//     OS metadata name, or a folder without hard links keeps the GUID
//     name. The directory route's file attribution is the runtime's
//     (package download).
//   - Connect accepts local endpoints with an explicit port: exactly the
//     hosts 127.0.0.1, localhost (any case) and [::1]. Every other host,
//     other loopback addresses and spellings (127.0.0.2, 127.1,
//     [0:0:0:0:0:0:0:1], localhost.) included, is remote: it needs
//     [WithRemoteEndpoint] and a ws:// or wss:// URL. An http(s)
//     endpoint is resolved through /json/version (no proxy, no
//     redirect, 10 s at most) and the websocket URL it returns is re-pointed at the
//     endpoint's host and port.
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
//   - Service workers: a paused service_worker target answers
//     Audits.enable only once it runs, so waiting for that answer before
//     resuming it kept every registration pending forever. A service
//     worker is resumed right after Fetch.enable (which it answers while
//     paused) and gets Audits after; its connections are the gate's.
//   - The gate's trust model: it has no authentication. Its address is
//     a random loopback port, and it grants nothing: whoever connects is
//     held to the same scope, so a local process reaches nothing through
//     it that it could not reach directly (it could also drive the
//     browser through its DevTools port). The worst it can do is add
//     violations to the run. Only the driver's own browser context is
//     configured to use it (per context, never --proxy-server), so an
//     operator's tabs and other drivers' contexts never pass through it,
//     and a driver's scope never applies to them.
//   - Connect with a remote endpoint ([WithRemoteEndpoint] to a
//     non-loopback host) runs without the gate: the remote browser cannot
//     reach a proxy on this host's loopback. Only the first layer applies
//     there.
//   - Chromium's TMPDIR must be short (its singleton socket path is
//     limited to 108 bytes); when the temporary folder's path is too long
//     a short folder under /tmp is used and deleted with the profile.
//
// Known limits: the connect policy is a document policy. Dedicated,
// shared and service workers loaded from an http(s) URL take the policy of
// their own script response, so the first layer does not stop their
// WebSockets (blob: workers inherit the page's policy; a script injected
// into a paused worker crashed the renderer); the gate does. A document
// without <head> (XML, SVG) gets no policy, and again the gate holds its
// connections. As in every CSP, a source also allows its secure upgrade
// (ws://h:p allows wss://h:p); the gate allows both too (same host and
// port). The gate cannot look inside a tunnel: any protocol to an allowed
// host and port passes. The gate sees TCP only. A launched browser runs
// with --disable-quic and
// --force-webrtc-ip-handling-policy=disable_non_proxied_udp, so HTTP/3
// and WebRTC UDP are off and WebRTC can only go through the proxy (TURN
// over TCP, a checked tunnel). A connected browser's flags are its
// owner's: if it allows WebRTC over UDP (the default), a page can still
// reach any host with ICE/STUN/TURN over UDP, which no CDP setting of a
// context can stop; proxied HTTP never uses QUIC. Preconnect and
// dns-prefetch hints (<link rel=preconnect>, dns-prefetch) opened no
// connection and no request through the gate in Chromium 156 (nothing to
// refuse, so nothing is reported; the tests assert that the forbidden
// server accepted no connection). A refusal by the gate is a 403 from the
// proxy, which the page sees as a failed response (plain http) or a
// tunnel error (https, WebSocket). The tests cover, in launch and connect
// mode, every page of the testsite escape corpus plus a dedicated
// worker's and a service worker's WebSocket, preconnect hints and DNS
// rebinding to 127.0.0.2, each with zero connections accepted by the
// forbidden servers.
//
// # One browser, many runs
//
// A [Driver] drives one page and serves one run at a time (runtime.Execute
// refuses a second concurrent run on it with runtime.ErrDriverBusy). For
// concurrent runs, a [Browser] ([LaunchBrowser] or [ConnectBrowser]) is
// started or resolved once and hands out one driver per run
// ([Browser.NewDriver], or [Browser.Open] as a runtime driver source).
// Decisions:
//
//   - One attach path per Browser. NewDriver opens a driver as [Connect]
//     does (its own CDP connection, a new browser context with its own
//     network gate, so the gate's refusals stay attributed to its run),
//     except for auto-attach: a Browser's drivers do not turn on
//     browser-level auto-attach on their connections. The Browser keeps
//     one connection of its own (the attacher, opened by LaunchBrowser
//     and ConnectBrowser, which also ask Browser.getVersion once for
//     every driver) with browser-level auto-attach and the debugger
//     pause. It holds every new target of the browser and routes it by
//     its browserContextId to the driver owning that context, which
//     attaches a session of its own on its own connection
//     (Target.attachToTarget), installs interception, connect policy and
//     viewport there, and only then tells the attacher to let the target
//     run; a target of no open driver's context (an operator's tab, a
//     context being disposed) is released at once. So a popup, tab or
//     worker of a driver's context is held before its first request until
//     that driver's origin gate is in place, while no driver sees,
//     touches or delays a target of another context: a driver's open
//     never waits on another driver's connection. Chosen over one connection
//     multiplexed by session for every driver because it keeps each
//     driver's event stream, session table, crash detection and
//     browser-level events (downloads, target destruction) private and
//     unchanged, and adds only the router. When the attach connection
//     ends while the Browser is open, no new target could be held, so
//     every open driver fails with runtime.ErrBrowserCrashed and
//     NewDriver with runtime.ErrBrowserUnavailable. A standalone [Launch]
//     or [Connect] driver auto-attaches browser wide on its own
//     connection as before; several of them on one browser can release
//     each other's held targets (one session's resume lets a target run
//     for every session attached to it), leaving the network gate as the
//     only layer for that moment, so many runs on one browser go through
//     one Browser. Runs never share a context, cookies,
//     storage, page or origin scope.
//   - A launched Browser's drivers report live_launched_browser and the
//     browser_path route, watch the one process for a crash (each driver
//     fails with runtime.ErrBrowserCrashed when it exits) and, on Close,
//     dispose only their own context. Without [WithDownloadDirectory] each
//     driver downloads into its own folder inside the browser's
//     temporary directory, deleted when the driver closes.
//   - A connected Browser's drivers report live_connected_chrome; with
//     WithDownloadDirectory each driver saves into its own new subfolder of it
//     (kept: the files are the caller's), because the directory route
//     attributes a download by watching a folder and two concurrent runs
//     must not watch the same one.
//   - [Browser.Close] ends opens in progress, closes every driver still
//     open (contexts disposed), then kills a launched browser; a connected
//     one keeps running. After Close, NewDriver is runtime.ErrClosed.
//   - The Browser does not bound how many drivers are open at once: that
//     is the host's policy (runtime/jobs bounds it with its slots).
//   - A spare ([WithSpare]; a launched Browser keeps one by default, a
//     connected one only when asked): the Browser opens the next run's
//     driver (connection, context, gate, page) when it starts and again
//     when a driver it handed out is closed, never while a run is being
//     handed out, so the spare's open does not compete with the start of
//     the run that asked. The spare runs the page helpers of a run's
//     first look once on its blank page, so their scripts are compiled
//     in its renderer before a run waits on them. NewDriver hands it out
//     after checking that its browser, connection and page are alive (a
//     page round trip, bounded to 2 s) and waits for it when its open is
//     under way; a spare that failed or died is disposed and a fresh
//     driver opened.
//     Measured on the teller flow (benchcmp -gap 300ms): the open drops
//     out of a run's time when the host has time between runs; run back
//     to back, NewDriver waits for the spare about as long as a fresh
//     open takes. The spare is not counted by [Browser.Active]; its
//     context is disposed by Close.
//   - [Browser.OpenViewport] opens a driver with its own [WithViewport]
//     size (checked first, [ErrInvalidOption]), so one Browser serves
//     runs at several sizes at once (runtime/jobs' viewports).
//     [Driver.Screenshot] captures the top-level page's viewport as a PNG
//     (Page.captureScreenshot, never beyond the viewport), at most
//     [MaxScreenshotBytes]; it fails like every driver call once the
//     driver is closed or its browser is gone.
//
// # Seeded state
//
// [Driver.Seed] (runtime.Seeder) sets a capability's cookies and storage
// before the first navigation, in the driver's own browser context:
//   - Every origin must be in the installed scope, else ErrOriginBlocked
//     and a navigation violation, before anything is set.
//   - Cookies: Storage.setCookies with url = origin + path and no domain
//     (host-only), then Storage.getCookies; a cookie the browser did not
//     keep is an error, never a silent miss.
//   - Storage: DOMStorage.setDOMStorageItem needs a live document of the
//     origin and a script registered for new documents would run on every
//     later load too (re-seeding after the page cleared its storage), so
//     neither is used. The page instead navigates to origin +
//     "/.well-known/vera-seed", which interception answers itself with an
//     empty document (Fetch.fulfillRequest; the request never leaves the
//     browser and the site never sees it; a fulfilled document's lost IP
//     address space does not matter because it makes no request), sets
//     the entries with setItem and reads them back. Then the page goes to
//     about:blank and Page.resetNavigationHistory drops the seed entries,
//     so the start navigation begins like on a fresh page. Session
//     storage belongs to the tab and its origin and survives those
//     navigations; the first load of the start page already sees both.
//   - Values (resolved secrets) are sent over CDP only; they are never
//     logged or quoted in an error.
//
// # Step capture
//
// The Driver implements runtime.Capturer (capture.go) for
// runtime.WithCapture. Decisions:
//
//   - Runtime and Network are enabled only while a capture runs, on the
//     page and every target of the driver's context (new targets before
//     they run, from onAttached), and disabled again at StopCapture, so
//     a run without capture pays nothing. Events the browser replays
//     while the domains are enabled are discarded.
//   - Events come from the event loop through a waiter that never blocks
//     or calls: console (Runtime.consoleAPICalled), page errors
//     (Runtime.exceptionThrown), requests (Network.requestWillBeSent),
//     WebSockets (created, frames sent and received: payload length
//     only), child frames (Page.frameNavigated with a parent), workers
//     and popups (Target.attachedToTarget), cancelled downloads of the
//     driver's frames (Browser.downloadProgress). At most
//     MaxCaptureBuffer events wait between snapshots; more are counted as
//     lost, never silently dropped.
//   - Browser-internal documents (chrome: WebUI, such as the omnibox
//     popup new headless Chromium opens in the context) are never the
//     page's: their sessions are marked and ignored.
//   - Sections come from CDP, never from page scripts a page could
//     override: Page.captureScreenshot, DOM.getOuterHTML of the document
//     object, Accessibility.getFullAXTree, Page.getNavigationHistory,
//     DOMStorage.getDOMStorageItems for the top-level origin.
//   - Each section has its own bound (SnapshotSectionTimeout): a
//     screenshot of a page hidden behind a popup waits for a frame that
//     never comes, and must leave only itself missing.
//   - The history is the run's own: entries after the one current at
//     StartCapture, so a reused page's earlier runs never make two
//     captures of the same flow differ.
//
// Authorization (runtime/grant, FORMAT section 15). Decisions:
//
//   - Nothing is started or reached without an authorization: [Launch],
//     [LaunchBrowser] and [StartLocal] decide it after the options are
//     checked and the executable is found, before the process starts;
//     [Connect] and [ConnectBrowser] after the endpoint is parsed, before
//     the first request to it (the /json/version lookup included). The
//     authorization is an explicit [WithGrant] grant for exactly this
//     target, or, without one, the ceiling's auto-grant ([WithCeiling],
//     else grant.FromEnv). A refusal wraps grant.ErrNotGranted (and says
//     what to grant), grant.ErrExceedsCeiling, grant.ErrNotCovered or
//     grant.ErrCeiling (a bad environment ceiling).
//   - A launch starts the resolved executable the grant commits (symlinks
//     followed when it was granted and again just before the start); a
//     grant with no [WithBrowserPath] selects its executable itself.
//   - The decided authorization travels with every driver
//     ([Driver.Authorization], also for each driver a Browser hands out);
//     runtime.Execute asks it for each run's grant. A wrapper of a live
//     driver must forward Authorization, or Execute refuses the run.
//   - StartLocal is a launch like any other: it needs a launch
//     authorization. Connecting to the browser it started is a connect.
//   - [LocalGrant] is the one line a program uses to grant its own launch
//     of one capability on loopback origins (grant.Local), for examples
//     and development; anything beyond loopback needs a real ceiling.
package browser

// Package testsite serves synthetic web apps on loopback origins for Vera's
// browser tests and examples (the quickstart drives the teller console).
//
// [Start] starts every app on its own random 127.0.0.1 port with
// net/http/httptest; StartTeller, StartMail, StartInvoicing, StartOutside,
// StartStress and StartAPIDoc start one app each. Every app embeds a [Server] with
// URL/Origin (an origin such as "http://127.0.0.1:41234", no trailing
// slash), per-path hit counters (Hits, TotalHits, ResetHits), a bounded
// request log (Requests) and Close. Knobs are methods on each app.
//
// Invariants:
//   - No external resources: every page is plain HTML, vanilla JS and CSS
//     embedded with embed and served from the page's own origin under
//     /assets/; system fonts only; no CDN, font, analytics or icon request.
//     GET /favicon.ico answers 204 with an empty body on every app except
//     Outside (which answers everything with 200).
//   - Search state lives in path segments (teller), the hash (mail) or,
//     as in most back offices, the query of a plain GET (the invoicing
//     client search /clients?q= and the framed list /frame/invoices?page=),
//     which capabilities reach through query entries, never a raw query.
//   - Accessible markup: real <label for>, <button>, headings, tables with
//     captions, role=dialog with aria-modal and aria-labelledby. The role and
//     accessible-name pairs below were checked against Chromium's
//     accessibility tree; capability JSON hard-codes them, so they must not
//     change.
//   - Every handler that waits (latency, slow pages, export delay and stall,
//     the never-ending fetch) returns when the client goes away or the
//     server closes, so Close never hangs and leaves no goroutine.
//   - Thread-safe: knobs, counters and handlers may be used concurrently.
//     Seed data (TellerMembers, MailMessages, Invoices) are copies; changing
//     them never changes what the servers render.
//   - Hits counts every request, any method, by decoded URL path (without
//     query), before any delay; it includes /assets/ and /favicon.ico.
//
// Decisions where the brief was silent:
//   - Status and alert regions (role=status, role=alert) have no accessible
//     name in Chromium (their name comes from the author only); locate them
//     by visible text, e.g. "No member found".
//   - Knobs rendered into a page (SetStuckSearch, ShowSurvey,
//     ShowNativeDialog) apply to pages loaded after the call; server-side
//     knobs (latency, search-button name, session expiry, export settings)
//     apply to the next request.
//   - The stress pages have their own origin (Stress), not the teller's.
//   - Buttons that are hidden in a state (pagination ends, dialogs) use the
//     hidden attribute (display:none) and are absent from the accessibility
//     tree; they are never removed from the DOM.
//
// # Webcheck pages (on the Stress origin)
//
// Small apps under /webcheck/ that behave like today's web apps, for the
// outside-checker tests (runtime/browser/webcheck_test.go): a pushState
// single-page app whose data arrives 200-800 ms late and replaces the
// whole view, a debounced autocomplete, an animated modal with a focus
// trap that loads its form, a form with native validation and
// aria-labelledby or wrapping labels, a late iframe and a virtualized
// grid. Routes, roles and names are listed in webcheck.go.
//
// # Unseen pages (on the Stress origin)
//
// Business apps unlike the pages above, for the "sites the code has never
// seen" tests (runtime/browser/unseen_test.go); each renders its whole UI
// from one state object, so every change replaces the elements: a
// settings page of switches (role switch, aria-checked; a native
// checkbox role=switch under a drawn track) whose Save is disabled until
// something changed and whose toast lasts one second; a three-step
// wizard that remounts its form on Next and keeps the earlier steps in
// the DOM, hidden (display:none, inert, or aria-hidden alone) with the
// same labels; a server-sorted invoice table (aria-sort) in a scrolled
// box with a sticky header and kebab menus (role menu, closed by an
// outside mousedown); a dashboard a dedicated worker or a service worker
// fills in behind skeletons; a <dialog> opened with showModal() holding
// form-associated custom elements with open or closed shadow roots.
// Routes, roles and names, and what each server records
// ([Stress.UnseenSettings], [Stress.UnseenSuppliers],
// [Stress.UnseenArchived], [Stress.UnseenContacts]), are listed in
// unseen.go.
//
// # Skeleton page (on the Stress origin)
//
// /skeleton/balance shows a balance as a blank skeleton (empty, zero-width
// or white-space text in a visible box) and, with ?fill=<ms>, fills it
// from a fetch after a timer, replacing the element; see skeleton.go.
//
// # Unseen2 pages (on the Stress origin)
//
// A second set for runtime/browser/unseen2_test.go, each one
// self-contained document under /unseen2/: a rich-text editor
// (contenteditable role=textbox, plain or model-driven) saved by a button;
// an ARIA combobox whose options a debounced search replaces; a "Load
// more" list (optionally declaring aria-setsize); an optimistic "Record
// payment" the server may refuse with 409 after a chosen delay; a div grid
// of role=row and role=cell behind skeleton rows; a same-origin iframe
// whose form submission navigates it. Routes and what each server records
// ([Stress.Unseen2Notes], [Stress.Unseen2Assignments],
// [Stress.Unseen2PayAttempts], [Stress.Unseen2Paid],
// [Stress.Unseen2Expenses]) are listed in unseen2.go.
//
// # Member portal (Portal, StartPortal)
//
// Who is signed in, from the HttpOnly cookie "portal_session", and two
// labels the page's script reads from localStorage "portal.workspace" and
// sessionStorage "portal.tab" while it loads; see [Portal] for the routes.
// Sign-in needs an account added with AddAccount; NewSession mints a
// session for seeding; Logins counts password sign-ins. It is not part of
// [Start] (its placeholder origin in capability fixtures is
// http://127.0.0.1:4050).
//
// # Teller console (Teller, http://127.0.0.1:P)
//
// The member-balance process. No JavaScript; every form is a plain POST.
//
//	GET /                 303 to /members with a session, else /login
//	GET /login            sign-in page
//	POST /login           form username, password; any non-empty pair signs in:
//	                      sets HttpOnly cookie "teller_session" (random), 303 /members;
//	                      an empty field re-renders the page (200) with the alert
//	GET /members          member search (needs a session)
//	POST /members/search  form memberId; 303 to /members/<id> (query-free URL);
//	                      an empty id 303s back to /members
//	GET /members/<id>     balances of a seed member, or the search page with
//	                      status "No member found" (200) for any unknown id
//
// Protected pages without a session cookie (or with an unknown one) 303 to
// /login. After [Teller.ExpireSessions], a protected page answers 200 with
// the session-expired page until the client signs in again.
//
// /login controls:
//
//	heading (h1)  "Teller console"
//	textbox       "Username"   <label for=username>Username</label>; input#username name=username
//	textbox       "Password"   <label for=password>Password</label>; input#password name=password type=password
//	                           (Chromium reports a password input as role textbox)
//	button        "Sign in"    type=submit
//	alert         (no name)    text "Enter your username and password" (only after an empty submit)
//
// /members and the unknown-member page:
//
//	heading (h1)  "Member search"
//	textbox       "Member ID"  <label for=member-id>Member ID</label>; input#member-id name=memberId,
//	                           placeholder "e.g. 100234" (prefilled with the id on the unknown-member page)
//	button        "Search"     data-testid="member-search-submit"; the name follows
//	                           [Teller.RenameSearchButton] (e.g. "Find member"), the test id never changes
//	status        (no name)    text "No member found" (unknown-member page only)
//
// /members/<id> for a known member ([TellerMembers]):
//
//	heading (h1)  member name, also data-testid="member-name" (e.g. "Ada Lovelace")
//	heading (h2)  "Accounts"
//	table         "Accounts"   <caption>Accounts</caption>; columnheaders "Account", "Balance";
//	                           rowheader "Savings" with cell data-testid="balance-savings" (e.g. "$12,480.55"),
//	                           rowheader "Checking" with cell data-testid="balance-checking" (e.g. "$1,204.10")
//	link          "Back to search"  href /members
//
// Session-expired page (any protected path, 200):
//
//	heading (h1)  "Session expired"
//	text          "Session expired. Please sign in again."
//	link          "Sign in again"   href /login
//
// Knobs: [Teller.SetLatency], [Teller.RenameSearchButton],
// [Teller.ExpireSessions], [Teller.SetOutsideOrigin]; observers
// [Teller.ActiveSessions], [Teller.Logins].
//
// # Origin-escape pages (on the Teller origin)
//
// Public (no session). Each targets the Outside origin set by [Start] (or
// [WithOutsideOrigin]); without one they answer 503.
//
//	GET /escape/redirect     302 to <outside>/page (no page of its own)
//	GET /escape/js-redirect  h1 "JS redirect escape"; on load, location.href = <outside>/page
//	GET /escape/popup        h1 "Popup escape"; button "Open popup" -> window.open(<outside>/page)
//	GET /escape/iframe       h1 "Iframe escape"; iframe#outside-frame title "Outside frame", src <outside>/page
//	GET /escape/form         h1 "Form escape"; button "Send" submits POST <outside>/submit (hidden note=escape)
//	GET /escape/subresource  h1 "Subresources"; img <outside>/pixel.png and script <outside>/script.js
//	GET /escape/link         h1 "Link escape"; link "Leave" href <outside>/page
//	GET /escape/redirect-link h1 "Redirect escape"; link "Continue" href /escape/redirect
//	GET /escape/worker-ws    h1 "Worker WebSocket escape"; a dedicated worker loaded over http
//	                         (/assets/escape-worker.js) opens ws://<outside>/ws; status (role
//	                         status) "Worker started", then "Worker WebSocket: open" or ": error"
//	GET /escape/service-worker  h1 "Service worker escape"; registers /escape/sw.js (scope /escape/),
//	                         which on activation fetches <outside>/sw-fetch and opens
//	                         ws://<outside>/ws; status "Service worker ready" once
//	                         navigator.serviceWorker.ready resolved, then "Service worker ready,
//	                         WebSocket open" or "..., WebSocket error"
//	GET /escape/sw.js        the service worker script (JavaScript, no-store)
//	GET /escape/preconnect   h1 "Preconnect escape"; <link rel=preconnect> to <outside> and to
//	                         https://<outside host:port>, <link rel=dns-prefetch> to <outside>;
//	                         status "Hints given"
//	GET /escape/rebind       h1 "Rebinding page"; button "Fetch data" fetches
//	                         /escape/rebind/data/1..4 from the page's own origin in parallel; status
//	                         "Loaded", then "Rebind done: " and one result per fetch ("ok",
//	                         "status <code>" or "error"); answers with Connection: close
//	GET /escape/rebind/data/<n>  text "data <n>", Connection: close
//
// # Transfer (on the Teller origin, public)
//
// A consequential form submission behind a confirmation dialog.
//
//	GET  /transfer       h1 "Send transfer"; button "Review transfer" shows the dialog
//	                     "Confirm transfer" (role dialog, in the DOM from the start, hidden),
//	                     whose button "Confirm and send" submits the form (then reads
//	                     "Sending…", aria-busy; the dialog stays visible while in flight)
//	POST /transfer       counts one transfer ([Teller.Transfers]), waits
//	                     [Teller.SetTransferDelay] (default 300 ms), then 303 to
//	                     /transfer/done, or with [Teller.BreakTransfers] answers 500
//	                     with h1 "Something went wrong"
//	GET  /transfer/done  h1 "Transfer sent"
//
// # Compose (on the Teller origin, public)
//
// A post composer: the draft is saved (reversible), then published from a
// review page (the external action). See compose.go.
//
//	GET  /compose            h1 "New post"; textbox "Title" (input#post-title name=title),
//	                         textbox "Body" (textarea#post-body name=body), button "Save draft" (submit)
//	POST /compose/draft      stores the draft ([Teller.Drafts]), 303 /compose/review
//	GET  /compose/review     h1 "Review post", the saved title (p#draft-title), button "Publish";
//	                         with [Teller.ShowComposeSurvey] also a visible role=dialog aria-modal
//	                         "Quick survey" with button "Not now" (an unexpected modal)
//	POST /compose/publish    counts one publication ([Teller.Publishes]), 303 /compose/published
//	GET  /compose/published  h1 "Post published"
//
// # Mail client (Mail, http://127.0.0.1:P)
//
// GET /mail is a single-page app with hash routing (GET / 303s to /mail).
// A page loaded without a hash is rewritten (replaceState) to /mail#inbox.
//
//	#inbox             (default, also any unknown hash) the inbox view
//	#search/<q>        the search view for decodeURIComponent(q)
//
// Shared header (always visible):
//
//	search landmark    <form role=search>
//	searchbox "Search mail"  input#search-input type=search aria-label="Search mail" placeholder "Search mail"
//	button    "Search"       type=submit; Enter in the searchbox submits too
//
// Submitting a non-blank query sets location.hash = "#search/" +
// encodeURIComponent(query) (the raw query, untrimmed; spaces and Unicode
// such as "fattura marzo" or "café" work). A blank query does nothing. With
// [Mail.SetStuckSearch] the submit does nothing at all and the route stays
// #inbox.
//
// Inbox view (section#inbox-view):
//
//	heading (h1)  "Inbox"
//	list          "Messages"   ul aria-label="Messages" with the 8 [MailMessages]
//
// Search view (section#search-view):
//
//	heading (h1)  "Search results"
//	list          "Search results"  ul aria-label="Search results" (hidden when empty)
//	status        (no name)    text "No messages matched your search" (only when empty)
//
// Rows in both lists are li[data-testid=message-row] containing
// span.sender, span.subject and span.date (ISO yyyy-mm-dd). Switching views
// hides the other section (hidden attribute, display:none) and never
// removes it, so stale rows stay in the DOM: after a search the inbox rows
// are still present but hidden, and after returning to #inbox the old
// results are too. Use li[data-testid=message-row]:visible. A message
// matches when every whitespace-separated term of the query occurs,
// case-insensitively (after NFC normalization), in its sender or subject;
// [SearchMail] computes the same answer in Go.
//
// # Invoicing (Invoicing: shell origin A http://127.0.0.1:PA, workspace origin B http://localhost:PB)
//
// B is cross-site to A, so Chromium runs the workspace and ledger in an
// out-of-process iframe. The frame path is
// ["iframe#workspace", "iframe#ledger"]; both frames are origin B.
//
//	A GET /billing            h1 "Billing"; iframe#workspace title "Invoice workspace", src B/workspace
//	B GET /workspace          h2 "Workspace"; iframe#ledger title "Invoice ledger", src B/ledger
//	B GET /ledger             the ledger (below)
//	B GET /export/invoices.csv  the CSV download (Content-Disposition attachment)
//	B POST /api/issue         issues INV-2064, counted by [Invoicing.IssuedCount]
//	B POST /api/survey        a survey answer, counted by [Invoicing.SurveyAnswers]
//
// Ledger controls:
//
//	heading (h2)  "Invoices"
//	button        "Export CSV"     navigates the frame to /export/invoices.csv -> a download
//	button        "Issue invoice"  consequential: opens the "Confirm issue" dialog
//	                               (or window.confirm with [Invoicing.ShowNativeDialog])
//	status        (no name)        text "Invoice INV-2064 issued" after confirming (hidden before)
//	table         "Invoices"       <caption>Invoices</caption>; columnheaders Number, Customer, Date, Amount, Status
//	button        "Previous page"  hidden on page 1
//	status        (no name)        p#page-status, text "Page 1 of 3" ... "Page 3 of 3"
//	button        "Next page"      hidden on the last page
//
// Rows are rendered client-side, 10 per page ([LedgerPageSize]); paging
// never navigates. Each row is tr.invoice-row with a fresh random
// data-testid="invoice-row-<8 hex>" on every render (test ids are unstable
// here on purpose) and cells td.number, td.customer, td.date, td.amount,
// td.status holding the [Invoices] fields verbatim.
//
// The in-page confirmation (div role=dialog aria-modal=true
// aria-labelledby, behind a backdrop that intercepts pointer events):
//
//	dialog   "Confirm issue"   text "Issue invoice INV-2064 to Acme S.p.A.?"
//	button   "Confirm"         POST /api/issue, then shows the status and closes
//	button   "Cancel"          closes (so does Escape); focused on open
//
// Client search (origin A, GET /clients?q=<name>): a GET form role=search
// "Client search" with textbox "Client name" (input#client-q name=q,
// prefilled with q) and button "Search"; p#client-query "Results for <q>"
// when q is set; table "Clients" (<caption>) with tr.client-row, td.name,
// td.invoices for every customer [SearchClients] matches (name contains q,
// case-insensitively; blank q lists all), or status "No client matches".
//
// Framed invoice list (origin A GET /billing/list: h1 "Invoice list",
// iframe#invoice-list title "Invoice list", src B/frame/invoices?page=1;
// B is cross-site, so the frame is out-of-process): B GET
// /frame/invoices?page=<n> renders h2 "Invoices", table "Invoice page" with
// [FramePageSize] tr.invoice-row (td.number, td.customer, td.amount),
// p#page-status "Page n of m", and links "Previous page" / "Next page"
// (absent on the first / last page) to ?page=n-1 / ?page=n+1: paging
// navigates the frame, so the frame's URL is the page state while the
// top-level URL stays /billing/list. A bad page is 1, past the end the last.
//
// Client desk (origin A, GET /desk?q=<name>), one page for a capability
// that acts both at the top and in a cross-origin frame: h1 "Client desk";
// the <desk-sync> web component, whose heading "Sincronizzazione", status
// (role status, test id desk-sync-status, "Ultima sincronizzazione: mai")
// and button "Sincronizza" live in an open shadow root (a click POSTs
// [DeskSyncAPI] and then reads "Sincronizzazione completata: <n> clienti",
// n every client); a search form role=search "Client search" (textbox
// "Client name" input#desk-q, button "Search") whose state is the q query
// parameter: the page's script renders, after fetching [DeskClientsAPI],
// table "Matching clients" (<caption>) with tr.client-row, td.name,
// td.invoices, or status "No client matches"; submitting pushes
// /desk?q=<name> (no page load). Below, h2 "Invoices" and
// iframe#desk-invoices title "Invoices" framing B/frame/invoices?page=1
// (the framed list above, out-of-process).
//
// With [Invoicing.ShowSurvey] the ledger opens on load an unexpected modal
// the runtime must never click through:
//
//	dialog   "Quick survey"    text "Did you find what you were looking for?"
//	button   "Yes"             POST /api/survey, closes
//	button   "No thanks"       POST /api/survey, closes; focused on open
//
// Export knobs: [Invoicing.SetExportFilename] (default "invoices.csv"),
// [Invoicing.SetExportDelay] (before headers), [Invoicing.SetExportStall]
// (half the body, a pause, the rest), [Invoicing.SetExportSize] (pads to n
// bytes, e.g. 1<<20). [Invoicing.ExportCSV] returns the exact bytes served.
//
// # Outside (Outside, http://127.0.0.1:PO)
//
// Must never be contacted in origin-escape tests. Counts every accepted
// Must never be contacted in origin-escape tests. Its listener counts the
// TCP connections it accepts ([Server.Connections]: a preconnect that
// sends nothing counts too). [StartOutsideAt] starts one on a given
// address, e.g. 127.0.0.2 and an allowed origin's port, the target of a
// DNS-rebinding test. Answers any method and path with 200 and counts it: /pixel.png (1x1 PNG), /script.js,
// TCP connection ([Server.Connections], a preconnect included) and answers
// any method and path with 200 and counts it: /pixel.png (1x1 PNG), /script.js,
// /page (h1 "Outside page"), POST /submit (h1 "Outside received"), anything
// else text "outside".
//
// # Stress (Stress, http://127.0.0.1:PS)
//
//	GET /stress/nodes/<n>      h1 "Stress nodes" and exactly n generated elements (1 <= n <= 200000)
//	                           in div.chunk groups of 100: elements 1..n-1 cycle div "Node k",
//	                           button "Button k", h3 "Heading k", span "Text k" (each kind numbered
//	                           from 1); element n is the only button "Target button" (button#target)
//	GET /stress/controls/<n>   h1 "Stress controls" and n controls (1 <= n <= 50000) cycling
//	                           textbox "Field k" (labelled), button "Action k", link "Link k",
//	                           combobox "Choice k" (labelled select), checkbox "Option k" (labelled);
//	                           ids ctl-1..ctl-n; among the textboxes, k%10==3 is labelled with an
//	                           e-mail "member<k>@example.com" and k%10==7 with a valid Italian IBAN
//	                           (see [StressIdentifierLabels])
//	GET /stress/widgets/<n>    h1 "Stress widgets" and n ARIA widgets (1 <= n <= 50000) in groups of
//	                           100 of one kind, cycling by group: tablist of tabs "Tab k", menu of
//	                           menuitems "Command k", listbox of options "Choice k", toolbar of
//	                           buttons named by aria-label "Remove row k" (an svg inside), group of
//	                           switches "Setting k"; each kind numbered from 1
//	GET /stress/table/<n>      h1 "Stress table" and a data table (caption "Invoices", header row th
//	                           Invoice, Customer, Amount, Status) of n rows (1 <= n <= 20000): td
//	                           "INV-k", "Customer k", "k.00 EUR", "Paid" (k even) or "Open" (k odd)
//	GET /stress/never-settles  h1 "Never settles"; button "Never ready" (always disabled); p#ticker
//	                           mutates every 10 ms; a fetch of /stress/hang stays pending forever
//	GET /stress/hang           never answers (until the client leaves or the server closes)
//	GET /stress/slow/<ms>      after ms milliseconds (0..60000): h1 "Slow page", "Loaded after <ms> ms"
//	GET /stress/probe          only a form: textbox "Full name", textbox "Email" (type=email),
//	                           combobox "Country" (Italy, France, Germany, Spain), checkbox
//	                           "Subscribe", button "Save" (does nothing); the page counts DOM
//	                           mutations (MutationObserver on document) and click, input, change,
//	                           keydown and focusin events (capture phase on window) into
//	                           window.__veraProbe = {mutations, events}; the script is deferred, so
//	                           both are 0 once the page has loaded and nothing acted on it
//	GET /stress/components/<n>  h1 "Componenti", n light-DOM buttons "Voce 1".."Voce n"
//	                           (0 <= n <= 50000, div.chunk groups of 100), then web components
//	                           (below, /assets/components.js and declarative shadow roots)
//	GET /stress/roles          h1 "Role corpus": about 3,400 elements under test (data-c), every
//	                           snippet of a list (native buttons, links and input buttons,
//	                           headings, labelled form fields, table cells of data and layout
//	                           tables, ARIA widget roles in and out of their containers, role
//	                           attributes; names from text, aria-label, labelledby, title, alt,
//	                           placeholder, value, labels, ::before/::after; hidden, invisible and
//	                           aria-hidden children; inert, aria-hidden and role ancestors; open
//	                           and closed shadow roots, slotted or not; custom elements with
//	                           ElementInternals role or aria-hidden; text transforms) times a list
//	                           of name texts (whitespace, case, no-break and zero-width spaces,
//	                           soft hyphen, private-use code point, empty), in div.rc-group groups
//	                           of eight with one name (data-name); ?modal=open opens a modal
//	                           dialog, ?modal=closed one inside a closed shadow root, ?owns=1 adds
//	                           an aria-owns (the role fast path's differential test)
//	GET /stress/fold           the fold app (actionability): a script mounts the UI into an empty
//	                           #root, handles clicks with one root listener and re-renders after
//	                           each and every 250 ms (the sticky 64 px header#topbar is rebuilt
//	                           each time). Buttons (class fold-control): "Pane action" (#in-pane,
//	                           below the visible area of the scrolled div#pane), "Right action"
//	                           (#right, across the right edge), "Below action" (#below, its centre
//	                           just below the bottom edge), "Above action" (#above, 150vh down);
//	                           iframe#panel (/stress/fold/frame) across the bottom edge; checkbox
//	                           "Email me" (#agree, transparent under its label's drawn box) 100vh +
//	                           300 px down. Each click
//	                           on a control counts in its data-clicks and output#count-<id>.
//	                           ?top=<id> scrolls so that control's centre is 4 px above the top
//	                           edge (under the header); ?under=<id> scrolls so its top is 12 px
//	                           below that edge (wholly in the window, under the header);
//	                           ?frame=localhost loads the panel from
//	                           http://localhost:<port> (another site: an out-of-process frame).
//	                           #root gets data-ready="true" once mounted
//	GET /stress/fold/modal     the fold app covered by div.modal-backdrop and a "Session expired"
//	                           dialog (as is /stress/fold?modal=1)
//	GET /stress/fold/busy      the fold app covered by "Saving..." in div.modal-backdrop.busy, which
//	                           never lifts (no dialog role)
//	GET /stress/fold/frame     the panel: "Framed action" (#framed) below the visible area of
//	                           div#inner, itself below the visible area of div#outer (both
//	                           overflow:auto), counted like the others
//
// Out-of-range or non-decimal path numbers answer 400.
//
// /stress/components/<n> web components (every shadow root open unless
// said otherwise; names checked against Chromium's accessibility tree):
//
//	sync-panel#panel     shadow: section > h2#sync-title heading "Sincronizzazione",
//	                     p.status[data-testid=sync-status] role=status "Ultima sincronizzazione: mai",
//	                     and a nested sync-action whose own shadow root holds
//	                     button#sync.primary "Sincronizza"; a click sets the status to
//	                     "Sincronizzazione in corso", then 150 ms later "Sincronizzazione completata"
//	icon-button#refresh  role button (ElementInternals), tabindex 0, named "Aggiorna" by its
//	                     shadow content (an aria-hidden icon and span.label); a click counts
//	                     into its data-clicks attribute
//	form-field#customer  shadow <label for=control> whose text is the slotted span "Codice
//	                     cliente", input#control name=customer (textbox "Codice cliente")
//	form-field#email     the same with "Email di recapito", name=email, placeholder
//	                     "nome@esempio.it" (from data-placeholder)
//	action-bar#actions   shadow div.bar role=toolbar "Azioni" with a slot; the light buttons
//	                     button#cancel "Annulla" and button#confirm "Conferma" are slotted into it
//	greeting-card#greeting  declarative shadow root: p.greet renders the slotted light text
//	                     "Benvenuto, <b>Mario</b>" followed by "!"; a wrapping label "Note" with
//	                     textarea name=note; span#ref-label "Riferimento" labelling (aria-labelledby)
//	                     input name=ref
//	opt-in#optin         declarative shadow root: a <label> holding a slot and the text "Ricevi
//	                     notifiche"; the light input[type=checkbox][name=optin] is slotted into it
//	                     (Chromium gives that checkbox no accessible name)
//	closed-widget#closed-host  a closed shadow root with p "Contenuto riservato" and button
//	                     "Segreto": in the accessibility tree, unreachable to page scripts
//
// # API docs (APIDoc, http://127.0.0.1:P)
//
// A Swagger-UI-like documentation page for a small pet API. It renders in
// the page the way a React app does: one state object, and every change
// (a section or operation opened, "Try it out", Execute, a response
// arriving) re-renders the whole tree under main#root, so element handles
// of the previous render go stale. The spec is fetched from
// /api/openapi.json. Under the title, the API's description (three
// paragraphs) pushes the operations down: at 414x800 the "Try it out"
// button of an opened GET /api/pets/{petId} crosses the fold and its
// Execute button is below it, while at 1024x700 and wider both are in
// view (measured in Chromium 156; the issue 22 test asserts it).
//
//	GET /                   303 to /docs
//	GET /docs               the page; main#root gets aria-busy="false" once the spec is rendered
//	GET /api/openapi.json   the spec (title, version, description, operations with documented responses)
//	GET /api/pets           JSON array of the pets ([Pet]); ?limit=N returns the first N
//	GET /api/pets/{petId}   after [APIDocPetDelay]: JSON pet (indented), or 404 {"code":404,"message":"pet not found"}
//
// Controls, with Chromium's accessible names (checked against its
// accessibility tree; the <wbr> before every "/" after the first becomes
// a space in the name, and the description is part of it):
//
//	heading (h1)  "Swagger Petstore 1.0.0"
//	button        "pets", "store"   tag sections, both open (aria-expanded); lower case as in Swagger UI
//	button        "GET /api /pets List all pets"                       shows GET /api/pets
//	button        "POST /api /pets Create a pet"
//	button        "GET /api /pets /{petId} Info for a specific pet"    shows GET /api/pets/{petId}
//	button        "DELETE /api /pets /{petId}"                         no description
//	button        "GET /api /store /inventory Returns pet inventories"
//
// An open operation shows heading (h4) "Parameters", button "Try it out"
// (then "Cancel"), a parameters table whose rows have no name and whose
// inputs have no label (textbox named by its placeholder, the parameter
// name: "petId", "limit"; disabled until "Try it out"), button "Execute"
// after "Try it out", and a "Responses" section. There, Execute first
// shows "Loading…" (aria-busy) until the answer arrives, then h4 "Server
// response" and table.live-responses-table (no caption): a header row
// ("Code", "Details") and one unnamed row tr.response with the status in
// td.response-col_status (role cell, named by the status: "200", "404")
// and the JSON body in pre[data-testid=response-body]. Below it, the
// documented responses (table.responses-table, no caption): a header
// row and one unnamed row per documented code with the same cells
// ("200", "404" for GET /api/pets/{petId}) and an example JSON block
// (pre.example, no test id). The open POST /api/pets has a request body
// textarea with neither label nor placeholder (a textbox without a
// name), disabled until "Try it out".
//
// # Activity console (Activity, http://127.0.0.1:P)
//
// For per-step capture tests (runtime.WithCapture): pages whose events
// happen in known steps. Started alone with [StartActivity].
//
//	GET /activity            h1 "Activity monitor", button "Run checks", status "Idle",
//	                         link "Show report". "Run checks" logs "checks started", fetches
//	                         /activity/api/status, opens a WebSocket to /activity/socket,
//	                         sends "ping", logs (info) "checks done: ok pong:ping", throws
//	                         Error("widget check failed") from a timer, then shows
//	                         "Checks done"
//	GET /activity/api/status {"status":"ok"}
//	GET /activity/socket     WebSocket echo: each text message m answered "pong:"+m
//	GET /activity/report     h1 "Report", "Plan: Basic" ([Activity.SetPlan] changes it)
//	GET /activity/login      text field "Access code", button "Sign in"; signing in logs
//	                         "signing in with <code>", stores it in sessionStorage
//	                         draft_code and attribute data-last, shows h2 "Signed in"
//	GET /activity/tools      button "Open tools": adds an iframe of /activity/report, opens
//	                         /activity/report in a popup, starts a worker from
//	                         /activity/worker.js and shows "Tools open" when it answers
package testsite

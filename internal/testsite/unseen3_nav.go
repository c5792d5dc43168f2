package testsite

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"html/template"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Unseen3 navigation pages (on the Stress origin): business apps whose
// navigation, timing and network behaviour is unlike the other test
// pages', for runtime/browser/unseen3_nav_test.go. Each page is one
// self-contained document (markup and script below) rendering from a
// state object, as the unseen2 pages do.
//
//	GET /unseen3n/login       h1 "Sign in": textboxes "Email" and
//	                          "Password", button "Sign in". The script POSTs
//	                          /unseen3n/api/login {"email","password"} (350 ms);
//	                          on 200 it shows the status "Signed in.
//	                          Redirecting…" and 150 ms later
//	                          location.replace()s the answer's next: the
//	                          bridge page. 401 shows the alert "Wrong email
//	                          or password". ?refresh=<s> (0-5, default 1) is
//	                          the bridge's meta refresh delay; ?next=<path>
//	                          (a /unseen3n/ path) where the bridge goes
//	                          (default /unseen3n/home). Password: Unseen3NavPassword
//	GET /unseen3n/bridge      server-rendered h1 "Signing you in", a
//	                          <meta http-equiv=refresh> to ?to= after ?refresh=
//	                          seconds (a session-less visit goes to the login)
//	GET /unseen3n/home        h1 "Your account": a region "Account" whose
//	                          dd[data-testid=account-name] and
//	                          dd[data-testid=account-plan] are empty until GET
//	                          /unseen3n/api/me (300-600 ms) answers with the
//	                          session's account ([Unseen3NavAccounts]); without a
//	                          session the script location.replace()s the login
//	GET /unseen3n/crm         h1 "Accounts": an SPA (also served at
//	  /unseen3n/crm/accounts/{id}) whose links are routed by pushState. The
//	                          list is links named by account name
//	                          ([Unseen3NavCRM]); a detail shows h2 <name>,
//	                          dd[data-testid=owner], dd[data-testid=balance],
//	                          links "All accounts" and "Next account". A route
//	                          change keeps the old view on screen (a React
//	                          transition) under a progressbar "Loading page"
//	                          until the new route's data is in: GET
//	                          /unseen3n/api/accounts/{id}?delay=<ms> (default
//	                          1500). ?defer= says when the router starts that
//	                          fetch: "" in the click handler, "raf" in the next
//	                          animation frame (an exit animation), "mc" in a
//	                          MessageChannel task (React's scheduler),
//	                          "chunk" after loading the route's script chunk
//	                          /unseen3n/crm/chunk.js (150 ms, no-store, a
//	                          data-router loader) ([Stress.Unseen3NavAccountReads])
//	GET /unseen3n/profile     h1 "Profile": textbox "Phone" (value
//	                          Unseen3NavPhone), button "Save changes" that POSTs
//	                          /unseen3n/api/profile {"save","attempt","phone"}
//	                          (200 ms). ?fail=<n>: the first n attempts of each
//	                          save answer 503 (Retry-After: 1); the page retries
//	                          after ?backoff=<ms> (default 500), doubling, up to
//	                          5 attempts, showing the status "Connection
//	                          problem. Retrying…" (any 5xx and a network
//	                          error are retried so); ?drop=<n>: the first n
//	                          attempts end with the connection closed, no
//	                          answer; success shows the status
//	                          "Changes saved" and dd[data-testid=phone] the
//	                          server's number. ?optimistic=1: the number is shown
//	                          at once, no status while retrying, and "Changes
//	                          saved" never appears ([Stress.Unseen3NavProfileAttempts],
//	                          [Stress.Unseen3NavPhones])
//	GET /unseen3n/inbox       h1 "Support inbox": an EventSource
//	                          /unseen3n/api/events (a heartbeat every 300 ms;
//	                          the server ends the stream after 1.5 s and the
//	                          page reconnects after 200 ms) re-renders the
//	                          status "Live · <n>"; GET /unseen3n/api/unread is
//	                          polled every second (p#unread). Textbox "Reply" and
//	                          button "Send reply": the reply is shown at once in
//	                          list "Conversation" with span.delivery "Sending…",
//	                          POST /unseen3n/api/replies (?send=<ms>, default
//	                          3500) then "Sent" and span.ref "R-<n>"
//	                          ([Stress.Unseen3NavReplies])
//	GET /unseen3n/orders      h1 "Orders": links "ORD-<n>" (routed in
//	                          place); a click GETs /unseen3n/api/orders/{n}
//	                          (300 ms) and shows h2 "Order ORD-<n>" and
//	                          dd[data-testid=order-total]. ?expired=1: the API
//	                          answers 401 {"error":"session_expired"}; the page
//	                          shows h1 "Your session has expired" and 1.2 s
//	                          later location.assign()s
//	                          /unseen3n/login?next=/unseen3n/orders; with
//	                          ?redirect=now it location.replace()s the login at
//	                          once, with no interstitial
//	                          ([Stress.Unseen3NavOrderReads])
//	GET /unseen3n/editor      h1 "New document": textbox "Title", button
//	                          "Save draft" (POST /unseen3n/api/drafts {"title"},
//	                          300 ms, then the status "Draft saved") and a
//	                          link "Back to documents" (/unseen3n/docs). While
//	                          the title differs from the saved one the page
//	                          asks before it is left (a beforeunload handler
//	                          that cancels the unload)
//	GET /unseen3n/search      h1 "Customers": a searchbox "Search customers"
//	                          and list "Customers" (li.cust: span.name,
//	                          span.city) under an h2. On load the list shows
//	                          the recent customers (GET
//	                          /unseen3n/api/customers?recent=1, ?recent=<ms>,
//	                          default 200), h2 "Recent customers"; typing keeps
//	                          the old list (marked aria-busy, except with
//	                          ?busy=0) and, debounced 300 ms,
//	                          GETs /unseen3n/api/customers?q= (400 ms); its
//	                          answer replaces the list and the h2 reads
//	                          "Results for “<q>”". Answers of an earlier
//	                          query, or the recent list arriving after a search,
//	                          are dropped. ?fail=<n>: the first n attempts of
//	                          each search answer 503 (Retry-After: 1);
//	                          ?drop=<n>: they end with the connection closed;
//	                          the page retries either after ?backoff=<ms>
//	                          (default 500), doubling, up to 5 attempts, the
//	                          old list staying on screen, and then shows the
//	                          alert "Search failed" under it
//	                          ([Unseen3NavCustomers], [Stress.Unseen3NavSearches]:
//	                          the queries answered)
//	GET /unseen3n/docs        server-rendered h1 "Documents" and list
//	                          "Documents" of every saved draft's title
//	                          ([Stress.Unseen3NavDrafts])

// Unseen3NavPassword is the password every unseen3 account signs in with.
const Unseen3NavPassword = "correct horse 7"

// Unseen3NavPhone is the profile page's phone number before any save.
const Unseen3NavPhone = "+39 02 1234 567"

// Unseen3NavAccount is an account the login knows.
type Unseen3NavAccount struct {
	Email string `json:"email"`
	Name  string `json:"name"`
	Plan  string `json:"plan"`
}

// Unseen3NavAccounts returns the accounts the login knows.
func Unseen3NavAccounts() []Unseen3NavAccount {
	return []Unseen3NavAccount{
		{"ada@borgo.example", "Ada Rossi", "Business, 12 seats"},
		{"bruno@lario.example", "Bruno Ferri", "Starter, 2 seats"},
	}
}

// Unseen3NavCRMAccount is one account of the CRM SPA.
type Unseen3NavCRMAccount struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Owner   string `json:"owner"`
	Balance int    `json:"balance"` // euro cents
}

// Unseen3NavCRM returns the CRM's accounts in list order; "Next account"
// goes to the following one (the last to the first).
func Unseen3NavCRM() []Unseen3NavCRMAccount {
	return []Unseen3NavCRMAccount{
		{"A-101", "Etna Coop", "Ada Rossi", 1254000},
		{"A-102", "Borgo Srl", "Bruno Ferri", 98050},
		{"A-103", "Lario Spa", "Carla Neri", 4410075},
		{"A-104", "Monviso Sas", "Dario Galli", 12300},
	}
}

// Unseen3NavCustomer is one customer of the search page.
type Unseen3NavCustomer struct {
	Name string `json:"name"`
	City string `json:"city"`
}

// Unseen3NavCustomers returns the search page's customers; the first
// three are the recent ones.
func Unseen3NavCustomers() []Unseen3NavCustomer {
	return []Unseen3NavCustomer{
		{"Etna Coop", "Catania"}, {"Lario Spa", "Como"}, {"Tevere Srl", "Roma"},
		{"Borgo Srl", "Parma"}, {"Borgognoni & Figli", "Torino"}, {"Monviso Sas", "Cuneo"},
		{"Borgosesia Tessile", "Vercelli"}, {"Adige Trasporti", "Verona"},
	}
}

// Unseen3NavOrder is one order of the orders page.
type Unseen3NavOrder struct {
	Number string `json:"number"`
	Total  int    `json:"total"` // euro cents
}

// Unseen3NavOrders returns the orders page's orders.
func Unseen3NavOrders() []Unseen3NavOrder {
	return []Unseen3NavOrder{{"ORD-8801", 45000}, {"ORD-8802", 12990}, {"ORD-8803", 300050}}
}

// Unseen3NavProfileAttempt is one profile save request the server received,
// with the status it answered (0: the connection was closed unanswered).
type Unseen3NavProfileAttempt struct {
	Save    string
	Attempt int
	Phone   string
	Status  int
}

// unseen3n holds what the unseen3 navigation pages' servers recorded.
type unseen3n struct {
	st *Stress

	mu           sync.Mutex
	sessions     map[string]string // session token -> email
	logins       []string
	accountReads []string
	attempts     []Unseen3NavProfileAttempt
	phones       []string
	replies      []string
	orderReads   []string
	drafts       []string
	searches     []string
	liveSearches []string
	calls        uint64
}

// Unseen3NavLogins returns the email of every successful login, in order.
func (st *Stress) Unseen3NavLogins() []string {
	st.unseen3n.mu.Lock()
	defer st.unseen3n.mu.Unlock()
	return append([]string(nil), st.unseen3n.logins...)
}

// Unseen3NavAccountReads returns the id of every CRM account the API answered, in order.
func (st *Stress) Unseen3NavAccountReads() []string {
	st.unseen3n.mu.Lock()
	defer st.unseen3n.mu.Unlock()
	return append([]string(nil), st.unseen3n.accountReads...)
}

// Unseen3NavProfileAttempts returns every profile save request, in order.
func (st *Stress) Unseen3NavProfileAttempts() []Unseen3NavProfileAttempt {
	st.unseen3n.mu.Lock()
	defer st.unseen3n.mu.Unlock()
	return append([]Unseen3NavProfileAttempt(nil), st.unseen3n.attempts...)
}

// Unseen3NavPhones returns every phone number the server stored, in order.
func (st *Stress) Unseen3NavPhones() []string {
	st.unseen3n.mu.Lock()
	defer st.unseen3n.mu.Unlock()
	return append([]string(nil), st.unseen3n.phones...)
}

// Unseen3NavReplies returns every reply the inbox sent, in order.
func (st *Stress) Unseen3NavReplies() []string {
	st.unseen3n.mu.Lock()
	defer st.unseen3n.mu.Unlock()
	return append([]string(nil), st.unseen3n.replies...)
}

// Unseen3NavOrderReads returns the number of every order the API answered
// (200 or 401), in order.
func (st *Stress) Unseen3NavOrderReads() []string {
	st.unseen3n.mu.Lock()
	defer st.unseen3n.mu.Unlock()
	return append([]string(nil), st.unseen3n.orderReads...)
}

// Unseen3NavSearches returns every customer query the search API
// answered (not the recent list), in order.
func (st *Stress) Unseen3NavSearches() []string {
	st.unseen3n.mu.Lock()
	defer st.unseen3n.mu.Unlock()
	return append([]string(nil), st.unseen3n.searches...)
}

// Unseen3NavDrafts returns every draft title the editor saved, in order.
func (st *Stress) Unseen3NavDrafts() []string {
	st.unseen3n.mu.Lock()
	defer st.unseen3n.mu.Unlock()
	return append([]string(nil), st.unseen3n.drafts...)
}

func (u *unseen3n) delay(lo, span time.Duration) time.Duration {
	u.mu.Lock()
	u.calls++
	n := u.calls
	u.mu.Unlock()
	return lo + time.Duration((n*uint64(277*time.Millisecond))%uint64(span))
}

// navMS reads a millisecond query parameter in [0, 10000], else def.
func navMS(r *http.Request, name string, def time.Duration) time.Duration {
	if ms, ok := pathCount(r.URL.Query().Get(name), 0, 10000); ok {
		return time.Duration(ms) * time.Millisecond
	}
	return def
}

// navLocalPath reports whether p is a path of this family (no scheme, host
// or traversal), safe to redirect to.
func navLocalPath(p string) bool {
	return strings.HasPrefix(p, "/unseen3n/") && !strings.ContainsAny(p, "\\\"'<> ") && !strings.Contains(p, "//")
}

const unseen3nCookie = "u3n_session"

func (u *unseen3n) session(r *http.Request) (Unseen3NavAccount, bool) {
	c, err := r.Cookie(unseen3nCookie)
	if err != nil {
		return Unseen3NavAccount{}, false
	}
	u.mu.Lock()
	email, ok := u.sessions[c.Value]
	u.mu.Unlock()
	if !ok {
		return Unseen3NavAccount{}, false
	}
	for _, a := range Unseen3NavAccounts() {
		if a.Email == email {
			return a, true
		}
	}
	return Unseen3NavAccount{}, false
}

const unseen3nLoginBody = `<main id="root">
<h1>Sign in</h1>
<form id="form" novalidate>
<p><label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="username"></p>
<p><label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password"></p>
<p id="actions"></p>
</form>
<div id="out"></div>
</main>`

const unseen3nLoginJS = `
var st = { busy: false, error: "", done: "" };
function render() {
  var a = document.getElementById("actions"); a.textContent = "";
  a.appendChild(el("button", { type: "submit", disabled: st.busy }, st.busy ? "Signing in…" : "Sign in"));
  var out = document.getElementById("out"); out.textContent = "";
  if (st.error) out.appendChild(el("p", { role: "alert" }, st.error));
  if (st.done) out.appendChild(el("p", { role: "status" }, st.done));
}
document.getElementById("form").addEventListener("submit", function (e) {
  e.preventDefault();
  st.busy = true; st.error = ""; render();
  post("/unseen3n/api/login", { email: document.getElementById("email").value, password: document.getElementById("password").value,
    refresh: query("refresh"), next: query("next") }).then(function (j) {
    st.busy = false; st.done = "Signed in. Redirecting…"; render();
    setTimeout(function () { location.replace(j.next); }, 150);
  }, function (e) { st.busy = false; st.error = e.status === 401 ? "Wrong email or password" : "Could not sign in: " + e.message; render(); });
});
render();
`

const unseen3nHomeBody = `<main id="root">
<h1>Your account</h1>
<section id="card" aria-label="Account"></section>
</main>`

const unseen3nHomeJS = `
var st = { me: null };
function render() {
  var c = document.getElementById("card"); c.textContent = "";
  c.appendChild(el("dl", null, [el("dt", null, "Name"), el("dd", { "data-testid": "account-name" }, st.me ? st.me.name : ""),
    el("dt", null, "Plan"), el("dd", { "data-testid": "account-plan" }, st.me ? st.me.plan : "")]));
}
render();
fetch("/unseen3n/api/me").then(function (r) {
  if (r.status === 401) { location.replace("/unseen3n/login"); return; }
  return r.json().then(function (me) { st.me = me; render(); });
});
`

const unseen3nCRMBody = `<main id="root">
<div id="bar"></div>
<h1>Accounts</h1>
<div id="view"></div>
</main>`

const unseen3nCRMJS = `
var defer = query("defer"), delay = query("delay");
var st = { path: location.pathname, list: null, account: null, pending: false };
var seq = 0;
function link(href, name) {
  return el("a", { href: href, on: { click: function (e) { e.preventDefault(); go(href); } } }, name);
}
function render() {
  var bar = document.getElementById("bar"); bar.textContent = "";
  if (st.pending) bar.appendChild(el("div", { role: "progressbar", "aria-label": "Loading page" }, "Loading…"));
  var v = document.getElementById("view"); v.textContent = "";
  if (st.view === "detail" && st.account) {
    var a = st.account;
    v.appendChild(el("section", { "aria-labelledby": "acct-name" }, [
      el("h2", { id: "acct-name" }, a.name),
      el("dl", null, [el("dt", null, "Owner"), el("dd", { "data-testid": "owner" }, a.owner),
        el("dt", null, "Balance"), el("dd", { "data-testid": "balance" }, euro(a.balance))]),
      el("p", null, [link("/unseen3n/crm", "All accounts"), " · ", link("/unseen3n/crm/accounts/" + a.next, "Next account")])]));
  } else if (st.list) {
    v.appendChild(el("ul", { "aria-label": "Accounts" }, st.list.map(function (a) {
      return el("li", null, link("/unseen3n/crm/accounts/" + a.id, a.name));
    })));
  }
}
function later(fn) {
  if (defer === "raf") requestAnimationFrame(function () { fn(); });
  else if (defer === "mc") { var ch = new MessageChannel(); ch.port1.onmessage = function () { fn(); }; ch.port2.postMessage(0); }
  else if (defer === "chunk") {
    var s = document.createElement("script");
    s.src = "/unseen3n/crm/chunk.js?n=" + seq;
    s.onload = function () { s.remove(); fn(); };
    document.head.appendChild(s);
  } else fn();
}
function load(path, my) {
  var m = /\/accounts\/([A-Z0-9-]+)$/.exec(path);
  if (!m) {
    if (st.list) { st.view = "list"; st.pending = false; render(); return; }
    getJSON("/unseen3n/api/accounts").then(function (l) { if (my !== seq) return; st.list = l; st.view = "list"; st.pending = false; render(); });
    return;
  }
  later(function () {
    getJSON("/unseen3n/api/accounts/" + m[1] + (delay ? "?delay=" + delay : "")).then(function (a) {
      if (my !== seq) return; // a later route change won
      st.account = a; st.view = "detail"; st.pending = false; render();
    });
  });
}
function go(href) {
  history.pushState(null, "", href);
  st.pending = true; render(); // the old view stays until the data is in
  load(href, ++seq);
}
window.addEventListener("popstate", function () { st.pending = true; render(); load(location.pathname, ++seq); });
render();
load(location.pathname, ++seq);
`

const unseen3nProfileBody = `<main id="root">
<h1>Profile</h1>
<form id="form">
<p><label for="phone">Phone</label> <input id="phone" name="phone" type="tel"></p>
<p id="actions"></p>
</form>
<dl><dt>Phone on file</dt><dd data-testid="phone" id="shown"></dd></dl>
<div id="out"></div>
</main>`

const unseen3nProfileJS = `
var fail = query("fail"), drop = query("drop"), backoff = Number(query("backoff")) || 500, optimistic = query("optimistic") === "1";
var st = { shown: "` + Unseen3NavPhone + `", saving: false, status: "", error: "" };
document.getElementById("phone").value = st.shown;
function render() {
  var a = document.getElementById("actions"); a.textContent = "";
  a.appendChild(el("button", { type: "submit", disabled: st.saving && !optimistic }, "Save changes"));
  document.getElementById("shown").textContent = st.shown;
  var out = document.getElementById("out"); out.textContent = "";
  if (st.status) out.appendChild(el("p", { role: "status" }, st.status));
  if (st.error) out.appendChild(el("p", { role: "alert" }, st.error));
}
// postSave is post with an error that carries the status whatever the
// body (a proxy's 502 is not JSON).
function postSave(url, body) {
  return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }).then(function (r) {
    if (r.ok) return r.json();
    return r.json().catch(function () { return {}; }).then(function (j) { var e = new Error(j.error || r.status); e.status = r.status; throw e; });
  });
}
function attempt(save, phone, n, wait) {
  postSave("/unseen3n/api/profile?fail=" + fail + "&drop=" + drop, { save: save, attempt: n, phone: phone }).then(function (j) {
    st.saving = false; st.shown = j.phone; if (!optimistic) st.status = "Changes saved"; render();
  }, function (e) {
    if ((e.status >= 500 || e instanceof TypeError) && n < 5) {
      if (!optimistic) { st.status = "Connection problem. Retrying…"; render(); }
      setTimeout(function () { attempt(save, phone, n + 1, wait * 2); }, wait);
      return;
    }
    st.saving = false; st.status = ""; st.error = "Could not save: " + e.message; render();
  });
}
document.getElementById("form").addEventListener("submit", function (e) {
  e.preventDefault();
  var phone = document.getElementById("phone").value.trim();
  st.saving = true; st.error = "";
  if (optimistic) st.shown = phone; else st.status = "Saving…";
  render();
  attempt(Math.random().toString(36).slice(2), phone, 1, backoff);
});
render();
`

const unseen3nInboxBody = `<main id="root">
<h1>Support inbox</h1>
<div id="live"></div>
<p id="unread"></p>
<h2>Ticket S-4410: Invoice shows the wrong VAT</h2>
<ul id="conv" aria-label="Conversation"></ul>
<form id="form">
<p><label for="reply">Reply</label> <textarea id="reply" rows="3"></textarea></p>
<p><button type="submit">Send reply</button></p>
</form>
</main>`

const unseen3nInboxJS = `
var st = { beats: 0, unread: null, msgs: [{ from: "Customer", text: "The VAT on INV-2042 is 10%, it should be 22%.", delivery: "", ref: "" }] };
function render() {
  var l = document.getElementById("live"); l.textContent = "";
  l.appendChild(el("p", { role: "status" }, "Live · " + st.beats));
  document.getElementById("unread").textContent = st.unread == null ? "" : st.unread + " unread";
  var c = document.getElementById("conv"); c.textContent = "";
  st.msgs.forEach(function (m) {
    c.appendChild(el("li", { "class": "msg" }, [el("b", null, m.from + ": "), el("span", { "class": "text" }, m.text),
      m.from === "You" ? el("span", null, [" ", el("span", { "class": "delivery", "data-testid": "delivery" }, m.delivery), " ",
        el("span", { "class": "ref", "data-testid": "reply-ref" }, m.ref)]) : null]));
  });
}
function connect() {
  var es = new EventSource("/unseen3n/api/events");
  es.onmessage = function (e) { st.beats = Number(e.data); render(); };
  es.onerror = function () { es.close(); setTimeout(connect, 200); };
}
function poll() {
  getJSON("/unseen3n/api/unread").then(function (j) { st.unread = j.unread; render(); }, function () {});
}
connect(); poll(); setInterval(poll, 1000);
document.getElementById("form").addEventListener("submit", function (e) {
  e.preventDefault();
  var box = document.getElementById("reply"), text = box.value.trim();
  if (!text) return;
  var m = { from: "You", text: text, delivery: "Sending…", ref: "" };
  st.msgs.push(m); box.value = ""; render();
  post("/unseen3n/api/replies" + (query("send") ? "?send=" + query("send") : ""), { ticket: "S-4410", text: text }).then(function (j) {
    m.delivery = "Sent"; m.ref = j.ref; render();
  }, function (e) { m.delivery = "Not sent: " + e.message; render(); });
});
render();
`

const unseen3nOrdersBody = `<main id="root">
<div id="view"></div>
</main>`

const unseen3nOrdersJS = `
var orders = ORDERS;
var st = { order: null, expired: false, loading: "" };
function render() {
  var v = document.getElementById("view"); v.textContent = "";
  if (st.expired) {
    v.appendChild(el("h1", null, "Your session has expired"));
    v.appendChild(el("p", null, "Redirecting to sign in…"));
    return;
  }
  v.appendChild(el("h1", null, "Orders"));
  v.appendChild(el("ul", { "aria-label": "Orders" }, orders.map(function (n) {
    return el("li", null, el("a", { href: "#" + n, on: { click: function (e) { e.preventDefault(); open(n); } } }, n));
  })));
  if (st.loading) v.appendChild(el("p", { role: "status" }, "Loading " + st.loading + "…"));
  if (st.order) v.appendChild(el("section", null, [el("h2", null, "Order " + st.order.number),
    el("dl", null, [el("dt", null, "Total"), el("dd", { "data-testid": "order-total" }, euro(st.order.total))])]));
}
function open(n) {
  st.loading = n; render();
  fetch("/unseen3n/api/orders/" + n + location.search).then(function (r) {
    if (r.status === 401 && query("redirect") === "now") { location.replace("/unseen3n/login?next=/unseen3n/orders"); return; }
    if (r.status === 401) {
      st.expired = true; render();
      setTimeout(function () { location.assign("/unseen3n/login?next=/unseen3n/orders"); }, 1200);
      return;
    }
    return r.json().then(function (o) { st.loading = ""; st.order = o; render(); });
  });
}
render();
`

const unseen3nEditorBody = `<main id="root">
<h1>New document</h1>
<form id="form">
<p><label for="title">Title</label> <input id="title" name="title"></p>
<p id="actions"></p>
</form>
<p><a href="/unseen3n/docs">Back to documents</a></p>
<div id="out"></div>
</main>`

const unseen3nEditorJS = `
var st = { saved: "", saving: false, status: "", error: "" };
var title = document.getElementById("title");
function dirty() { return title.value.trim() !== st.saved; }
window.addEventListener("beforeunload", function (e) {
  if (!dirty()) return;
  e.preventDefault(); e.returnValue = "";
});
function render() {
  var a = document.getElementById("actions"); a.textContent = "";
  a.appendChild(el("button", { type: "submit", disabled: st.saving }, st.saving ? "Saving…" : "Save draft"));
  var out = document.getElementById("out"); out.textContent = "";
  if (st.status) out.appendChild(el("p", { role: "status" }, st.status));
  if (st.error) out.appendChild(el("p", { role: "alert" }, st.error));
}
title.addEventListener("input", function () { st.status = ""; render(); });
document.getElementById("form").addEventListener("submit", function (e) {
  e.preventDefault();
  st.saving = true; st.error = ""; render();
  post("/unseen3n/api/drafts", { title: title.value.trim() }).then(function (j) {
    st.saving = false; st.saved = j.title; st.status = "Draft saved"; render();
  }, function (e) { st.saving = false; st.error = "Could not save: " + e.message; render(); });
});
render();
`

const unseen3nSearchBody = `<main id="root">
<h1>Customers</h1>
<p><label for="q">Search customers</label> <input id="q" type="search" autocomplete="off"></p>
<h2 id="heading"></h2>
<ul id="list" aria-label="Customers"></ul>
<div id="out"></div>
</main>`

const unseen3nSearchJS = `
var st = { q: "", heading: "Recent customers", items: null, busy: true };
var seq = 0, timer = 0;
var input = document.getElementById("q");
function render() {
  document.getElementById("heading").textContent = st.heading;
  var ul = document.getElementById("list"); ul.textContent = "";
  if (query("busy") !== "0") ul.setAttribute("aria-busy", st.busy ? "true" : "false");
  (st.items || []).forEach(function (c) {
    ul.appendChild(el("li", { "class": "cust" }, [el("span", { "class": "name" }, c.name), " · ", el("span", { "class": "city" }, c.city)]));
  });
  var out = document.getElementById("out"); out.textContent = "";
  if (st.error) out.appendChild(el("p", { role: "alert" }, st.error));
}
var fail = query("fail"), drop = query("drop"), backoff = Number(query("backoff")) || 500;
// search asks for q's customers; a 5xx or a network error is retried
// after wait, doubling, up to 5 attempts, the old list staying on screen.
function search(my, q, n, wait) {
  getJSON("/unseen3n/api/customers?q=" + encodeURIComponent(q) + "&attempt=" + n + "&fail=" + fail + "&drop=" + drop).then(function (list) {
    if (my !== seq) return; // a later query is on its way
    st.items = list; st.heading = "Results for “" + q + "”"; st.busy = false; st.error = ""; render();
  }, function (e) {
    if (my !== seq) return;
    if ((Number(e.message) >= 500 || e instanceof TypeError) && n < 5) {
      setTimeout(function () { search(my, q, n + 1, wait * 2); }, wait);
      return;
    }
    st.busy = false; st.error = "Search failed"; render();
  });
}
input.addEventListener("input", function () {
  st.q = input.value.trim(); st.busy = true; render();
  clearTimeout(timer);
  timer = setTimeout(function () { search(++seq, st.q, 1, backoff); }, 300);
});
render();
getJSON("/unseen3n/api/customers?recent=" + (query("recent") || "200")).then(function (list) {
  if (seq || st.q) return; // a search started meanwhile
  st.items = list; st.busy = false; render();
});
`

func (u *unseen3n) routes(mux *http.ServeMux) {
	page := func(title, body, script string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) { unseen2Page(w, http.StatusOK, title, body, script) }
	}
	sleep := func(r *http.Request, d time.Duration) bool { return u.st.sleep(r.Context(), d) }

	// Login, bridge, home.
	mux.HandleFunc("GET /unseen3n/login", page("Sign in", unseen3nLoginBody, unseen3nLoginJS))
	mux.HandleFunc("POST /unseen3n/api/login", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Email    string `json:"email"`
			Password string `json:"password"`
			Refresh  string `json:"refresh"`
			Next     string `json:"next"`
		}
		if !decode(w, r, &in) || !sleep(r, 350*time.Millisecond) {
			return
		}
		known := false
		for _, a := range Unseen3NavAccounts() {
			known = known || a.Email == strings.TrimSpace(in.Email)
		}
		if !known || in.Password != Unseen3NavPassword {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":"wrong email or password"}`))
			return
		}
		refresh := 1
		if n, ok := pathCount(in.Refresh, 0, 5); ok {
			refresh = n
		}
		next := "/unseen3n/home"
		if navLocalPath(in.Next) {
			next = in.Next
		}
		var b [12]byte
		_, _ = rand.Read(b[:])
		tok := hex.EncodeToString(b[:])
		u.mu.Lock()
		if u.sessions == nil {
			u.sessions = map[string]string{}
		}
		u.sessions[tok] = strings.TrimSpace(in.Email)
		u.logins = append(u.logins, strings.TrimSpace(in.Email))
		u.mu.Unlock()
		http.SetCookie(w, &http.Cookie{Name: unseen3nCookie, Value: tok, Path: "/unseen3n/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
		wcJSON(w, map[string]string{"next": "/unseen3n/bridge?refresh=" + itoa(refresh) + "&to=" + next})
	})
	mux.HandleFunc("GET /unseen3n/bridge", func(w http.ResponseWriter, r *http.Request) {
		to := r.URL.Query().Get("to")
		if !navLocalPath(to) {
			to = "/unseen3n/home"
		}
		refresh, ok := pathCount(r.URL.Query().Get("refresh"), 0, 5)
		if !ok {
			refresh = 1
		}
		if _, ok := u.session(r); !ok {
			http.Redirect(w, r, "/unseen3n/login", http.StatusSeeOther)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Cache-Control", "no-store")
		fmt.Fprintf(w, `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Signing you in</title>
<meta http-equiv="refresh" content="%d;url=%s">
<link rel="stylesheet" href="/assets/site.css"></head>
<body><main><h1>Signing you in</h1><p>Loading your workspace…</p></main></body></html>
`, refresh, template.HTMLEscapeString(to))
	})
	mux.HandleFunc("GET /unseen3n/home", page("Your account", unseen3nHomeBody, unseen3nHomeJS))
	mux.HandleFunc("GET /unseen3n/api/me", func(w http.ResponseWriter, r *http.Request) {
		a, ok := u.session(r)
		if !ok {
			http.Error(w, `{"error":"no session"}`, http.StatusUnauthorized)
			return
		}
		if !sleep(r, u.delay(300*time.Millisecond, 300*time.Millisecond)) {
			return
		}
		wcJSON(w, a)
	})

	// The CRM SPA.
	crm := page("Accounts", unseen3nCRMBody, unseen3nCRMJS)
	mux.HandleFunc("GET /unseen3n/crm", crm)
	mux.HandleFunc("GET /unseen3n/crm/accounts/{id}", crm)
	mux.HandleFunc("GET /unseen3n/crm/chunk.js", func(w http.ResponseWriter, r *http.Request) {
		if !sleep(r, 150*time.Millisecond) {
			return
		}
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write([]byte("window.u3nChunk = (window.u3nChunk || 0) + 1;\n"))
	})
	mux.HandleFunc("GET /unseen3n/api/accounts", func(w http.ResponseWriter, r *http.Request) {
		if !sleep(r, 100*time.Millisecond) {
			return
		}
		wcJSON(w, Unseen3NavCRM())
	})
	mux.HandleFunc("GET /unseen3n/api/accounts/{id}", func(w http.ResponseWriter, r *http.Request) {
		all := Unseen3NavCRM()
		for i, a := range all {
			if a.ID != r.PathValue("id") {
				continue
			}
			if !sleep(r, navMS(r, "delay", 1500*time.Millisecond)) {
				return
			}
			u.mu.Lock()
			u.accountReads = append(u.accountReads, a.ID)
			u.mu.Unlock()
			wcJSON(w, map[string]any{"id": a.ID, "name": a.Name, "owner": a.Owner, "balance": a.Balance, "next": all[(i+1)%len(all)].ID})
			return
		}
		http.NotFound(w, r)
	})

	// Profile save retried after 503.
	mux.HandleFunc("GET /unseen3n/profile", page("Profile", unseen3nProfileBody, unseen3nProfileJS))
	mux.HandleFunc("POST /unseen3n/api/profile", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Save    string `json:"save"`
			Attempt int    `json:"attempt"`
			Phone   string `json:"phone"`
		}
		if !decode(w, r, &in) {
			return
		}
		if in.Save == "" || in.Phone == "" {
			http.Error(w, `{"error":"save and phone are required"}`, http.StatusBadRequest)
			return
		}
		if !sleep(r, 200*time.Millisecond) {
			return
		}
		fail, _ := pathCount(r.URL.Query().Get("fail"), 0, 10)
		if drop, _ := pathCount(r.URL.Query().Get("drop"), 0, 10); in.Attempt <= drop {
			// The connection ends without an answer (a reset on the
			// way): nothing is stored.
			u.mu.Lock()
			u.attempts = append(u.attempts, Unseen3NavProfileAttempt{Save: in.Save, Attempt: in.Attempt, Phone: in.Phone})
			u.mu.Unlock()
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					_ = c.Close()
					return
				}
			}
			panic(http.ErrAbortHandler)
		}
		status := http.StatusOK
		if in.Attempt <= fail {
			status = http.StatusServiceUnavailable
		}
		u.mu.Lock()
		u.attempts = append(u.attempts, Unseen3NavProfileAttempt{Save: in.Save, Attempt: in.Attempt, Phone: in.Phone, Status: status})
		if status == http.StatusOK {
			u.phones = append(u.phones, in.Phone)
		}
		u.mu.Unlock()
		if status != http.StatusOK {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(status)
			_, _ = w.Write([]byte(`{"error":"service unavailable"}`))
			return
		}
		wcJSON(w, map[string]string{"phone": in.Phone})
	})

	// Inbox with a heartbeat stream and a poll.
	mux.HandleFunc("GET /unseen3n/inbox", page("Support inbox", unseen3nInboxBody, unseen3nInboxJS))
	mux.HandleFunc("GET /unseen3n/api/events", func(w http.ResponseWriter, r *http.Request) {
		fl, ok := w.(http.Flusher)
		if !ok {
			http.Error(w, "no streaming", http.StatusInternalServerError)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		for i := 1; i <= 5; i++ {
			fmt.Fprintf(w, "data: %d\n\n", time.Now().UnixMilli()%100000)
			fl.Flush()
			if !sleep(r, 300*time.Millisecond) {
				return
			}
		}
	})
	mux.HandleFunc("GET /unseen3n/api/unread", func(w http.ResponseWriter, r *http.Request) {
		if !sleep(r, u.delay(100*time.Millisecond, 200*time.Millisecond)) {
			return
		}
		wcJSON(w, map[string]int{"unread": 3})
	})
	mux.HandleFunc("POST /unseen3n/api/replies", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Ticket string `json:"ticket"`
			Text   string `json:"text"`
		}
		if !decode(w, r, &in) {
			return
		}
		if in.Text == "" {
			http.Error(w, `{"error":"a text is required"}`, http.StatusBadRequest)
			return
		}
		if !sleep(r, navMS(r, "send", 3500*time.Millisecond)) {
			return
		}
		u.mu.Lock()
		u.replies = append(u.replies, in.Text)
		ref := "R-" + itoa(900+len(u.replies))
		u.mu.Unlock()
		wcJSON(w, map[string]string{"ref": ref})
	})

	// An editor that asks before a dirty form is left.
	mux.HandleFunc("GET /unseen3n/editor", page("New document", unseen3nEditorBody, unseen3nEditorJS))
	mux.HandleFunc("POST /unseen3n/api/drafts", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Title string `json:"title"`
		}
		if !decode(w, r, &in) {
			return
		}
		if strings.TrimSpace(in.Title) == "" {
			http.Error(w, `{"error":"a title is required"}`, http.StatusBadRequest)
			return
		}
		if !sleep(r, 300*time.Millisecond) {
			return
		}
		u.mu.Lock()
		u.drafts = append(u.drafts, in.Title)
		u.mu.Unlock()
		wcJSON(w, in)
	})
	mux.HandleFunc("GET /unseen3n/docs", func(w http.ResponseWriter, _ *http.Request) {
		var items strings.Builder
		for _, d := range u.st.Unseen3NavDrafts() {
			items.WriteString("<li>" + template.HTMLEscapeString(d) + "</li>")
		}
		unseen2Page(w, http.StatusOK, "Documents", `<main><h1>Documents</h1><ul aria-label="Documents">`+items.String()+
			`</ul><p><a href="/unseen3n/editor">New document</a></p></main>`, "")
	})

	u.liveRoutes(mux)

	// Debounced customer search.
	mux.HandleFunc("GET /unseen3n/search", page("Customers", unseen3nSearchBody, unseen3nSearchJS))
	mux.HandleFunc("GET /unseen3n/api/customers", func(w http.ResponseWriter, r *http.Request) {
		all := Unseen3NavCustomers()
		if r.URL.Query().Has("recent") {
			if !sleep(r, navMS(r, "recent", 200*time.Millisecond)) {
				return
			}
			wcJSON(w, all[:3])
			return
		}
		q := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("q")))
		if !sleep(r, 400*time.Millisecond) {
			return
		}
		// attempt counts from 1 (0: not given, never refused).
		attempt, _ := pathCount(r.URL.Query().Get("attempt"), 0, 10)
		if drop, _ := pathCount(r.URL.Query().Get("drop"), 0, 10); attempt >= 1 && attempt <= drop {
			// The connection ends without an answer.
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					_ = c.Close()
					return
				}
			}
			panic(http.ErrAbortHandler)
		}
		if fail, _ := pathCount(r.URL.Query().Get("fail"), 0, 10); attempt >= 1 && attempt <= fail {
			w.Header().Set("Retry-After", "1")
			http.Error(w, `{"error":"busy"}`, http.StatusServiceUnavailable)
			return
		}
		out := []Unseen3NavCustomer{}
		for _, c := range all {
			if q != "" && strings.Contains(strings.ToLower(c.Name), q) {
				out = append(out, c)
			}
		}
		u.mu.Lock()
		u.searches = append(u.searches, q)
		u.mu.Unlock()
		wcJSON(w, out)
	})

	// Orders whose session may expire.
	var nums []string
	for _, o := range Unseen3NavOrders() {
		nums = append(nums, `"`+o.Number+`"`)
	}
	mux.HandleFunc("GET /unseen3n/orders", page("Orders", unseen3nOrdersBody, strings.Replace(unseen3nOrdersJS, "ORDERS", "["+strings.Join(nums, ",")+"]", 1)))
	mux.HandleFunc("GET /unseen3n/api/orders/{n}", func(w http.ResponseWriter, r *http.Request) {
		if !sleep(r, 300*time.Millisecond) {
			return
		}
		for _, o := range Unseen3NavOrders() {
			if o.Number != r.PathValue("n") {
				continue
			}
			u.mu.Lock()
			u.orderReads = append(u.orderReads, o.Number)
			u.mu.Unlock()
			if r.URL.Query().Get("expired") == "1" {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusUnauthorized)
				_, _ = w.Write([]byte(`{"error":"session_expired"}`))
				return
			}
			wcJSON(w, o)
			return
		}
		http.NotFound(w, r)
	})
}

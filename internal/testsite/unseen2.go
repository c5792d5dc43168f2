package testsite

import (
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Unseen2 pages (on the Stress origin): a second set of business apps
// unlike the other test pages, for runtime/browser/unseen2_test.go. Each
// page is one self-contained HTML document (markup and script below)
// whose script renders from a state object, fetches its data and waits
// for slow server answers, as today's apps do.
//
//	GET /unseen2/notes        h1 "Meeting notes": a rich-text editor, a div
//	                          contenteditable role=textbox aria-multiline
//	                          labelled (aria-labelledby) "Summary", holding
//	                          <p>Draft from last week</p>; every input
//	                          re-renders the toolbar's word count (p#count
//	                          "<n> words"). ?mode=model: the editor is
//	                          model-driven (as Lexical, Slate or ProseMirror):
//	                          it cancels every beforeinput, applies the edit
//	                          to its own text and renders that back as one
//	                          <p> per line. Button "Save note" POSTs
//	                          /unseen2/api/notes {"text"} (the trimmed text,
//	                          300 ms), then the status "Note saved" and
//	                          p[data-testid=saved-note] the text the server
//	                          stored ([Stress.Unseen2Notes])
//	GET /unseen2/assign       h1 "Ticket T-3107": an ARIA combobox (input
//	                          role=combobox, <label> "Assignee",
//	                          aria-controls a listbox "Assignees"): focus
//	                          shows the recent assignees; typing filters
//	                          them at once, then (debounced 150 ms) GET
//	                          /unseen2/api/people?q= (200-500 ms) replaces the
//	                          options (li role=option, id "opt-<user id>",
//	                          new elements on every render, stale answers
//	                          dropped); an option click picks it and closes
//	                          the list (a blur closes it 150 ms later); typing
//	                          again clears the pick. Button "Assign" POSTs
//	                          /unseen2/api/assign {"ticket","assignee"} (the
//	                          picked user id; 250 ms) and shows the status
//	                          "Assigned to <name>" ([Stress.Unseen2Assignments]);
//	                          with no pick it shows the alert "Pick an
//	                          assignee from the list" and posts nothing
//	GET /unseen2/payments     h1 "Payments": list "Payments" (ul, li.pay with
//	                          span.ref, span.payee, span.amount) loaded 10 at a
//	                          time from GET /unseen2/api/payments?offset=
//	                          (300-900 ms); below it p#shown "Showing <n> of
//	                          <total>" and a button "Load more" that, while the
//	                          next page loads, is replaced by the status
//	                          "Loading…", and is gone once every payment is
//	                          shown. ?declare=1: each item carries
//	                          aria-setsize and aria-posinset; ?delay=<ms>: every
//	                          page takes that long ([Unseen2Payments])
//	GET /unseen2/invoice      h1 "Invoice INV-2042": dd[data-testid=status]
//	                          "Open"; button "Record payment" (no "paid" in
//	                          any text but the status) shows "Paid" at once
//	                          (optimistic) and POSTs
//	                          /unseen2/api/invoices/INV-2042/pay (?delay=<ms>,
//	                          default 400); ?outcome=conflict: the server
//	                          answers 409 and the page puts "Open" back
//	                          (?rollback=<ms> after the answer; default at once) and
//	                          shows the alert "Could not record the payment of
//	                          INV-2042: it was changed by someone else";
//	                          otherwise 200, the status stays "Paid" and the
//	                          status toast says "INV-2042 settled"
//	                          ([Stress.Unseen2PayAttempts], [Stress.Unseen2Paid])
//	GET /unseen2/team         h1 "Team": a div grid, role=table "Team members"
//	                          (aria-rowcount = rows + 1, aria-busy while
//	                          loading): a header role=row of role=columnheader
//	                          "Name", "Email", "Role"; five skeleton rows
//	                          (role=row, empty role=cell) until GET
//	                          /unseen2/api/team (300-700 ms) answers; then one
//	                          role=row per member (aria-rowindex from 2) of
//	                          role=cell divs with data-field name, email, role
//	                          ([Unseen2Team])
//	GET /unseen2/frame        h1 "Expenses": a same-origin iframe
//	                          (title "Expense form") at /unseen2/frame/form: a
//	                          form with textboxes "Description" and "Amount"
//	                          and button "Submit expense" that submits
//	                          (POST /unseen2/frame/form, 300 ms, then 303 to
//	                          /unseen2/frame/form?done=<ref>): the iframe
//	                          navigates to a new document showing h2
//	                          "Expense submitted", p[data-testid=expense-ref]
//	                          "EXP-<n>" and the same form, empty, again; it
//	                          posts {ref} to the parent, which with ?remount=<ms>
//	                          replaces the iframe element that much later by a
//	                          new one showing the same confirmation
//	                          ([Stress.Unseen2Expenses])
//	GET /unseen2/orders       h1 "Orders": a server-rendered list (no
//	                          script): p[data-testid=order-count] "<n>
//	                          orders" and a table "Orders" of every order
//	                          ([Unseen2Orders]); a GET form whose buttons
//	                          "Show shipped" and "Show open" (name status)
//	                          reload the page with ?status=, listing only
//	                          those orders; the form carries the page's
//	                          ?delay=<ms> in a hidden field, and a filtered
//	                          page takes that long to answer
//	GET /unseen2/orders/desk  h1 "Order desk": the orders list in a
//	                          same-origin iframe (title "Orders"), with the
//	                          desk's ?delay=

// Unseen2Assignment is one assignment the ticket page posted.
type Unseen2Assignment struct {
	Ticket   string `json:"ticket"`
	Assignee string `json:"assignee"`
}

// Unseen2Person is one person the assignee combobox offers.
type Unseen2Person struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Team string `json:"team"`
}

// Unseen2Payment is one payment of the "Load more" list.
type Unseen2Payment struct {
	Ref    string `json:"ref"`
	Payee  string `json:"payee"`
	Amount int    `json:"amount"` // euro cents
}

// Unseen2Order is one order of the server-rendered orders list.
type Unseen2Order struct {
	Number string
	Status string // "open" or "shipped"
}

// Unseen2Orders returns the orders list: 12 orders, 4 of them shipped.
func Unseen2Orders() []Unseen2Order {
	out := make([]Unseen2Order, 0, 12)
	for i := 0; i < 12; i++ {
		st := "open"
		if i%3 == 1 {
			st = "shipped"
		}
		out = append(out, Unseen2Order{Number: "ORD-" + itoa(7101+i), Status: st})
	}
	return out
}

// Unseen2Member is one row of the div grid.
type Unseen2Member struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Role  string `json:"role"`
}

// Unseen2Expense is one expense the framed form submitted.
type Unseen2Expense struct {
	Description string
	Amount      string
	Ref         string
}

// Unseen2People returns the people the assignee search knows, in the
// order the server answers.
func Unseen2People() []Unseen2Person {
	return []Unseen2Person{
		{"u11", "Ada Rossi", "Support"},
		{"u16", "Ada Rossini", "Billing"},
		{"u12", "Adam Bianchi", "Sales"},
		{"u13", "Adele Conti", "Support"},
		{"u14", "Bruno Ferri", "Sales"},
		{"u15", "Carla Neri", "Support"},
	}
}

// Unseen2Payments returns every payment of the "Load more" list, in order.
func Unseen2Payments() []Unseen2Payment {
	payees := []string{"Etna Coop", "Borgo Srl", "Lario Spa", "Monviso Sas", "Tevere Srl"}
	out := make([]Unseen2Payment, 0, 27)
	for i := 0; i < 27; i++ {
		out = append(out, Unseen2Payment{
			Ref:    "PAY-" + itoa(3001+i),
			Payee:  payees[(i*3)%len(payees)],
			Amount: ((i*4513)%7000 + 50) * 100,
		})
	}
	return out
}

// Unseen2Team returns the members of the div grid, in order.
func Unseen2Team() []Unseen2Member {
	return []Unseen2Member{
		{"Ada Rossi", "ada@vera.example", "Owner"},
		{"Bruno Ferri", "bruno@vera.example", "Admin"},
		{"Carla Neri", "carla@vera.example", "Member"},
		{"Dario Galli", "dario@vera.example", "Member"},
		{"Elena Riva", "elena@vera.example", "Billing"},
		{"Fabio Conti", "fabio@vera.example", "Member"},
		{"Giulia Sala", "giulia@vera.example", "Viewer"},
	}
}

// unseen2 holds what the unseen2 pages' servers recorded.
type unseen2 struct {
	st *Stress

	mu          sync.Mutex
	notes       []string
	assignments []Unseen2Assignment
	payAttempts []string
	paid        []string
	expenses    []Unseen2Expense
	calls       uint64
}

// Unseen2Notes returns every note text the notes page saved, in order.
func (st *Stress) Unseen2Notes() []string {
	st.unseen2.mu.Lock()
	defer st.unseen2.mu.Unlock()
	return append([]string(nil), st.unseen2.notes...)
}

// Unseen2Assignments returns every assignment the ticket page posted, in order.
func (st *Stress) Unseen2Assignments() []Unseen2Assignment {
	st.unseen2.mu.Lock()
	defer st.unseen2.mu.Unlock()
	return append([]Unseen2Assignment(nil), st.unseen2.assignments...)
}

// Unseen2PayAttempts returns the invoice numbers of every "Mark paid"
// request the server received, refused ones included, in order.
func (st *Stress) Unseen2PayAttempts() []string {
	st.unseen2.mu.Lock()
	defer st.unseen2.mu.Unlock()
	return append([]string(nil), st.unseen2.payAttempts...)
}

// Unseen2Paid returns the invoice numbers the server marked paid, in order.
func (st *Stress) Unseen2Paid() []string {
	st.unseen2.mu.Lock()
	defer st.unseen2.mu.Unlock()
	return append([]string(nil), st.unseen2.paid...)
}

// Unseen2Expenses returns every expense the framed form submitted, in order.
func (st *Stress) Unseen2Expenses() []Unseen2Expense {
	st.unseen2.mu.Lock()
	defer st.unseen2.mu.Unlock()
	return append([]Unseen2Expense(nil), st.unseen2.expenses...)
}

// delay returns lo + a deterministic step in [0, span).
func (u *unseen2) delay(lo, span time.Duration) time.Duration {
	u.mu.Lock()
	u.calls++
	n := u.calls
	u.mu.Unlock()
	return lo + time.Duration((n*uint64(277*time.Millisecond))%uint64(span))
}

// unseen2Page writes one self-contained page.
func unseen2Page(w http.ResponseWriter, status int, title, body, script string) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	var b strings.Builder
	b.WriteString("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
	b.WriteString(template.HTMLEscapeString(title))
	b.WriteString("</title>\n<link rel=\"stylesheet\" href=\"/assets/site.css\">\n<style>" + unseen2CSS + "</style>\n</head>\n<body>\n")
	b.WriteString(body)
	if script != "" {
		b.WriteString("\n<script>\n\"use strict\";\n" + unseen2JS + script + "\n</script>")
	}
	b.WriteString("\n</body>\n</html>\n")
	_, _ = w.Write([]byte(b.String()))
}

const unseen2CSS = `
.u2-editor { border: 1px solid #888; min-height: 4em; padding: 4px; }
.u2-sk { display: inline-block; width: 8em; height: 0.8em; background: #ddd; }
[role=table] { display: table; border-collapse: collapse; }
[role=row] { display: table-row; }
[role=cell], [role=columnheader] { display: table-cell; padding: 2px 8px; border-bottom: 1px solid #ccc; }
[role=listbox] { list-style: none; margin: 0; padding: 0; border: 1px solid #888; max-width: 20em; }
[role=option] { padding: 2px 6px; cursor: pointer; }
.u2-toast { position: fixed; bottom: 8px; right: 8px; background: #222; color: #fff; padding: 6px; }
iframe { width: 600px; height: 320px; border: 1px solid #888; }
`

// unseen2JS is shared by every page's script: el and euro as the unseen
// pages have them (unseenShared), then this family's own helpers.
var unseen2JS = unseenShared() + `
function query(name) {
  var m = new RegExp("[?&]" + name + "=([^&]*)").exec(location.search);
  return m ? decodeURIComponent(m[1]) : "";
}
function post(url, body) {
  return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
    .then(function (r) { return r.json().then(function (j) { if (!r.ok) { var e = new Error(j.error || r.status); e.status = r.status; throw e; } return j; }); });
}
function getJSON(url) {
  return fetch(url).then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); });
}
`

// unseenShared returns the part of web/assets/unseen.js between its
// "// shared: begin" and "// shared: end" lines (the el and euro helpers),
// so both page families run one copy of them.
func unseenShared() string {
	b, err := webFS.ReadFile("web/assets/unseen.js")
	if err != nil {
		panic(err)
	}
	s := string(b)
	i := strings.Index(s, "// shared: begin")
	j := strings.Index(s, "// shared: end")
	if i < 0 || j < i {
		panic("testsite: web/assets/unseen.js lacks its shared: begin/end lines")
	}
	i += strings.IndexByte(s[i:], '\n') + 1
	return "\n" + s[i:j]
}

const unseen2NotesBody = `<main id="root">
<h1>Meeting notes</h1>
<div id="toolbar" role="toolbar" aria-label="Formatting"></div>
<div id="ed-label">Summary</div>
<div id="editor" class="u2-editor" role="textbox" contenteditable="true" aria-multiline="true" aria-labelledby="ed-label"><p>Draft from last week</p></div>
<div id="actions"></div>
<div id="out"></div>
</main>`

const unseen2NotesJS = `
var editor = document.getElementById("editor");
var model = query("mode") === "model";
var st = { text: editor.innerText, saving: false, toast: "", saved: null };
function words(t) { t = t.trim(); return t ? t.split(/\s+/).length : 0; }
function renderChrome() {
  var tb = document.getElementById("toolbar"); tb.textContent = "";
  tb.appendChild(el("button", { type: "button", "aria-label": "Bold" }, "B"));
  tb.appendChild(el("p", { id: "count" }, words(st.text) + " words"));
  var ac = document.getElementById("actions"); ac.textContent = "";
  ac.appendChild(el("button", { type: "button", id: "save", disabled: st.saving, on: { click: save } }, st.saving ? "Saving…" : "Save note"));
  var out = document.getElementById("out"); out.textContent = "";
  if (st.toast) out.appendChild(el("div", { role: "status", "class": "u2-toast" }, st.toast));
  if (st.saved != null) out.appendChild(el("p", { "data-testid": "saved-note" }, st.saved));
}
function renderModel() {
  editor.textContent = "";
  st.text.split("\n").forEach(function (line) { editor.appendChild(el("p", null, line === "" ? el("br") : line)); });
  var r = document.createRange(); r.selectNodeContents(editor); r.collapse(false);
  var s = getSelection(); s.removeAllRanges(); s.addRange(r);
}
// offsets of the selection in st.text (model mode: one <p> per line).
function offsets() {
  var s = getSelection();
  if (!s.rangeCount || !editor.contains(s.anchorNode)) return [st.text.length, st.text.length];
  var r = s.getRangeAt(0);
  function at(node, off) {
    var pre = document.createRange(); pre.selectNodeContents(editor); pre.setEnd(node, off);
    var frag = pre.cloneContents(), ps = frag.querySelectorAll("p"), n = 0;
    if (!ps.length) return frag.textContent.length;
    for (var i = 0; i < ps.length; i++) n += ps[i].textContent.length + (i ? 1 : 0);
    return n;
  }
  return [at(r.startContainer, r.startOffset), at(r.endContainer, r.endOffset)];
}
if (model) {
  editor.addEventListener("beforeinput", function (e) {
    e.preventDefault();
    var o = offsets(), a = o[0], b = o[1], t = st.text;
    switch (e.inputType) {
    case "insertText": case "insertReplacementText": case "insertFromPaste":
      var d = e.data != null ? e.data : (e.dataTransfer ? e.dataTransfer.getData("text/plain") : "");
      st.text = t.slice(0, a) + d + t.slice(b); break;
    case "insertParagraph": case "insertLineBreak":
      st.text = t.slice(0, a) + "\n" + t.slice(b); break;
    case "deleteContentBackward":
      st.text = a === b ? t.slice(0, Math.max(0, a - 1)) + t.slice(b) : t.slice(0, a) + t.slice(b); break;
    case "deleteContentForward": case "deleteByCut":
      st.text = a === b ? t.slice(0, a) + t.slice(b + 1) : t.slice(0, a) + t.slice(b); break;
    default: return;
    }
    renderModel(); renderChrome();
  });
} else {
  editor.addEventListener("input", function () { st.text = editor.innerText; renderChrome(); });
}
function save() {
  st.saving = true; st.toast = ""; renderChrome();
  post("/unseen2/api/notes", { text: st.text.trim() }).then(function (j) {
    st.saving = false; st.saved = j.text; st.toast = "Note saved"; renderChrome();
  }, function (e) { st.saving = false; st.toast = "Could not save: " + e.message; renderChrome(); });
}
renderChrome();
`

const unseen2AssignBody = `<main id="root">
<h1>Ticket T-3107</h1>
<p>Printer on floor 2 shows error 41.</p>
<div id="form"></div>
<div id="out"></div>
</main>`

const unseen2AssignJS = `
var recent = [{ id: "u12", name: "Adam Bianchi", team: "Sales" }, { id: "u14", name: "Bruno Ferri", team: "Sales" }];
var cache = recent.slice();
var st = { text: "", open: false, options: [], active: -1, picked: null, error: "", done: "", busy: false };
var seq = 0, timer = 0, closeTimer = 0;
var input = el("input", { id: "assignee", type: "text", role: "combobox", autocomplete: "off", "aria-autocomplete": "list",
  "aria-controls": "assignee-list", "aria-expanded": "false" });
input.addEventListener("focus", function () { clearTimeout(closeTimer); if (!st.text) { st.options = recent.slice(); } st.open = true; render(); });
input.addEventListener("blur", function () { closeTimer = setTimeout(function () { st.open = false; render(); }, 150); });
input.addEventListener("input", function () {
  st.text = input.value; st.picked = null; st.open = true; st.error = "";
  var q = st.text.toLowerCase();
  st.options = cache.filter(function (p) { return q && p.name.toLowerCase().indexOf(q) >= 0; });
  render();
  clearTimeout(timer);
  var my = ++seq;
  timer = setTimeout(function () {
    getJSON("/unseen2/api/people?q=" + encodeURIComponent(st.text)).then(function (list) {
      if (my !== seq) return; // a later query is on its way
      list.forEach(function (p) { if (!cache.some(function (c) { return c.id === p.id; })) cache.push(p); });
      st.options = list; render();
    });
  }, 150);
});
function pick(p) {
  clearTimeout(timer); seq++;
  st.picked = p; st.text = p.name; input.value = p.name; st.open = false; st.options = []; render();
}
function assign() {
  if (!st.picked) { st.error = "Pick an assignee from the list"; render(); return; }
  st.busy = true; render();
  post("/unseen2/api/assign", { ticket: "T-3107", assignee: st.picked.id }).then(function (j) {
    st.busy = false; st.done = "Assigned to " + j.name; render();
  }, function (e) { st.busy = false; st.error = "Could not assign: " + e.message; render(); });
}
var form = document.getElementById("form");
form.appendChild(el("label", { "for": "assignee" }, "Assignee"));
form.appendChild(input);
var popup = form.appendChild(el("div", { id: "popup" }));
var actions = form.appendChild(el("div"));
// render replaces everything but the input, which keeps the focus, as a
// framework's reconciliation would.
function render() {
  popup.textContent = ""; actions.textContent = "";
  input.setAttribute("aria-expanded", String(st.open && st.options.length > 0));
  if (st.open && st.options.length) {
    popup.appendChild(el("ul", { id: "assignee-list", role: "listbox", "aria-label": "Assignees" }, st.options.map(function (p) {
      return el("li", { role: "option", id: "opt-" + p.id, "aria-selected": "false", "aria-describedby": "team-" + p.id,
        on: { mousedown: function (e) { e.preventDefault(); }, click: function () { pick(p); } } },
        [p.name, el("span", { id: "team-" + p.id, hidden: true }, p.team)]);
    })));
  }
  actions.appendChild(el("button", { type: "button", id: "assign", disabled: st.busy, on: { click: assign } }, "Assign"));
  var out = document.getElementById("out"); out.textContent = "";
  if (st.error) out.appendChild(el("p", { role: "alert" }, st.error));
  if (st.done) out.appendChild(el("p", { role: "status" }, st.done));
}
render();
`

const unseen2PaymentsBody = `<main id="root">
<h1>Payments</h1>
<ul id="list" aria-label="Payments"></ul>
<div id="foot"></div>
</main>`

const unseen2PaymentsJS = `
var declare = query("declare") === "1";
var st = { items: [], total: null, loading: true };
function load() {
  st.loading = true; render();
  getJSON("/unseen2/api/payments?offset=" + st.items.length + (query("delay") ? "&delay=" + query("delay") : "")).then(function (j) {
    st.items = st.items.concat(j.items); st.total = j.total; st.loading = false; render();
  });
}
function render() {
  var ul = document.getElementById("list"); ul.textContent = "";
  st.items.forEach(function (p, i) {
    ul.appendChild(el("li", { "class": "pay", "aria-setsize": declare ? String(st.total) : false, "aria-posinset": declare ? String(i + 1) : false }, [
      el("span", { "class": "ref" }, p.ref), " ", el("span", { "class": "payee" }, p.payee), " ", el("span", { "class": "amount" }, euro(p.amount))]));
  });
  var foot = document.getElementById("foot"); foot.textContent = "";
  if (st.total != null) foot.appendChild(el("p", { id: "shown" }, "Showing " + st.items.length + " of " + st.total));
  if (st.loading) foot.appendChild(el("p", { role: "status" }, "Loading…"));
  else if (st.items.length < st.total) foot.appendChild(el("button", { type: "button", on: { click: load } }, "Load more"));
}
load();
`

const unseen2InvoiceBody = `<main id="root">
<h1>Invoice INV-2042</h1>
<div id="card"></div>
<div id="out"></div>
</main>`

const unseen2InvoiceJS = `
var st = { status: "Open", pending: false, error: "", toast: "" };
function markPaid() {
  var before = st.status;
  st.status = "Paid"; st.pending = true; st.error = ""; render(); // optimistic
  var q = location.search;
  post("/unseen2/api/invoices/INV-2042/pay" + q, {}).then(function () {
    st.pending = false; st.toast = "INV-2042 settled"; render();
  }, function (e) {
    // ?rollback=<ms>: the revert is animated, the page puts the old
    // status back that long after the answer.
    setTimeout(function () {
      st.pending = false; st.status = before;
      st.error = e.status === 409 ? "Could not record the payment of INV-2042: it was changed by someone else" : "Could not record the payment of INV-2042: " + e.message;
      render();
    }, Number(query("rollback")) || 0);
  });
}
function render() {
  var c = document.getElementById("card"); c.textContent = "";
  c.appendChild(el("dl", null, [el("dt", null, "Customer"), el("dd", null, "Borgo Srl"),
    el("dt", null, "Amount"), el("dd", null, "€ 1,250.00"),
    el("dt", null, "Status"), el("dd", { "data-testid": "status" }, st.status)]));
  if (st.status !== "Paid" || st.pending)
    c.appendChild(el("button", { type: "button", disabled: st.pending || st.status === "Paid", on: { click: markPaid } }, "Record payment"));
  var out = document.getElementById("out"); out.textContent = "";
  if (st.error) out.appendChild(el("p", { role: "alert", "class": "u2-toast" }, st.error));
  if (st.toast) out.appendChild(el("p", { role: "status", "class": "u2-toast" }, st.toast));
}
render();
`

const unseen2TeamBody = `<main id="root">
<h1>Team</h1>
<div id="grid"></div>
</main>`

const unseen2TeamJS = `
var st = { rows: null };
function render() {
  var g = document.getElementById("grid"); g.textContent = "";
  var t = el("div", { role: "table", "aria-label": "Team members", "aria-busy": st.rows ? false : "true",
    "aria-rowcount": st.rows ? String(st.rows.length + 1) : false });
  var head = el("div", { role: "rowgroup" }, el("div", { role: "row", "aria-rowindex": st.rows ? "1" : false },
    ["Name", "Email", "Role"].map(function (h) { return el("div", { role: "columnheader" }, h); })));
  t.appendChild(head);
  var body = el("div", { role: "rowgroup" });
  if (!st.rows) {
    for (var i = 0; i < 5; i++) body.appendChild(el("div", { role: "row", "class": "member-row" },
      ["name", "email", "role"].map(function (f) { return el("div", { role: "cell", "data-field": f }, el("span", { "class": "u2-sk" })); })));
  } else {
    st.rows.forEach(function (m, i) {
      body.appendChild(el("div", { role: "row", "class": "member-row", "aria-rowindex": String(i + 2) },
        ["name", "email", "role"].map(function (f) { return el("div", { role: "cell", "data-field": f }, m[f]); })));
    });
  }
  t.appendChild(body);
  g.appendChild(t);
}
render();
getJSON("/unseen2/api/team").then(function (rows) { st.rows = rows; render(); });
`

const unseen2FrameBody = `<main id="root">
<h1>Expenses</h1>
<p>Submit an expense below.</p>
<iframe id="expense-frame" title="Expense form" src="/unseen2/frame/form"></iframe>
</main>`

// unseen2FrameJS: ?remount=<ms>, the parent re-renders the iframe (a new
// element, as a framework's keyed remount) that long after the framed
// page reports a submission.
const unseen2FrameJS = `
if (Number(query("remount")) > 0) {
  window.addEventListener("message", function (e) {
    if (e.origin !== location.origin || !e.data || !e.data.ref) return;
    setTimeout(function () {
      var old = document.getElementById("expense-frame");
      old.replaceWith(el("iframe", { id: "expense-frame", title: "Expense form",
        src: "/unseen2/frame/form?done=" + encodeURIComponent(e.data.ref) + "&remounted=1" }));
    }, Number(query("remount")));
  });
}
`

// unseen2FrameReport is the framed confirmation's report to the parent.
const unseen2FrameReport = `
if (!query("remounted")) parent.postMessage({ ref: document.querySelector("[data-testid=expense-ref]").textContent }, location.origin);
`

func (u *unseen2) formBody(done string) string {
	var b strings.Builder
	b.WriteString(`<main>`)
	if done != "" {
		b.WriteString(`<h2>Expense submitted</h2><p>Reference: <span data-testid="expense-ref">` + template.HTMLEscapeString(done) + `</span></p>`)
	}
	b.WriteString(`<form method="post" action="/unseen2/frame/form">
<p><label for="desc">Description</label> <input id="desc" name="description" required></p>
<p><label for="amount">Amount</label> <input id="amount" name="amount" inputmode="decimal" required></p>
<p><button type="submit">Submit expense</button></p>
</form></main>`)
	return b.String()
}

func (u *unseen2) routes(mux *http.ServeMux) {
	page := func(title, body, script string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) { unseen2Page(w, http.StatusOK, title, body, script) }
	}
	sleep := func(r *http.Request, d time.Duration) bool { return u.st.sleep(r.Context(), d) }

	mux.HandleFunc("GET /unseen2/notes", page("Meeting notes", unseen2NotesBody, unseen2NotesJS))
	mux.HandleFunc("POST /unseen2/api/notes", func(w http.ResponseWriter, r *http.Request) {
		var n struct {
			Text string `json:"text"`
		}
		if !decode(w, r, &n) || !sleep(r, 300*time.Millisecond) {
			return
		}
		u.mu.Lock()
		u.notes = append(u.notes, n.Text)
		u.mu.Unlock()
		wcJSON(w, n)
	})

	mux.HandleFunc("GET /unseen2/assign", page("Ticket T-3107", unseen2AssignBody, unseen2AssignJS))
	mux.HandleFunc("GET /unseen2/api/people", func(w http.ResponseWriter, r *http.Request) {
		if !sleep(r, u.delay(200*time.Millisecond, 300*time.Millisecond)) {
			return
		}
		q := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("q")))
		out := []Unseen2Person{}
		for _, p := range Unseen2People() {
			if q != "" && strings.Contains(strings.ToLower(p.Name), q) {
				out = append(out, p)
			}
		}
		wcJSON(w, out)
	})
	mux.HandleFunc("POST /unseen2/api/assign", func(w http.ResponseWriter, r *http.Request) {
		var a Unseen2Assignment
		if !decode(w, r, &a) || !sleep(r, 250*time.Millisecond) {
			return
		}
		for _, p := range Unseen2People() {
			if p.ID == a.Assignee && a.Ticket == "T-3107" {
				u.mu.Lock()
				u.assignments = append(u.assignments, a)
				u.mu.Unlock()
				wcJSON(w, map[string]string{"ticket": a.Ticket, "assignee": p.ID, "name": p.Name})
				return
			}
		}
		http.Error(w, `{"error":"no such assignee"}`, http.StatusUnprocessableEntity)
	})

	mux.HandleFunc("GET /unseen2/payments", page("Payments", unseen2PaymentsBody, unseen2PaymentsJS))
	mux.HandleFunc("GET /unseen2/api/payments", func(w http.ResponseWriter, r *http.Request) {
		all := Unseen2Payments()
		off, ok := pathCount(r.URL.Query().Get("offset"), 0, len(all))
		if !ok {
			http.Error(w, "bad offset", http.StatusBadRequest)
			return
		}
		d := u.delay(300*time.Millisecond, 600*time.Millisecond)
		if ms, ok := pathCount(r.URL.Query().Get("delay"), 0, 10000); ok {
			d = time.Duration(ms) * time.Millisecond
		}
		if !sleep(r, d) {
			return
		}
		end := min(off+10, len(all))
		wcJSON(w, map[string]any{"items": all[off:end], "total": len(all)})
	})

	mux.HandleFunc("GET /unseen2/invoice", page("Invoice INV-2042", unseen2InvoiceBody, unseen2InvoiceJS))
	mux.HandleFunc("POST /unseen2/api/invoices/{number}/pay", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("number") != "INV-2042" {
			http.NotFound(w, r)
			return
		}
		d := 400 * time.Millisecond
		if ms, ok := pathCount(r.URL.Query().Get("delay"), 0, 10000); ok {
			d = time.Duration(ms) * time.Millisecond
		}
		u.mu.Lock()
		u.payAttempts = append(u.payAttempts, "INV-2042")
		u.mu.Unlock()
		if !sleep(r, d) {
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("outcome") == "conflict" {
			w.WriteHeader(http.StatusConflict)
			_, _ = w.Write([]byte(`{"error":"it was changed by someone else"}`))
			return
		}
		u.mu.Lock()
		u.paid = append(u.paid, "INV-2042")
		u.mu.Unlock()
		_, _ = w.Write([]byte(`{"number":"INV-2042","status":"Paid"}`))
	})

	mux.HandleFunc("GET /unseen2/team", page("Team", unseen2TeamBody, unseen2TeamJS))
	mux.HandleFunc("GET /unseen2/api/team", func(w http.ResponseWriter, r *http.Request) {
		if !sleep(r, u.delay(300*time.Millisecond, 400*time.Millisecond)) {
			return
		}
		wcJSON(w, Unseen2Team())
	})

	mux.HandleFunc("GET /unseen2/orders", func(w http.ResponseWriter, r *http.Request) {
		status := r.URL.Query().Get("status")
		delay := r.URL.Query().Get("delay")
		if ms, ok := pathCount(delay, 0, 10000); ok && status != "" {
			if !sleep(r, time.Duration(ms)*time.Millisecond) {
				return
			}
		} else if !ok {
			delay = ""
		}
		var rows strings.Builder
		n := 0
		for _, o := range Unseen2Orders() {
			if status != "" && o.Status != status {
				continue
			}
			n++
			rows.WriteString("<tr><td>" + o.Number + "</td><td>" + o.Status + "</td></tr>")
		}
		body := `<main><h1>Orders</h1>
<form method="get" action="/unseen2/orders"><input type="hidden" name="delay" value="` + template.HTMLEscapeString(delay) + `">
<button name="status" value="shipped">Show shipped</button> <button name="status" value="open">Show open</button></form>
<p data-testid="order-count">` + itoa(n) + ` orders</p>
<table aria-label="Orders"><tr><th>Number</th><th>Status</th></tr>` + rows.String() + `</table></main>`
		unseen2Page(w, http.StatusOK, "Orders", body, "")
	})

	mux.HandleFunc("GET /unseen2/orders/desk", func(w http.ResponseWriter, r *http.Request) {
		src := "/unseen2/orders"
		if ms, ok := pathCount(r.URL.Query().Get("delay"), 0, 10000); ok {
			src += "?delay=" + itoa(ms)
		}
		unseen2Page(w, http.StatusOK, "Order desk", `<main><h1>Order desk</h1><iframe title="Orders" src="`+src+`" width="600" height="500"></iframe></main>`, "")
	})

	mux.HandleFunc("GET /unseen2/frame", page("Expenses", unseen2FrameBody, unseen2FrameJS))
	mux.HandleFunc("GET /unseen2/frame/form", func(w http.ResponseWriter, r *http.Request) {
		done := r.URL.Query().Get("done")
		u.mu.Lock()
		known := false
		for _, e := range u.expenses {
			known = known || e.Ref == done
		}
		u.mu.Unlock()
		if !known {
			done = ""
		}
		script := ""
		if done != "" {
			script = unseen2FrameReport
		}
		unseen2Page(w, http.StatusOK, "Expense form", u.formBody(done), script)
	})
	mux.HandleFunc("POST /unseen2/frame/form", func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, 1<<16)
		if err := r.ParseForm(); err != nil {
			http.Error(w, "bad form", http.StatusBadRequest)
			return
		}
		desc, amount := r.PostForm.Get("description"), r.PostForm.Get("amount")
		if desc == "" || amount == "" {
			http.Error(w, "missing field", http.StatusBadRequest)
			return
		}
		if !sleep(r, 300*time.Millisecond) {
			return
		}
		u.mu.Lock()
		ref := "EXP-" + strconv.Itoa(500+len(u.expenses)+1)
		u.expenses = append(u.expenses, Unseen2Expense{Description: desc, Amount: amount, Ref: ref})
		u.mu.Unlock()
		http.Redirect(w, r, "/unseen2/frame/form?done="+ref, http.StatusSeeOther)
	})
}

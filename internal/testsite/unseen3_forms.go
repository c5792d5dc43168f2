package testsite

import (
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Unseen3 form pages (on the Stress origin): controls, forms and
// extraction as today's apps build them, for
// runtime/browser/unseen3_forms_test.go. Like the unseen2 pages each is
// one self-contained document whose script renders from a state object.
//
//	GET /unseen3/transfer     h1 "New transfer": textbox "IBAN" (<label for>)
//	                          with an input mask: every input strips what is
//	                          not a letter or digit, upper-cases it and shows
//	                          it in groups of four ("IT60 X054 ..."); 300 ms
//	                          after the last input (debounced) GET
//	                          /unseen3/api/iban?v=<raw> (250-450 ms, stale
//	                          answers dropped) checks it: status "Bank: <name>"
//	                          or alert "This IBAN is not valid"; textbox
//	                          "Amount (EUR)" in Italian format: its change
//	                          handler parses "1.250,50" (dots group
//	                          thousands, a comma starts the cents) and its
//	                          blur formats it so; button "Send transfer"
//	                          (submit) is disabled until the IBAN is verified
//	                          and the amount positive; submitting POSTs
//	                          /unseen3/api/transfers {"iban","cents"} (300 ms)
//	                          and shows status "Transfer <ref> queued" and
//	                          p[data-testid=transfer-summary] "<amount> to
//	                          <grouped IBAN>" ([Stress.Unseen3Transfers])
//	GET /unseen3/shipping     h1 "Shipping options": a custom select (Radix
//	                          style): button role=combobox "Country"
//	                          (aria-labelledby the span "Country") showing
//	                          the country picked; a click opens a
//	                          role=listbox "Country" rendered in a portal at
//	                          the end of <body> (position fixed under the
//	                          button, 160 px high, scrolled) of 14 div
//	                          role=option (Austria and Australia among them);
//	                          an option click picks it and closes the list,
//	                          an outside mousedown closes it. A
//	                          role=radiogroup "Delivery speed" of div
//	                          role=radio (aria-checked, roving tabindex)
//	                          "Standard", "Express", "Same day", every
//	                          element replaced on each render. Checkbox
//	                          "Gift wrap": a visually hidden native input
//	                          (sr-only: 1 px, clipped) whose <label for> draws
//	                          the box. Button "Save shipping" POSTs
//	                          /unseen3/api/shipping {"country","speed","gift"}
//	                          (250 ms), then
//	                          p[data-testid=shipping-summary] shows what the
//	                          server stored ([Stress.Unseen3Shipping])
//	GET /unseen3/account      h1 "Billing details": a <form> whose "Company
//	                          name" field is a form-associated custom element
//	                          <acme-text-field> with an open shadow root (the
//	                          <label for> inside it slots the light-DOM <span
//	                          slot=label>); textbox "VAT number" with only a
//	                          placeholder; an input name=sdi with no label,
//	                          described (aria-describedby) by "SDI recipient
//	                          code (7 characters)"; button "Save details"
//	                          POSTs the FormData as JSON to
//	                          /unseen3/api/account (250 ms) and shows status
//	                          "Details saved for <company>"
//	                          ([Stress.Unseen3Accounts])
//	GET /unseen3/ledger       h1 "Ledger": table "Ledger entries" (caption)
//	                          of [Unseen3Ledger]'s 40 rows in a 240 px
//	                          scrolled box; every row is in the DOM from the
//	                          start, but its cells (td.ref, td.desc,
//	                          td.amount) are filled only once the row is
//	                          near the box's view (IntersectionObserver, then
//	                          a fetch of GET /unseen3/api/ledger?from=&to=,
//	                          100-250 ms); until then the row has
//	                          aria-busy=true and each cell shows the
//	                          placeholder: ?placeholder=text "Loading…",
//	                          otherwise an empty skeleton span.
//	                          p#ledger-count "40 entries"

// Unseen3Transfer is one transfer the transfer page posted.
type Unseen3Transfer struct {
	IBAN  string `json:"iban"`
	Cents int    `json:"cents"`
}

// Unseen3ShippingChoice is what the shipping page saved.
type Unseen3ShippingChoice struct {
	Country string `json:"country"`
	Speed   string `json:"speed"`
	Gift    bool   `json:"gift"`
}

// Unseen3Account is what the billing details form posted.
type Unseen3Account struct {
	Company string `json:"company"`
	VAT     string `json:"vat"`
	SDI     string `json:"sdi"`
}

// Unseen3Entry is one row of the ledger.
type Unseen3Entry struct {
	Ref    string `json:"ref"`
	Desc   string `json:"desc"`
	Amount int    `json:"amount"` // euro cents
}

// Unseen3Countries are the custom select's options, in order.
func Unseen3Countries() []string {
	return []string{"Australia", "Austria", "Belgium", "Croatia", "Denmark", "France", "Germany",
		"Greece", "Ireland", "Italy", "Netherlands", "Portugal", "Spain", "Sweden"}
}

// Unseen3Ledger returns the ledger's 40 entries, in order.
func Unseen3Ledger() []Unseen3Entry {
	descs := []string{"Office rent", "Cloud hosting", "Travel", "Consulting", "Stationery"}
	out := make([]Unseen3Entry, 0, 40)
	for i := 0; i < 40; i++ {
		out = append(out, Unseen3Entry{
			Ref:    "LG-" + itoa(8001+i),
			Desc:   descs[(i*2)%len(descs)],
			Amount: ((i*3967)%9000 + 25) * 100,
		})
	}
	return out
}

// Unseen3IBANBanks maps the bank code (letters 5-9 after the country and
// check digits of an Italian IBAN: CIN and ABI, "X05428") to a name.
var unseen3Banks = map[string]string{"05428": "Banca Etna", "03069": "Banca Lario"}

// Unseen3ValidIBAN reports whether s (upper case, no spaces) is an IBAN
// with valid check digits, and its bank's name for Italian ones the
// page knows.
func Unseen3ValidIBAN(s string) (bank string, ok bool) {
	if len(s) < 15 || len(s) > 34 {
		return "", false
	}
	for i, c := range s {
		switch {
		case i < 2 && c >= 'A' && c <= 'Z':
		case i >= 2 && i < 4 && c >= '0' && c <= '9':
		case i >= 4 && (c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'):
		default:
			return "", false
		}
	}
	var digits strings.Builder
	for _, c := range s[4:] + s[:4] {
		if c >= 'A' && c <= 'Z' {
			digits.WriteString(strconv.Itoa(int(c-'A') + 10))
		} else {
			digits.WriteRune(c)
		}
	}
	n, _ := new(big.Int).SetString(digits.String(), 10)
	if new(big.Int).Mod(n, big.NewInt(97)).Int64() != 1 {
		return "", false
	}
	if strings.HasPrefix(s, "IT") && len(s) == 27 {
		if b, ok := unseen3Banks[s[5:10]]; ok {
			return b, true
		}
	}
	return "Other bank", true
}

// unseen3 holds what the unseen3 form pages' servers recorded.
type unseen3 struct {
	st *Stress

	mu        sync.Mutex
	transfers []Unseen3Transfer
	shipping  []Unseen3ShippingChoice
	accounts  []Unseen3Account
	calls     uint64
}

// Unseen3Transfers returns every transfer the transfer page posted, in order.
func (st *Stress) Unseen3Transfers() []Unseen3Transfer {
	st.unseen3.mu.Lock()
	defer st.unseen3.mu.Unlock()
	return append([]Unseen3Transfer(nil), st.unseen3.transfers...)
}

// Unseen3Shipping returns every shipping choice the page saved, in order.
func (st *Stress) Unseen3Shipping() []Unseen3ShippingChoice {
	st.unseen3.mu.Lock()
	defer st.unseen3.mu.Unlock()
	return append([]Unseen3ShippingChoice(nil), st.unseen3.shipping...)
}

// Unseen3Accounts returns every billing details form the page posted, in order.
func (st *Stress) Unseen3Accounts() []Unseen3Account {
	st.unseen3.mu.Lock()
	defer st.unseen3.mu.Unlock()
	return append([]Unseen3Account(nil), st.unseen3.accounts...)
}

func (u *unseen3) delay(lo, span time.Duration) time.Duration {
	u.mu.Lock()
	u.calls++
	n := u.calls
	u.mu.Unlock()
	return lo + time.Duration((n*uint64(277*time.Millisecond))%uint64(span))
}

const unseen3CSS = `
.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0, 0, 0, 0); white-space: nowrap; border-width: 0; }
.u3-row { margin: 10px 0; }
.u3-box { display: inline-block; width: 14px; height: 14px; border: 2px solid #444; vertical-align: middle; margin-right: 6px; }
input:checked + label .u3-box { background: #2a6; }
[role=combobox] { min-width: 12em; text-align: left; }
[role=listbox] { position: fixed; max-height: 160px; overflow-y: auto; background: #fff; border: 1px solid #888; margin: 0; padding: 0; z-index: 10; min-width: 12em; }
[role=option] { padding: 4px 8px; cursor: pointer; }
[role=option][aria-selected=true] { background: #def; }
[role=radiogroup] { display: flex; gap: 8px; }
[role=radio] { border: 1px solid #888; padding: 4px 10px; cursor: pointer; }
[role=radio][aria-checked=true] { background: #246; color: #fff; }
.u3-scroll { height: 240px; overflow-y: auto; border: 1px solid #888; width: 560px; }
.u3-scroll td { padding: 6px 8px; height: 24px; }
.u3-sk { display: inline-block; width: 6em; height: 0.8em; background: #ddd; }
.u3-error { color: #a00; }
`

func unseen3Page(w http.ResponseWriter, title, body, script string) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	var b strings.Builder
	b.WriteString("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
	b.WriteString(title)
	b.WriteString("</title>\n<link rel=\"stylesheet\" href=\"/assets/site.css\">\n<style>" + unseen3CSS + "</style>\n</head>\n<body>\n")
	b.WriteString(body)
	b.WriteString("\n<script>\n\"use strict\";\n" + unseen2JS + script + "\n</script>\n</body>\n</html>\n")
	_, _ = w.Write([]byte(b.String()))
}

const unseen3TransferBody = `<main id="root">
<h1>New transfer</h1>
<form id="form" novalidate>
<div class="u3-row"><label for="iban">IBAN</label> <input id="iban" name="iban" autocomplete="off" spellcheck="false" size="40"></div>
<div class="u3-row" id="iban-check"></div>
<div class="u3-row"><label for="amount">Amount (EUR)</label> <input id="amount" name="amount" inputmode="decimal" autocomplete="off"></div>
<div class="u3-row" id="actions"></div>
</form>
<div id="out"></div>
</main>`

const unseen3TransferJS = `
var st = { iban: "", check: "idle", bank: "", cents: 0, sending: false, done: null, error: "" };
var iban = document.getElementById("iban"), amount = document.getElementById("amount");
var seq = 0, timer = 0;
function group(raw) { return raw.replace(/(.{4})(?=.)/g, "$1 "); }
iban.addEventListener("input", function () {
  var raw = iban.value.replace(/[^0-9a-zA-Z]/g, "").toUpperCase().slice(0, 34);
  iban.value = group(raw);
  iban.setSelectionRange(iban.value.length, iban.value.length);
  if (raw === st.iban) return;
  st.iban = raw; st.check = raw ? "pending" : "idle"; st.bank = ""; render();
  clearTimeout(timer);
  var my = ++seq;
  if (!raw) return;
  timer = setTimeout(function () {
    getJSON("/unseen3/api/iban?v=" + encodeURIComponent(raw)).then(function (j) {
      if (my !== seq) return;
      st.check = j.ok ? "ok" : "bad"; st.bank = j.bank || ""; render();
    });
  }, 300);
});
// Italian format: "." groups thousands, "," starts the cents.
function parseAmount(s) {
  s = s.trim();
  if (!/^\d{1,3}(\.?\d{3})*(,\d{1,2})?$/.test(s)) return 0;
  var p = s.replace(/\./g, "").split(",");
  return Number(p[0]) * 100 + (p[1] ? Number((p[1] + "0").slice(0, 2)) : 0);
}
function formatAmount(c) {
  var w = String(Math.floor(c / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  var f = String(c % 100); if (f.length < 2) f = "0" + f;
  return w + "," + f;
}
amount.addEventListener("input", function () {
  var v = amount.value.replace(/[^0-9.,]/g, "");
  if (v !== amount.value) amount.value = v;
});
amount.addEventListener("change", function () { st.cents = parseAmount(amount.value); render(); });
amount.addEventListener("blur", function () { if (st.cents > 0) amount.value = formatAmount(st.cents); });
document.getElementById("form").addEventListener("submit", function (e) {
  e.preventDefault();
  if (st.check !== "ok" || st.cents <= 0 || st.sending) return;
  st.sending = true; st.error = ""; render();
  post("/unseen3/api/transfers", { iban: st.iban, cents: st.cents }).then(function (j) {
    st.sending = false; st.done = j; render();
  }, function (err) { st.sending = false; st.error = "Could not send: " + err.message; render(); });
});
function render() {
  var c = document.getElementById("iban-check"); c.textContent = "";
  if (st.check === "pending") c.appendChild(el("span", null, "Checking IBAN…"));
  if (st.check === "ok") c.appendChild(el("p", { role: "status" }, "Bank: " + st.bank));
  if (st.check === "bad") c.appendChild(el("p", { role: "alert", "class": "u3-error" }, "This IBAN is not valid"));
  var a = document.getElementById("actions"); a.textContent = "";
  a.appendChild(el("button", { type: "submit", disabled: st.check !== "ok" || st.cents <= 0 || st.sending }, st.sending ? "Sending…" : "Send transfer"));
  var out = document.getElementById("out"); out.textContent = "";
  if (st.error) out.appendChild(el("p", { role: "alert" }, st.error));
  if (st.done) {
    out.appendChild(el("p", { role: "status" }, "Transfer " + st.done.ref + " queued"));
    out.appendChild(el("p", { "data-testid": "transfer-summary" }, "€ " + formatAmount(st.done.cents) + " to " + group(st.done.iban)));
  }
}
render();
`

const unseen3ShippingBody = `<main id="root">
<h1>Shipping options</h1>
<div class="u3-row"><span id="country-label">Country</span> <span id="country-slot"></span></div>
<div class="u3-row"><span id="speed-label">Delivery speed</span><div id="speed-slot"></div></div>
<div class="u3-row"><input type="checkbox" id="gift" class="sr-only"><label for="gift"><span class="u3-box" aria-hidden="true"></span>Gift wrap (+€ 3,00)</label></div>
<div class="u3-row" id="actions"></div>
<div id="out"></div>
</main>`

const unseen3ShippingJS = `
var countries = ` + "COUNTRIES" + `;
var speeds = [["standard", "Standard"], ["express", "Express"], ["same-day", "Same day"]];
var st = { country: "", open: false, speed: "standard", saving: false, saved: null, error: "" };
var gift = document.getElementById("gift");
var portal = null;
function closeList() { st.open = false; renderList(); renderTrigger(); }
document.addEventListener("mousedown", function (e) {
  if (!st.open) return;
  if (portal && portal.contains(e.target)) return;
  var t = document.getElementById("country-trigger");
  if (t && t.contains(e.target)) return;
  closeList();
}, true);
function renderTrigger() {
  var slot = document.getElementById("country-slot"); slot.textContent = "";
  slot.appendChild(el("button", { type: "button", id: "country-trigger", role: "combobox", "aria-labelledby": "country-label",
    "aria-haspopup": "listbox", "aria-expanded": String(st.open), "aria-controls": st.open ? "country-list" : false,
    on: { click: function () { st.open = !st.open; renderTrigger(); renderList(); } } },
    el("span", null, st.country || "Choose…")));
}
function renderList() {
  if (portal) { portal.remove(); portal = null; }
  if (!st.open) return;
  var r = document.getElementById("country-trigger").getBoundingClientRect();
  portal = el("div", { "data-portal": "" }, el("div", { id: "country-list", role: "listbox", "aria-labelledby": "country-label",
    style: "top:" + (r.bottom + 2) + "px;left:" + r.left + "px" },
    countries.map(function (c) {
      return el("div", { role: "option", "aria-selected": String(c === st.country), "data-value": c.toLowerCase(),
        on: { click: function () { st.country = c; closeList(); } } }, c);
    })));
  document.body.appendChild(portal);
}
function pickSpeed(v) { st.speed = v; renderSpeed(); }
function renderSpeed() {
  var slot = document.getElementById("speed-slot"); slot.textContent = "";
  slot.appendChild(el("div", { role: "radiogroup", "aria-labelledby": "speed-label",
    on: { keydown: function (e) {
      var i = speeds.findIndex(function (s) { return s[0] === st.speed; });
      if (e.key === "ArrowRight" || e.key === "ArrowDown") { e.preventDefault(); pickSpeed(speeds[(i + 1) % speeds.length][0]); }
      if (e.key === "ArrowLeft" || e.key === "ArrowUp") { e.preventDefault(); pickSpeed(speeds[(i + speeds.length - 1) % speeds.length][0]); }
    } } },
    speeds.map(function (s) {
      var on = s[0] === st.speed;
      return el("div", { role: "radio", "aria-checked": String(on), tabindex: on ? "0" : "-1", "data-value": s[0],
        on: { click: function () { pickSpeed(s[0]); } } }, s[1]);
    })));
}
function save() {
  st.saving = true; st.error = ""; renderActions();
  post("/unseen3/api/shipping", { country: st.country, speed: st.speed, gift: gift.checked }).then(function (j) {
    st.saving = false; st.saved = j; renderActions();
  }, function (e) { st.saving = false; st.error = "Could not save: " + e.message; renderActions(); });
}
function renderActions() {
  var a = document.getElementById("actions"); a.textContent = "";
  a.appendChild(el("button", { type: "button", disabled: st.saving, on: { click: save } }, st.saving ? "Saving…" : "Save shipping"));
  var out = document.getElementById("out"); out.textContent = "";
  if (st.error) out.appendChild(el("p", { role: "alert" }, st.error));
  if (st.saved) out.appendChild(el("p", { "data-testid": "shipping-summary" },
    st.saved.country + " · " + st.saved.speed + " · " + (st.saved.gift ? "gift wrap" : "no gift wrap")));
}
renderTrigger(); renderSpeed(); renderActions();
`

const unseen3AccountBody = `<main id="root">
<h1>Billing details</h1>
<form id="form">
<div class="u3-row"><acme-text-field name="company"><span slot="label">Company name</span><span slot="help">As registered</span></acme-text-field></div>
<div class="u3-row"><input name="vat" placeholder="VAT number" autocomplete="off"></div>
<div class="u3-row"><p id="sdi-help">SDI recipient code (7 characters)</p><input name="sdi" aria-describedby="sdi-help" maxlength="7" autocomplete="off"></div>
<div class="u3-row"><button type="submit">Save details</button></div>
</form>
<div id="out"></div>
</main>`

const unseen3AccountJS = `
class AcmeTextField extends HTMLElement {
  static formAssociated = true;
  constructor() {
    super();
    this.internals = this.attachInternals();
    var root = this.attachShadow({ mode: "open" });
    root.innerHTML = '<style>label{display:block;font-weight:bold} .help{font-size:.8em;color:#555}</style>' +
      '<label part="label" for="control"><slot name="label"></slot></label>' +
      '<input id="control" part="input" autocomplete="off">' +
      '<div class="help"><slot name="help"></slot></div>';
    this.input = root.getElementById("control");
    var self = this;
    this.input.addEventListener("input", function () {
      self.internals.setFormValue(self.input.value);
      self.dispatchEvent(new Event("input", { bubbles: true }));
    });
    this.internals.setFormValue("");
  }
  get value() { return this.input.value; }
  set value(v) { this.input.value = v; this.internals.setFormValue(v); }
}
customElements.define("acme-text-field", AcmeTextField);
var st = { saving: false, saved: "", error: "" };
document.getElementById("form").addEventListener("submit", function (e) {
  e.preventDefault();
  var fd = new FormData(e.target), body = {};
  fd.forEach(function (v, k) { body[k] = v; });
  st.saving = true; render();
  post("/unseen3/api/account", body).then(function (j) {
    st.saving = false; st.saved = j.company; render();
  }, function (err) { st.saving = false; st.error = "Could not save: " + err.message; render(); });
});
function render() {
  var out = document.getElementById("out"); out.textContent = "";
  if (st.saving) out.appendChild(el("p", null, "Saving…"));
  if (st.error) out.appendChild(el("p", { role: "alert" }, st.error));
  if (st.saved) out.appendChild(el("p", { role: "status" }, "Details saved for " + st.saved));
}
render();
`

const unseen3LedgerBody = `<main id="root">
<h1>Ledger</h1>
<div class="u3-scroll" id="scroller"><table id="ledger"><caption>Ledger entries</caption>
<thead><tr><th>Ref</th><th>Description</th><th>Amount</th></tr></thead><tbody id="rows"></tbody></table></div>
<p id="ledger-count"></p>
</main>`

const unseen3LedgerJS = `
var total = 40, textPlaceholder = query("placeholder") === "text";
var st = { rows: new Array(total).fill(null), asked: {} };
var tbody = document.getElementById("rows");
function cell(cls, v) {
  if (v != null) return el("td", { "class": cls }, v);
  return el("td", { "class": cls }, textPlaceholder ? "Loading…" : el("span", { "class": "u3-sk" }));
}
function renderRow(i) {
  var r = st.rows[i];
  var tr = el("tr", { "class": "entry", "data-index": String(i), "aria-busy": r ? false : "true" }, [
    cell("ref", r && r.ref), cell("desc", r && r.desc), cell("amount", r && euro(r.amount))]);
  var old = tbody.children[i];
  if (old) { io.unobserve(old); tbody.replaceChild(tr, old); } else tbody.appendChild(tr);
  if (!r) io.observe(tr);
}
var io = new IntersectionObserver(function (entries) {
  entries.forEach(function (e) {
    if (!e.isIntersecting) return;
    var i = Number(e.target.getAttribute("data-index"));
    var from = Math.floor(i / 5) * 5;
    if (st.asked[from]) return;
    st.asked[from] = true;
    getJSON("/unseen3/api/ledger?from=" + from + "&to=" + (from + 5)).then(function (list) {
      list.forEach(function (r, k) { st.rows[from + k] = r; renderRow(from + k); });
    });
  });
}, { root: document.getElementById("scroller"), rootMargin: "40px 0px" });
for (var i = 0; i < total; i++) renderRow(i);
document.getElementById("ledger-count").textContent = total + " entries";
`

func (u *unseen3) routes(mux *http.ServeMux) {
	page := func(title, body, script string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) { unseen3Page(w, title, body, script) }
	}
	sleep := func(r *http.Request, d time.Duration) bool { return u.st.sleep(r.Context(), d) }

	mux.HandleFunc("GET /unseen3/transfer", page("New transfer", unseen3TransferBody, unseen3TransferJS))
	mux.HandleFunc("GET /unseen3/api/iban", func(w http.ResponseWriter, r *http.Request) {
		if !sleep(r, u.delay(250*time.Millisecond, 200*time.Millisecond)) {
			return
		}
		bank, ok := Unseen3ValidIBAN(r.URL.Query().Get("v"))
		wcJSON(w, map[string]any{"ok": ok, "bank": bank})
	})
	mux.HandleFunc("POST /unseen3/api/transfers", func(w http.ResponseWriter, r *http.Request) {
		var t Unseen3Transfer
		if !decode(w, r, &t) {
			return
		}
		if _, ok := Unseen3ValidIBAN(t.IBAN); !ok || t.Cents <= 0 {
			http.Error(w, `{"error":"invalid transfer"}`, http.StatusUnprocessableEntity)
			return
		}
		if !sleep(r, 300*time.Millisecond) {
			return
		}
		u.mu.Lock()
		u.transfers = append(u.transfers, t)
		ref := "TR-" + itoa(9100+len(u.transfers))
		u.mu.Unlock()
		wcJSON(w, map[string]any{"ref": ref, "iban": t.IBAN, "cents": t.Cents})
	})

	var countries strings.Builder
	countries.WriteString("[")
	for i, c := range Unseen3Countries() {
		if i > 0 {
			countries.WriteString(", ")
		}
		countries.WriteString(strconv.Quote(c))
	}
	countries.WriteString("]")
	mux.HandleFunc("GET /unseen3/shipping", page("Shipping options", unseen3ShippingBody,
		strings.Replace(unseen3ShippingJS, "COUNTRIES", countries.String(), 1)))
	mux.HandleFunc("POST /unseen3/api/shipping", func(w http.ResponseWriter, r *http.Request) {
		var c Unseen3ShippingChoice
		if !decode(w, r, &c) {
			return
		}
		known := false
		for _, n := range Unseen3Countries() {
			known = known || n == c.Country
		}
		if !known || (c.Speed != "standard" && c.Speed != "express" && c.Speed != "same-day") {
			http.Error(w, `{"error":"choose a country and a speed"}`, http.StatusUnprocessableEntity)
			return
		}
		if !sleep(r, 250*time.Millisecond) {
			return
		}
		u.mu.Lock()
		u.shipping = append(u.shipping, c)
		u.mu.Unlock()
		wcJSON(w, c)
	})

	mux.HandleFunc("GET /unseen3/account", page("Billing details", unseen3AccountBody, unseen3AccountJS))
	mux.HandleFunc("POST /unseen3/api/account", func(w http.ResponseWriter, r *http.Request) {
		var a Unseen3Account
		if !decode(w, r, &a) {
			return
		}
		if strings.TrimSpace(a.Company) == "" {
			http.Error(w, `{"error":"company name missing"}`, http.StatusUnprocessableEntity)
			return
		}
		if !sleep(r, 250*time.Millisecond) {
			return
		}
		u.mu.Lock()
		u.accounts = append(u.accounts, a)
		u.mu.Unlock()
		wcJSON(w, a)
	})

	mux.HandleFunc("GET /unseen3/ledger", page("Ledger", unseen3LedgerBody, unseen3LedgerJS))
	mux.HandleFunc("GET /unseen3/api/ledger", func(w http.ResponseWriter, r *http.Request) {
		all := Unseen3Ledger()
		from, ok1 := pathCount(r.URL.Query().Get("from"), 0, len(all))
		to, ok2 := pathCount(r.URL.Query().Get("to"), 0, len(all))
		if !ok1 || !ok2 || to < from {
			http.Error(w, "bad range", http.StatusBadRequest)
			return
		}
		if !sleep(r, u.delay(100*time.Millisecond, 150*time.Millisecond)) {
			return
		}
		wcJSON(w, all[from:to])
	})
}

// Unseen pages (internal/testsite/unseen.go): business apps that render
// the whole UI from one state object, so every change replaces the
// elements. One file, dispatched on body[data-page].
(function () {
  "use strict";
  var page = document.body.dataset.page;
  var root = document.getElementById("root");

  // shared: begin (unseen2.go's pages inline el and euro from here)
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === "on") { for (var ev in attrs.on) e.addEventListener(ev, attrs.on[ev]); continue; }
      if (attrs[k] === false || attrs[k] == null) continue;
      e.setAttribute(k, attrs[k] === true ? "" : attrs[k]);
    }
    [].concat(kids == null ? [] : kids).forEach(function (c) {
      if (c == null) return;
      e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return e;
  }
  function euro(cents) {
    var w = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    var f = String(cents % 100); if (f.length < 2) f = "0" + f;
    return "€ " + w + "." + f;
  }
  // shared: end
  function query(name) {
    return (new RegExp("[?&]" + name + "=([^&]*)").exec(location.search) || [])[1];
  }
  function post(url, body) {
    return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); });
  }

  // settings: switches re-rendered on every click; Save disabled until
  // something changed; a toast for one second after saving.
  function settings() {
    var keys = [["email", "Email alerts"], ["sms", "SMS alerts"], ["digest", "Weekly digest"]];
    var saved = { email: false, sms: false, digest: true, dark: false };
    var st = { cur: Object.assign({}, saved), toast: false, saving: false, last: "" };
    var toastTimer = 0;
    var autosave = query("autosave") === "1";
    function lastSaved(body) {
      return "Last saved: " + ["email", "sms", "digest", "dark"].map(function (k) { return k + "=" + (body[k] ? "on" : "off"); }).join(" ");
    }
    function dirty() {
      return ["email", "sms", "digest", "dark"].some(function (k) { return st.cur[k] !== saved[k]; });
    }
    function render() {
      root.textContent = "";
      root.appendChild(el("h1", null, "Notification settings"));
      var sec = el("section", { "aria-labelledby": "notif-title" }, el("h2", { id: "notif-title" }, "Channels"));
      keys.forEach(function (kv) {
        var k = kv[0];
        sec.appendChild(el("div", { "class": "us-switch" }, [
          el("button", { type: "button", role: "switch", id: "sw-" + k, "aria-checked": String(st.cur[k]), "aria-labelledby": "lbl-" + k,
            "aria-busy": st.pending === k ? "true" : false,
            on: { click: function () {
              if (st.pending) return;
              if (!autosave) { st.cur[k] = !st.cur[k]; render(); return; }
              // ?autosave=1: each switch saves at once and flips only
              // once the server has answered.
              st.pending = k; render();
              var body = Object.assign({}, st.cur); body[k] = !body[k];
              post("/unseen/api/settings", body).then(function () { st.pending = ""; saved = body; st.cur = Object.assign({}, body); st.last = lastSaved(body); render(); });
            } } }),
          el("span", { id: "lbl-" + k }, kv[1])
        ]));
      });
      var dark = el("input", { type: "checkbox", role: "switch", id: "dark", checked: st.cur.dark,
        on: { change: function (e) { st.cur.dark = e.target.checked; render(); } } });
      sec.appendChild(el("div", null, el("label", { "class": "us-native", "for": "dark" }, [dark, el("span", { "class": "track", "aria-hidden": "true" }), "Dark mode"])));
      root.appendChild(sec);
      root.appendChild(el("button", { type: "button", id: "save", disabled: !dirty() || st.saving, on: { click: save } }, "Save"));
      if (st.last) root.appendChild(el("p", { id: "last-saved" }, st.last));
      if (st.toast) document.body.appendChild(el("div", { "class": "us-toast", role: "status", id: "toast" }, "Settings saved"));
      else { var t = document.getElementById("toast"); if (t) t.remove(); }
    }
    function save() {
      st.saving = true; render();
      var body = Object.assign({}, st.cur);
      post("/unseen/api/settings", body).then(function () {
        saved = body; st.saving = false; st.toast = true;
        st.last = lastSaved(body);
        var old = document.getElementById("toast"); if (old) old.remove();
        render();
        clearTimeout(toastTimer);
        toastTimer = setTimeout(function () { st.toast = false; render(); }, 1000);
      });
    }
    render();
  }

  // wizard: Next re-renders the whole form; earlier steps stay in the DOM,
  // hidden in one of three ways.
  function wizard() {
    var mode = query("hide") || "display";
    var st = { step: 0, v: { company: "", companyEmail: "", contact: "", contactEmail: "" }, busy: false, error: "", created: "" };
    var steps = [
      { title: "Company", fields: [["company", "Name"], ["companyEmail", "Email"]] },
      { title: "Contact", fields: [["contact", "Name"], ["contactEmail", "Email"]] },
      { title: "Review" }
    ];
    var gen = 0;
    function render() {
      gen++;
      root.textContent = "";
      root.appendChild(el("h1", null, "New supplier"));
      if (st.created) {
        root.appendChild(el("h2", null, "Supplier created"));
        root.appendChild(el("dl", null, [el("dt", null, "Supplier"), el("dd", { "data-testid": "supplier-id" }, st.created)]));
        return;
      }
      root.appendChild(el("ol", { "class": "us-steps", "aria-label": "Progress" }, steps.map(function (s, i) {
        return el("li", { "aria-current": i === st.step ? "step" : false }, s.title);
      })));
      // A keyed remount: a new form element every render.
      var track = el("div", { "class": "us-track us-" + mode });
      var form = el("form", { "data-key": "wizard-" + gen, novalidate: true, on: { submit: function (e) { e.preventDefault(); } } }, track);
      for (var i = 0; i <= st.step; i++) track.appendChild(stepView(i));
      root.appendChild(form);
    }
    function stepView(i) {
      var s = steps[i], past = i < st.step;
      var sec = el("section", { "class": "us-step" + (past ? " us-past" : ""), "aria-labelledby": "st-" + i + "-" + gen }, el("h2", { id: "st-" + i + "-" + gen }, s.title));
      if (past) {
        if (mode === "display") sec.style.display = "none";
        else if (mode === "inert") { sec.inert = true; sec.setAttribute("aria-hidden", "true"); }
        else sec.setAttribute("aria-hidden", "true");
      }
      (s.fields || []).forEach(function (f) {
        var id = "f-" + i + "-" + f[0] + "-" + gen;
        sec.appendChild(el("div", { "class": "us-row" }, [
          el("label", { "for": id }, f[1]),
          el("input", { id: id, name: f[0], type: f[1] === "Email" ? "email" : "text", value: st.v[f[0]],
            on: { input: function (e) { st.v[f[0]] = e.target.value; } } })
        ]));
      });
      if (i === 2) {
        sec.appendChild(el("dl", { id: "review" }, [
          el("dt", null, "Company"), el("dd", { "data-testid": "company" }, st.v.company),
          el("dt", null, "Company email"), el("dd", { "data-testid": "company-email" }, st.v.companyEmail),
          el("dt", null, "Contact"), el("dd", { "data-testid": "contact" }, st.v.contact),
          el("dt", null, "Contact email"), el("dd", { "data-testid": "contact-email" }, st.v.contactEmail)
        ]));
      }
      if (i === st.step && st.error) sec.appendChild(el("p", { role: "alert" }, st.error));
      var bar = el("div", { "class": "us-row" });
      if (i > 0) bar.appendChild(el("button", { type: "button", on: { click: function () { st.step = i - 1; st.error = ""; render(); } } }, "Back"));
      if (i < 2) bar.appendChild(el("button", { type: "button", disabled: st.busy, on: { click: function () { next(i); } } }, "Next"));
      else bar.appendChild(el("button", { type: "button", disabled: st.busy, on: { click: create } }, "Create supplier"));
      sec.appendChild(bar);
      return sec;
    }
    function next(i) {
      var missing = steps[i].fields.some(function (f) { return !st.v[f[0]]; });
      if (missing) { st.error = "Fill in every field"; render(); return; }
      st.error = "";
      if (i === 0) {
        st.busy = true; render();
        fetch("/unseen/api/vat").then(function (r) { return r.json(); }).then(function () { st.busy = false; st.step = 1; render(); });
        return;
      }
      st.step = i + 1; render();
    }
    function create() {
      st.busy = true; render();
      post("/unseen/api/suppliers", { company: st.v.company, company_email: st.v.companyEmail, contact: st.v.contact, contact_email: st.v.contactEmail })
        .then(function (r) { st.busy = false; st.created = r.id; render(); });
    }
    render();
  }

  // table: server-side sorting (the old order stays until the data
  // arrives), a sticky header in a scrolled box, kebab menus.
  function table() {
    var st = { rows: [], sort: "number", dir: "asc", menu: "", note: "" };
    var cols = [["number", "Number"], ["customer", "Customer"], ["amount", "Amount"]];
    var scroll = 0;
    function load(sort, dir) {
      return fetch("/unseen/api/invoices?sort=" + sort + "&dir=" + dir).then(function (r) { return r.json(); })
        .then(function (rows) { st.rows = rows; st.sort = sort; st.dir = dir; render(); });
    }
    function render() {
      var wrap0 = root.querySelector(".us-wrap");
      if (wrap0) scroll = wrap0.scrollTop;
      root.textContent = "";
      var m = document.getElementById("row-menu"); if (m) m.remove();
      root.appendChild(el("h1", null, "Invoices"));
      var head = el("tr", null, cols.map(function (c) {
        var sort = st.sort === c[0] ? (st.dir === "asc" ? "ascending" : "descending") : "none";
        return el("th", { scope: "col", "aria-sort": sort }, el("button", { type: "button", on: { click: function () {
          load(c[0], st.sort === c[0] && st.dir === "asc" ? "desc" : "asc");
        } } }, c[1]));
      }).concat([el("th", { scope: "col" }, "Status"), el("th", { scope: "col" }, el("span", { "class": "sr" }, ""))]));
      var body = el("tbody", null, st.rows.map(function (r) {
        return el("tr", { "class": "inv-row" }, [
          el("td", { "class": "num" }, r.number), el("td", { "class": "cust" }, r.customer),
          el("td", { "class": "amount" }, euro(r.amount)), el("td", { "class": "status" }, r.status),
          el("td", null, el("button", { type: "button", "class": "kebab", "aria-label": "Actions for " + r.number, "aria-haspopup": "menu",
            "aria-expanded": String(st.menu === r.number), on: { click: function (e) { st.menu = st.menu === r.number ? "" : r.number; render(); } } }, "⋮"))
        ]);
      }));
      var wrap = el("div", { "class": "us-wrap" }, el("table", null, [el("caption", null, "Invoices"), el("thead", null, head), body]));
      root.appendChild(wrap);
      wrap.scrollTop = scroll;
      if (st.note) root.appendChild(el("p", { role: "status" }, st.note));
      if (st.menu) {
        var btn = wrap.querySelector('[aria-label="Actions for ' + st.menu + '"]');
        var rect = btn.getBoundingClientRect();
        var num = st.menu;
        var menu = el("ul", { role: "menu", id: "row-menu", "class": "us-menu", "aria-label": "Actions for " + num }, ["View", "Duplicate", "Archive"].map(function (t) {
          return el("li", { role: "menuitem", tabindex: "-1", on: { click: function () { act(t, num); } } }, t);
        }));
        menu.style.top = rect.bottom + "px";
        menu.style.left = Math.max(0, rect.right - 128) + "px";
        document.body.appendChild(menu);
      }
    }
    function act(what, num) {
      st.menu = "";
      if (what !== "Archive") { st.note = what + " " + num; render(); return; }
      render();
      post("/unseen/api/invoices/" + num + "/archive", {}).then(function () {
        st.rows.forEach(function (r) { if (r.number === num) r.status = "Archived"; });
        st.note = num + " archived";
        render();
      });
    }
    document.addEventListener("mousedown", function (e) {
      if (!st.menu) return;
      var menu = document.getElementById("row-menu");
      if (menu && menu.contains(e.target)) return;
      if (e.target.closest && e.target.closest(".kebab")) return;
      st.menu = ""; render();
    }, true);
    document.addEventListener("keydown", function (e) { if (e.key === "Escape" && st.menu) { st.menu = ""; render(); } });
    render();
    load("number", "asc");
  }

  // worker: skeletons until a dedicated worker (or a service worker's
  // answer) delivers the data.
  function worker() {
    var delay = query("delay");
    var api = "/unseen/api/orders" + (delay ? "?delay=" + delay : "");
    function render(orders) {
      root.textContent = "";
      root.appendChild(el("h1", null, "Open orders"));
      var total = orders ? orders.reduce(function (s, o) { return s + o.total; }, 0) : 0;
      var sec = el("section", { id: "orders", "aria-busy": String(!orders), "aria-labelledby": "orders-title" }, [
        el("h2", { id: "orders-title" }, "This week"),
        el("dl", null, [el("dt", null, "Open total"), el("dd", { "data-testid": "open-total" }, orders ? euro(total) : el("span", { "class": "us-skel" }))]),
        el("table", null, [el("caption", null, "Orders"),
          el("thead", null, el("tr", null, [el("th", null, "Ref"), el("th", null, "Customer"), el("th", null, "Total")])),
          el("tbody", null, (orders || [null, null, null]).map(function (o) {
            var cell = function (cls, v) { return el("td", { "class": cls }, o ? v : el("span", { "class": "us-skel" })); };
            return el("tr", { "class": "order-row" }, [cell("ref", o && o.ref), cell("cust", o && o.customer), cell("total", o && euro(o.total))]);
          }))])
      ]);
      root.appendChild(sec);
    }
    render(null);
    if (query("via") === "sw") {
      navigator.serviceWorker.register("/unseen-sw.js", { scope: "/unseen/" }).then(function () {
        return navigator.serviceWorker.ready;
      }).then(function () {
        if (navigator.serviceWorker.controller) return;
        return new Promise(function (res) { navigator.serviceWorker.addEventListener("controllerchange", res, { once: true }); });
      }).then(function () {
        return fetch("/unseen/sw-data/orders" + (delay ? "?delay=" + delay : ""));
      }).then(function (r) { return r.json(); }).then(render);
      return;
    }
    var w = new Worker("/assets/unseen-worker.js");
    w.onmessage = function (e) { render(e.data); };
    // ?work=<ms>: the worker aggregates for that long before posting.
    w.postMessage({ url: api, work: +(query("work") || 0) });
  }

  // contacts: a <dialog> opened with showModal(); its text fields are
  // form-associated custom elements with closed shadow roots.
  function contacts() {
    if (!customElements.get("vera-field")) {
      customElements.define("vera-field", class extends HTMLElement {
        static get formAssociated() { return true; }
        constructor() {
          super();
          this._internals = this.attachInternals();
          var r = this.attachShadow({ mode: query("shadow") === "open" ? "open" : "closed", delegatesFocus: true });
          var input = document.createElement("input");
          input.type = this.getAttribute("type") || "text";
          r.appendChild(input);
          this._input = input;
          var self = this;
          input.addEventListener("input", function () { self._internals.setFormValue(input.value); });
        }
        connectedCallback() {
          var l = this._internals.labels[0];
          if (l) this._input.setAttribute("aria-label", l.textContent.trim());
        }
        get value() { return this._input.value; }
        set value(v) { this._input.value = v; this._internals.setFormValue(v); }
        get labels() { return this._internals.labels; }
        get form() { return this._internals.form; }
        get name() { return this.getAttribute("name"); }
      });
    }
    var st = { list: [], note: "" };
    var dlg;
    function render() {
      root.textContent = "";
      root.appendChild(el("h1", null, "Contacts"));
      root.appendChild(el("ul", { "aria-label": "Contacts" }, st.list.map(function (c) { return el("li", null, c.name + " (" + c.role + ")"); })));
      if (st.note) root.appendChild(el("p", { role: "status" }, st.note));
      root.appendChild(el("button", { type: "button", id: "new", on: { click: open } }, "New contact"));
    }
    function open() {
      if (dlg) dlg.remove();
      dlg = el("dialog", { "class": "us-dialog", "aria-labelledby": "dlg-title" });
      var form = el("form", { id: "contact-form", on: { submit: function (e) { e.preventDefault(); } } }, [
        el("h2", { id: "dlg-title" }, "New contact"),
        el("div", { "class": "us-row" }, [el("label", { "for": "c-name" }, "Full name"), el("vera-field", { id: "c-name", name: "name" })]),
        el("div", { "class": "us-row" }, [el("label", { "for": "c-email" }, "Work email"), el("vera-field", { id: "c-email", name: "email", type: "email" })]),
        el("div", { "class": "us-row" }, [el("label", { "for": "c-role" }, "Role"),
          el("select", { id: "c-role", name: "role" }, ["Viewer", "Editor", "Admin"].map(function (r) { return el("option", null, r); }))]),
        el("div", { "class": "us-row" }, [
          el("button", { type: "button", on: { click: function () { dlg.close(); } } }, "Cancel"),
          el("button", { type: "button", id: "save-contact", on: { click: save } }, "Save contact")
        ])
      ]);
      dlg.appendChild(form);
      document.body.appendChild(dlg);
      // The fields connect inside the dialog: name their inner inputs now.
      dlg.showModal();
    }
    function save() {
      var c = { name: dlg.querySelector("#c-name").value, email: dlg.querySelector("#c-email").value, role: dlg.querySelector("#c-role").value };
      if (!c.name || !c.email) return;
      post("/unseen/api/contacts", c).then(function (r) {
        st.list.push(r); st.note = "Contact saved";
        dlg.close();
        render();
      });
    }
    render();
  }

  ({ settings: settings, wizard: wizard, table: table, worker: worker, contacts: contacts })[page]();
})();

// Webcheck pages: small apps that behave like today's web apps (see
// internal/testsite/webcheck.go). One file, dispatched on body[data-page].
(function () {
  "use strict";
  var page = document.body.dataset.page;

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    return e;
  }

  // spa: pushState routing; the old view stays until the data arrives,
  // then the whole subtree is replaced (every old element is stale).
  function spa() {
    var app = document.getElementById("app");
    // ?busy=no: the app does not mark its loading view busy (most do not).
    var marks = !/[?&]busy=no(&|$)/.test(location.search);
    // ?delay=<ms>: the API's delay (else the server's own sequence).
    var delay = (/[?&]delay=([0-9]+)/.exec(location.search) || [])[1];
    var seq = 0;
    // ?clock=<ms>: a clock in the top bar ticks every <ms> (a page that
    // never stops mutating).
    var clock = (/[?&]clock=([0-9]+)/.exec(location.search) || [])[1];
    if (clock) {
      var face = el("span", { "class": "clock" });
      document.querySelector(".topbar").appendChild(face);
      setInterval(function () { face.textContent = new Date().toISOString(); }, Math.max(1, +clock));
    }
    function idOf(path) {
      var m = /\/accounts\/([^/]+)$/.exec(path);
      return m ? decodeURIComponent(m[1]) : "A-1";
    }
    function render(acc, details) {
      var view = el("section", { "data-testid": "account-view" });
      view.appendChild(el("h1", null, acc.name));
      var dl = el("dl");
      dl.appendChild(el("dt", null, "Balance"));
      dl.appendChild(el("dd", { "data-testid": "balance" }, acc.balance));
      if (details) {
        dl.appendChild(el("dt", null, "IBAN"));
        dl.appendChild(el("dd", { "data-testid": "iban" }, acc.iban));
      }
      view.appendChild(dl);
      if (!details) {
        var b = el("button", { type: "button" }, "Show details");
        b.addEventListener("click", function () { load(acc.id, true); });
        view.appendChild(b);
      }
      app.replaceChildren(view);
    }
    function load(id, details) {
      var mine = ++seq;
      if (marks) app.setAttribute("aria-busy", "true");
      fetch("/webcheck/api/accounts/" + encodeURIComponent(id) + (delay ? "?delay=" + delay : "")).then(function (r) {
        if (!r.ok) throw new Error("status " + r.status);
        return r.json();
      }).then(function (acc) {
        if (mine !== seq) return; // a later navigation won
        render(acc, details);
        app.setAttribute("aria-busy", "false");
      }).catch(function (e) {
        if (mine !== seq) return;
        app.replaceChildren(el("p", { role: "alert" }, "Could not load the account"));
        app.setAttribute("aria-busy", "false");
      });
    }
    document.querySelector("nav").addEventListener("click", function (ev) {
      var a = ev.target.closest("a");
      if (!a) return;
      ev.preventDefault();
      history.pushState(null, "", a.getAttribute("href"));
      load(idOf(location.pathname), false);
    });
    window.addEventListener("popstate", function () { load(idOf(location.pathname), false); });
    load(idOf(location.pathname), false);
  }

  // combo: recent cities at once, then debounced server suggestions that
  // replace them (a group heading first, so every option moves down).
  function combo() {
    var input = document.getElementById("city");
    var list = document.getElementById("city-list");
    var status = document.getElementById("chosen");
    var recent = ["Milano", "Roma", "Torino"];
    var timer = 0, seq = 0;
    function show(names, heading) {
      list.replaceChildren();
      if (heading) list.appendChild(el("li", { role: "presentation", "class": "wc-group" }, heading));
      names.forEach(function (n) {
        var o = el("li", { role: "option", "class": "wc-option", "aria-selected": "false" }, n);
        o.addEventListener("mousedown", function (ev) {
          ev.preventDefault(); // keep the focus in the input
          input.value = n;
          status.textContent = "Chosen: " + n;
          close();
        });
        list.appendChild(o);
      });
      list.hidden = names.length === 0;
      input.setAttribute("aria-expanded", String(!list.hidden));
    }
    function close() {
      clearTimeout(timer);
      seq++;
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
    }
    function update() {
      var q = input.value.trim().toLowerCase();
      show(recent.filter(function (n) { return n.toLowerCase().indexOf(q) === 0; }), "Recent");
      clearTimeout(timer);
      var mine = ++seq;
      if (!q) return;
      timer = setTimeout(function () {
        fetch("/webcheck/api/cities?q=" + encodeURIComponent(q)).then(function (r) { return r.json(); }).then(function (names) {
          if (mine !== seq) return; // stale answer
          show(names, "Suggestions");
        });
      }, 150);
    }
    input.addEventListener("focus", update);
    input.addEventListener("input", update);
    input.addEventListener("blur", function () { setTimeout(close, 150); });
  }

  // modal: animated entrance, focus trap, fields loaded after opening.
  function modal() {
    var open = document.getElementById("edit");
    var backdrop = document.getElementById("backdrop");
    var dialog = document.getElementById("addr");
    var street = document.getElementById("street");
    var town = document.getElementById("town");
    var saved = document.getElementById("saved");
    function focusables() { return Array.prototype.slice.call(dialog.querySelectorAll("input:not([disabled]), button")); }
    function hide() {
      backdrop.classList.remove("wc-open");
      backdrop.hidden = true;
      open.focus();
    }
    // ?guard=no: the fields stay editable while the saved address loads
    // (typed text is then overwritten, as in many apps).
    var guard = !/[?&]guard=no(&|$)/.test(location.search);
    open.addEventListener("click", function () {
      street.value = ""; town.value = "";
      street.disabled = guard; town.disabled = guard;
      backdrop.hidden = false;
      void backdrop.offsetWidth; // start the transition from the closed style
      backdrop.classList.add("wc-open");
      fetch("/webcheck/api/address").then(function (r) { return r.json(); }).then(function (a) {
        street.value = a.street; town.value = a.city;
        street.disabled = false; town.disabled = false;
        street.focus();
      });
    });
    dialog.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape") { hide(); return; }
      if (ev.key !== "Tab") return;
      var f = focusables(), first = f[0], last = f[f.length - 1];
      if (ev.shiftKey && document.activeElement === first) { ev.preventDefault(); last.focus(); }
      else if (!ev.shiftKey && document.activeElement === last) { ev.preventDefault(); first.focus(); }
    });
    document.addEventListener("focusin", function (ev) {
      if (!backdrop.hidden && !dialog.contains(ev.target)) { var f = focusables(); if (f.length) f[0].focus(); }
    });
    document.getElementById("save").addEventListener("click", function () {
      saved.textContent = "Saved: " + street.value + ", " + town.value;
      hide();
    });
    document.getElementById("cancel").addEventListener("click", hide);
  }

  // late: the frame is inserted only after a configuration fetch.
  function late() {
    fetch("/webcheck/api/config").then(function (r) { return r.json(); }).then(function (c) {
      var f = el("iframe", { id: "statements", title: "Statements frame", src: c.frame });
      document.getElementById("slot").replaceChildren(f);
    });
  }

  // grid: a virtualized grid of 1000 orders; only the rows in view (and a
  // few more) exist in the DOM.
  function grid() {
    var vp = document.getElementById("viewport");
    var spacer = document.getElementById("spacer");
    // ?rows=<n>: the grid holds n orders (1 to 1000) instead of 1000; the
    // grid's aria-rowcount counts them and the header row.
    var rows = +((/[?&]rows=([0-9]+)/.exec(location.search) || [])[1] || 1000);
    var rowH = 32, total = Math.max(1, Math.min(1000, rows)), overscan = 3;
    vp.setAttribute("aria-rowcount", String(total + 1));
    spacer.style.height = (total * rowH) + "px";
    var customers = ["Acme S.p.A.", "Borea srl", "Cielo snc", "Delta SpA", "Etna Coop"];
    function draw() {
      var first = Math.max(0, Math.floor(vp.scrollTop / rowH) - overscan);
      var last = Math.min(total, Math.ceil((vp.scrollTop + vp.clientHeight) / rowH) + overscan);
      var rows = [];
      for (var i = first; i < last; i++) {
        var n = 1 + i;
        var r = el("div", { role: "row", "aria-rowindex": String(n + 1), "class": "wc-row", "data-testid": "order-row" });
        r.style.top = (i * rowH) + "px";
        r.appendChild(el("span", { role: "gridcell", "class": "num" }, "ORD-" + String(n).padStart(4, "0")));
        r.appendChild(el("span", { role: "gridcell", "class": "cust" }, customers[i % customers.length]));
        r.appendChild(el("span", { role: "gridcell", "class": "total" }, "€ " + (n * 7 % 900 + 10) + ".00"));
        rows.push(r);
      }
      Array.prototype.slice.call(vp.querySelectorAll(".wc-row")).forEach(function (r) { r.remove(); });
      rows.forEach(function (r) { spacer.appendChild(r); });
    }
    vp.addEventListener("scroll", draw);
    draw();
  }

  // sets: a list or feed whose items arrive in batches from
  // GET /webcheck/api/items (a slow server). The list "Messages" declares
  // how many messages there are (aria-setsize, ?total=) and shows a
  // "Load more" button while some are missing; the feed "News" declares
  // its size unknown (aria-setsize=-1, or ?total= when given) and loads
  // the next batch when its end scrolls into view (aria-busy meanwhile).
  function sets() {
    var box = document.getElementById("items");
    var kind = box.dataset.kind;
    var total = (/[?&]total=([0-9]+)/.exec(location.search) || [])[1];
    var size = kind === "feed" && total == null ? "-1" : String(total || 40);
    var loaded = 0, busy = false, done = false;
    var more = document.getElementById("more");
    var status = document.getElementById("status");
    function item(it) {
      var attrs = { "aria-setsize": size, "aria-posinset": String(it.n), "data-testid": "item" };
      var e;
      if (kind === "feed") {
        attrs["aria-labelledby"] = "h-" + it.n;
        e = el("article", attrs);
        e.appendChild(el("h2", { id: "h-" + it.n, "class": "title" }, it.title));
      } else {
        e = el("li", attrs);
        e.appendChild(el("span", { "class": "title" }, it.title));
      }
      e.appendChild(el("span", { "class": "from" }, it.from));
      return e;
    }
    function load() {
      if (busy || done) return;
      busy = true;
      box.setAttribute("aria-busy", "true");
      if (more) more.hidden = true;
      fetch("/webcheck/api/items?kind=" + kind + "&offset=" + loaded + "&total=" + (total || (kind === "feed" ? 1000 : 40))).then(function (r) {
        return r.json();
      }).then(function (items) {
        // Each batch re-renders the whole list, as many frameworks do.
        var all = Array.prototype.slice.call(box.querySelectorAll("[data-testid=item]")).map(function (e) {
          return { n: +e.getAttribute("aria-posinset"), title: e.querySelector(".title").textContent, from: e.querySelector(".from").textContent };
        }).concat(items);
        box.replaceChildren.apply(box, all.map(item));
        loaded = all.length;
        done = items.length === 0 || (kind !== "feed" && loaded >= +size);
        busy = false;
        box.removeAttribute("aria-busy");
        if (more) more.hidden = done;
        if (status) status.textContent = "Showing " + loaded + " of " + size;
        if (kind === "feed") watch();
      });
    }
    function watch() {
      var last = box.lastElementChild;
      if (!last || done || !window.IntersectionObserver) return;
      var io = new IntersectionObserver(function (es) {
        if (es.some(function (e) { return e.isIntersecting; })) { io.disconnect(); load(); }
      });
      io.observe(last);
    }
    if (more) more.addEventListener("click", load);
    load();
  }

  var pages = { spa: spa, combo: combo, modal: modal, late: late, grid: grid, sets: sets };
  if (pages[page]) pages[page]();
})();

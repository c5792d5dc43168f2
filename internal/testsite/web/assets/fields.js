// The fields page (see internal/testsite/fields.go): every field counts
// the events it sees, as analytics and autosave code do.
(function () {
  "use strict";
  var counts = {}, changes = [];
  var load = String(Date.now()) + Math.random().toString(16).slice(2);
  var fields = document.querySelectorAll("input, textarea, select, [contenteditable]");
  Array.prototype.forEach.call(fields, function (f) {
    counts[f.id] = {};
    ["input", "change", "blur", "focusout"].forEach(function (type) {
      f.addEventListener(type, function (ev) {
        var k = type + (ev.isTrusted ? "" : "!");
        counts[f.id][k] = (counts[f.id][k] || 0) + 1;
        if (type === "change") changes.push(f.id);
      });
    });
  });
  window.fieldEvents = function () { return JSON.stringify(counts); };
  window.fieldChanges = function () { return JSON.stringify(changes); };

  // Full name: autosave, one server round trip per change.
  var name = document.getElementById("name");
  var saved = document.getElementById("saved");
  name.addEventListener("change", function () {
    saved.textContent = "Saving...";
    fetch("/fields/api/autosave?page=" + load + "&v=" + encodeURIComponent(name.value), { method: "POST" })
      .then(function (r) { return r.json(); })
      .then(function (a) { saved.textContent = "Autosaved " + a.v + " (" + a.n + " saves)"; });
  });

  // Nickname and Postcode: React-style controlled inputs. The element's
  // own value property tracks what the app last rendered or saw (React's
  // value tracker); onChange runs only for a value that differs from it,
  // sets the state (Postcode takes digits only, spaces dropped, and keeps its
  // old state for anything else) and re-renders, which
  // writes the state back to the input.
  function controlled(input, accept, rendered) {
    var proto = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value");
    var tracked = proto.get.call(input);
    Object.defineProperty(input, "value", {
      configurable: true,
      get: function () { return proto.get.call(this); },
      set: function (v) { tracked = String(v); proto.set.call(this, v); }
    });
    var state = tracked;
    function render() {
      input.value = state; // the controlled value
      rendered(state);
    }
    function onChange() {
      var v = proto.get.call(input);
      if (v === tracked) return; // React drops an event for a value it knows
      tracked = v;
      state = accept(v, state);
      Promise.resolve().then(render); // a scheduled re-render
    }
    input.addEventListener("input", onChange);
    input.addEventListener("change", onChange);
  }
  controlled(document.getElementById("nick"), function (v) { return v; }, function (s) {
    document.getElementById("hello").textContent = "Hello, " + (s || "nobody");
  });
  controlled(document.getElementById("postcode"), function (v, old) {
    var digits = v.replace(/\s+/g, "");
    return /^[0-9]*$/.test(digits) ? digits : old;
  }, function () {});

  // Locked note: the page refuses every edit, as an app does for a
  // field it locks while saving.
  document.getElementById("locked").addEventListener("beforeinput", function (ev) { ev.preventDefault(); });

  // Reference: an input handler that puts the old value back at once, as
  // a script does for a field it owns.
  var ref = document.getElementById("ref");
  ref.addEventListener("input", function () { ref.value = "REF-1"; });
  // Coupon: the same, from a 0 ms timer the input handler sets (a
  // deferred validation that rejects every code).
  var coupon = document.getElementById("coupon");
  coupon.addEventListener("input", function () {
    setTimeout(function () { coupon.value = "WELCOME"; }, 0);
  });
  // Member number and Motto (contenteditable): every edit cancelled.
  ["member", "motto"].forEach(function (id) {
    document.getElementById(id).addEventListener("beforeinput", function (ev) { ev.preventDefault(); });
  });
  // Arrival (a date): the change handler finds the day closed and puts
  // the old date back from a 0 ms timer.
  var arrival = document.getElementById("arrival");
  arrival.addEventListener("change", function () {
    setTimeout(function () { arrival.value = "2026-01-10"; }, 0);
  });
  // Reformatting fields: the value changes to the page's form of it.
  function reformat(id, f) {
    var el = document.getElementById(id);
    el.addEventListener("input", function () { el.value = f(el.value); });
  }
  // Phone: digits only, masked "(ddd) ddd-dddd".
  reformat("phone", function (v) {
    var d = v.replace(/\D/g, "").slice(0, 10);
    if (d.length <= 3) return d;
    if (d.length <= 6) return "(" + d.slice(0, 3) + ") " + d.slice(3);
    return "(" + d.slice(0, 3) + ") " + d.slice(3, 6) + "-" + d.slice(6);
  });
  reformat("plate", function (v) { return v.toUpperCase(); });
  // Amount: thousands separators.
  reformat("amount", function (v) {
    return v.replace(/\D/g, "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  });
  reformat("city", function (v) { return v.trim(); });

  // Search: Enter runs the search.
  var q = document.getElementById("q");
  q.addEventListener("keydown", function (ev) {
    if (ev.key === "Enter") document.getElementById("results").textContent = "Results for " + q.value;
  });

  var n = 0;
  document.getElementById("finish").addEventListener("click", function () {
    document.getElementById("done").textContent = "Done " + (++n);
  });
})();

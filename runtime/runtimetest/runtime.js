// The browser side of runtimetest fixtures: applies a page's rules on real
// DOM events exactly as the fake driver applies them (see document.go).
// It is an expression; the renderer calls it with the page's config.
(function (cfg) {
  "use strict";
  var rules = cfg.rules || [];
  var halted = false; // a rule navigated away or opened a dialog in this task

  function byId(id) { return document.getElementById(id); }
  function labelsFor(id) {
    return Array.prototype.slice.call(document.querySelectorAll("label[for=\"" + CSS.escape(id) + "\"]"));
  }
  function withLabels(ids, f) {
    (ids || []).forEach(function (id) {
      labelsFor(id).forEach(f);
      var e = byId(id);
      if (e) f(e);
    });
  }
  function each(ids, f) {
    (ids || []).forEach(function (id) { var e = byId(id); if (e) f(e); });
  }
  var VALUED = { INPUT: 1, TEXTAREA: 1, SELECT: 1, OPTION: 1, BUTTON: 1 };
  function valueOf(e) { return e && VALUED[e.nodeName] ? String(e.value) : ""; }
  function sortedKeys(o) { return Object.keys(o || {}).sort(); }
  function noFrag(u) { var i = u.indexOf("#"); return i < 0 ? u : u.slice(0, i); }

  function expand(s, target) {
    return s.replace(/\{\{([^{}]*)\}\}/g, function (m, inner) {
      if (inner === "value") return encodeURIComponent(valueOf(target));
      if (inner.indexOf("value:") === 0) {
        var e = byId(inner.slice(6));
        return e ? encodeURIComponent(valueOf(e)) : "";
      }
      return m;
    });
  }
  // resolve keeps the fragment verbatim, as the fake does.
  function resolve(ref) {
    var i = ref.indexOf("#");
    var base = i < 0 ? ref : ref.slice(0, i);
    var frag = i < 0 ? null : ref.slice(i);
    var u = base === "" ? noFrag(location.href) : new URL(base, location.href).href;
    u = noFrag(u);
    return frag === null ? u : u + frag;
  }
  // navigate returns 1 for a same-document navigation, 2 when the document
  // is being replaced.
  function navigate(u) {
    var same = u.indexOf("#") >= 0 && noFrag(u) === noFrag(location.href);
    location.href = u;
    return same ? 1 : 2;
  }

  // apply returns 0 to continue, 1 after a same-document navigation, 2 to
  // stop every later rule of this action.
  function apply(eff, target) {
    if (eff.show) withLabels(eff.show, function (e) { e.hidden = false; });
    else if (eff.hide) withLabels(eff.hide, function (e) { e.hidden = true; });
    else if (eff.enable) each(eff.enable, function (e) { e.removeAttribute("disabled"); });
    else if (eff.disable) each(eff.disable, function (e) { e.setAttribute("disabled", ""); });
    else if (eff.set_text) sortedKeys(eff.set_text).forEach(function (id) {
      var e = byId(id); if (e) e.textContent = eff.set_text[id];
    });
    else if (eff.set_value) sortedKeys(eff.set_value).forEach(function (id) {
      var e = byId(id); if (e && VALUED[e.nodeName]) e.value = eff.set_value[id];
    });
    else if (eff.remove) withLabels(eff.remove, function (e) { e.remove(); });
    else if (eff.add) {
      var p = byId(eff.add.parent);
      if (p) eff.add.items.forEach(function (it) {
        if (it.id && byId(it.id)) return;
        p.insertAdjacentHTML("beforeend", "\n" + it.html);
      });
    }
    else if (eff.navigate) return navigate(resolve(expand(eff.navigate, target)));
    else if (eff.download) {
      var a = document.createElement("a");
      a.href = cfg.download + encodeURIComponent(eff.download);
      a.download = "";
      a.click();
    }
    else if (eff.dialog) {
      var m = eff.dialog.message;
      if (eff.dialog.kind === "alert") window.alert(m);
      else if (eff.dialog.kind === "confirm") window.confirm(m);
      else window.prompt(m);
      return 2;
    }
    return 0;
  }

  // fire runs the rules of an action on target and its ancestors,
  // innermost first; the path is fixed before any effect runs.
  function fire(act, target, key) {
    if (halted || !target) return 0;
    var path = [];
    for (var n = target; n && n.nodeType === 1; n = n.parentElement) path.push(n);
    var res = 0;
    for (var i = 0; i < path.length; i++) {
      var id = path[i].id;
      if (!id) continue;
      for (var j = 0; j < rules.length; j++) {
        var r = rules[j];
        if (r.on.node !== id || r.on.act !== act) continue;
        if (act === "press" && r.on.key !== key) continue;
        if (r.on.value_equals !== undefined && r.on.value_equals !== null && valueOf(target) !== r.on.value_equals) continue;
        for (var k = 0; k < r.effects.length; k++) {
          var o = apply(r.effects[k], target);
          if (o === 1) res = 1;
          if (o === 2) {
            halted = true;
            setTimeout(function () { halted = false; }, 0);
            return 2;
          }
        }
      }
    }
    return res;
  }

  function el(ev) { return ev.target instanceof Element ? ev.target : null; }
  var TEXT = { text: 1, search: 1, email: 1, tel: 1, url: 1, password: 1, number: 1 };
  function fillable(t) {
    return t.nodeName === "TEXTAREA" || (t.nodeName === "INPUT" && TEXT[t.type] === 1);
  }
  function checkable(t) {
    return t.nodeName === "INPUT" && (t.type === "checkbox" || t.type === "radio");
  }

  document.addEventListener("click", function (ev) {
    var t = el(ev);
    if (!t) return;
    var r = fire("click", t, "");
    if (r !== 0 && t.closest("a[href]")) ev.preventDefault();
  });
  document.addEventListener("keydown", function (ev) {
    var t = el(ev);
    if (!t) return;
    if (fire("press", t, ev.key) === 2) ev.preventDefault();
  });
  document.addEventListener("input", function (ev) {
    var t = el(ev);
    if (t && fillable(t)) fire("fill", t, "");
  });
  document.addEventListener("change", function (ev) {
    var t = el(ev);
    if (!t) return;
    if (checkable(t)) {
      // reflect the state in the checked attribute, as the fake keeps it
      if (t.type === "radio" && t.name) {
        var scope = t.form || document;
        Array.prototype.forEach.call(scope.querySelectorAll("input[type=radio]"), function (x) {
          if (x.name === t.name) x.toggleAttribute("checked", x.checked);
        });
      } else {
        t.toggleAttribute("checked", t.checked);
      }
      fire(t.checked ? "check" : "uncheck", t, "");
    } else if (t.nodeName === "SELECT") {
      fire("select", t, "");
    }
  });
  // Form submission is not modelled: implicit submission still clicks the
  // default button, but the form never leaves the page.
  document.addEventListener("submit", function (ev) { ev.preventDefault(); }, true);
})

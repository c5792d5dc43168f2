// A React-like member directory: a virtual DOM diffed into the page, a
// controlled search input (every keystroke re-renders the app) and a
// scheduler that commits long lists in time slices, one task each, with a
// few milliseconds of work per slice, as React's concurrent renderer does.
(function () {
  'use strict';
  var SLICE = 20;

  function h(tag, props) {
    var kids = [];
    for (var i = 2; i < arguments.length; i++) {
      var k = arguments[i];
      if (Array.isArray(k)) { kids = kids.concat(k); } else if (k !== null && k !== false && k !== undefined) { kids.push(k); }
    }
    return { tag: tag, props: props || {}, kids: kids };
  }

  function create(v) {
    if (typeof v === 'string') { return document.createTextNode(v); }
    var el = document.createElement(v.tag);
    setProps(el, {}, v.props);
    v.kids.forEach(function (k) { el.appendChild(create(k)); });
    return el;
  }

  function setProps(el, old, next) {
    Object.keys(old).forEach(function (k) {
      if (!(k in next)) {
        if (k.slice(0, 2) === 'on') { el[k.toLowerCase()] = null; } else { el.removeAttribute(k); }
      }
    });
    Object.keys(next).forEach(function (k) {
      var val = next[k];
      if (k.slice(0, 2) === 'on') { el[k.toLowerCase()] = val; return; }
      if (k === 'value') { if (el.value !== val) { el.value = val; } return; }
      if (k === 'disabled') { el.disabled = !!val; return; }
      if (old[k] !== val) { el.setAttribute(k, val); }
    });
  }

  function patch(parent, el, old, next) {
    if (old === undefined) { parent.appendChild(create(next)); return; }
    if (next === undefined) { parent.removeChild(el); return; }
    if (typeof old === 'string' || typeof next === 'string' || old.tag !== next.tag) {
      if (old !== next) { parent.replaceChild(create(next), el); }
      return;
    }
    setProps(el, old.props, next.props);
    var n = Math.max(old.kids.length, next.kids.length);
    var nodes = Array.prototype.slice.call(el.childNodes);
    for (var i = n - 1; i >= 0; i--) {
      if (i >= next.kids.length) { el.removeChild(nodes[i]); }
    }
    for (var j = 0; j < next.kids.length; j++) {
      patch(el, el.childNodes[j], old.kids[j], next.kids[j]);
    }
  }

  // Scheduler: one render per macrotask, through a MessageChannel.
  var channel = new MessageChannel();
  var queued = false;
  var state = { query: '', loading: false, rows: [], shown: 0, done: false };
  var tree;
  var root = document.getElementById('root');

  function setState(p) {
    Object.keys(p).forEach(function (k) { state[k] = p[k]; });
    if (!queued) { queued = true; channel.port2.postMessage(0); }
  }
  channel.port1.onmessage = function () {
    queued = false;
    commit();
    if (state.shown < state.rows.length) {
      // The next slice: a few milliseconds of "component" work.
      var until = performance.now() + 4;
      while (performance.now() < until) { /* render work */ }
      setState({ shown: Math.min(state.rows.length, state.shown + SLICE) });
    } else if (state.loading === false && state.rows.length && !state.done) {
      setState({ done: true });
    }
  };

  function search() {
    setState({ loading: true, done: false, rows: [], shown: 0 });
    fetch('/react/api/members?q=' + encodeURIComponent(state.query)).then(function (r) { return r.json(); }).then(function (rows) {
      setState({ loading: false, rows: rows, shown: Math.min(rows.length, SLICE), done: rows.length === 0 });
    });
  }

  function app() {
    var rows = state.rows.slice(0, state.shown).map(function (r) {
      return h('tr', { 'data-testid': 'member-row' }, h('td', { 'class': 'id' }, r.id), h('td', { 'class': 'name' }, r.name), h('td', { 'class': 'branch' }, r.branch));
    });
    var status = state.loading ? 'Searching…' : (state.done ? state.rows.length + ' members found' : '');
    return h('div', {},
      h('h1', {}, 'Member directory'),
      h('form', { onSubmit: function (e) { e.preventDefault(); search(); } },
        h('label', { 'for': 'q' }, 'Search members'), ' ',
        h('input', { id: 'q', type: 'search', value: state.query, onInput: function (e) { setState({ query: e.target.value }); } }), ' ',
        h('button', { type: 'submit', disabled: state.loading }, 'Search')),
      h('p', { role: 'status' }, status),
      h('table', {}, h('tbody', {}, rows)));
  }

  function commit() {
    var next = app();
    if (!tree) { root.appendChild(create(next)); } else { patch(root, root.firstChild, tree, next); }
    tree = next;
  }
  commit();
})();

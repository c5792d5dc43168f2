// Mail client: hash routing between #inbox and #search/<query>. Views are
// hidden (display:none), never removed, so stale results stay in the DOM.
(function () {
  'use strict';
  var messages = JSON.parse(document.getElementById('mail-data').textContent) || [];
  var stuck = document.body.dataset.stuckSearch === 'true';
  var inboxView = document.getElementById('inbox-view');
  var searchView = document.getElementById('search-view');
  var searchList = document.getElementById('search-list');
  var empty = document.getElementById('search-empty');
  var input = document.getElementById('search-input');

  function norm(s) { return String(s).normalize('NFC').toLowerCase(); }

  function matches(m, query) {
    var terms = norm(query).split(/\s+/).filter(Boolean);
    if (terms.length === 0) return false;
    var hay = norm(m.sender + ' ' + m.subject);
    return terms.every(function (t) { return hay.indexOf(t) !== -1; });
  }

  function row(m) {
    var li = document.createElement('li');
    li.setAttribute('data-testid', 'message-row');
    [['sender', m.sender], ['subject', m.subject], ['date', m.date]].forEach(function (f) {
      var span = document.createElement('span');
      span.className = f[0];
      span.textContent = f[1];
      li.appendChild(span);
    });
    return li;
  }

  function fill(list, items) {
    list.replaceChildren.apply(list, items.map(row));
  }

  function show(view) {
    inboxView.hidden = view !== inboxView;
    searchView.hidden = view !== searchView;
  }

  function route() {
    var h = window.location.hash;
    if (h.indexOf('#search/') === 0) {
      var q;
      try { q = decodeURIComponent(h.slice('#search/'.length)); } catch (e) { q = ''; }
      if (q.trim() !== '') {
        var found = messages.filter(function (m) { return matches(m, q); });
        fill(searchList, found);
        searchList.hidden = found.length === 0;
        empty.hidden = found.length !== 0;
        if (input.value !== q) input.value = q;
        show(searchView);
        document.title = 'Search results - Mail';
        return;
      }
    }
    show(inboxView);
    document.title = 'Inbox - Mail';
  }

  document.getElementById('search-form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    if (stuck) return;
    var q = input.value;
    if (q.trim() === '') return;
    window.location.hash = '#search/' + encodeURIComponent(q);
  });

  fill(document.getElementById('inbox-list'), messages);
  if (window.location.hash === '') {
    history.replaceState(null, '', '#inbox');
  }
  window.addEventListener('hashchange', route);
  route();
})();

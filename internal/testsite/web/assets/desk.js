// The client desk (/desk): the <desk-sync> web component and the client
// search. The search state is the URL's q parameter: on load the page
// renders the answer of /api/desk/clients?q=, and submitting the form
// pushes /desk?q=<name> and renders again, as single-page back offices do.
(function () {
  'use strict';

  // <desk-sync>: a panel whose heading, status (role status, test id
  // desk-sync-status) and "Sincronizza" button live in an open shadow
  // root. A click posts /api/desk/sync and reports the answer.
  class DeskSync extends HTMLElement {
    constructor() {
      super();
      var root = this.attachShadow({ mode: 'open' });
      var style = document.createElement('style');
      style.textContent = ':host { display: block; border: 1px solid #ccc; padding: 0.5em; margin: 0.5em 0; }';
      var section = document.createElement('section');
      section.setAttribute('aria-labelledby', 'title');
      var h = document.createElement('h2');
      h.id = 'title';
      h.textContent = 'Sincronizzazione';
      var status = document.createElement('p');
      status.setAttribute('role', 'status');
      status.setAttribute('data-testid', 'desk-sync-status');
      status.textContent = 'Ultima sincronizzazione: mai';
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = 'Sincronizza';
      b.addEventListener('click', function () {
        b.disabled = true;
        status.textContent = 'Sincronizzazione in corso';
        fetch('/api/desk/sync', { method: 'POST' })
          .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
          .then(function (d) { status.textContent = 'Sincronizzazione completata: ' + d.clients + ' clienti'; })
          .catch(function () { status.textContent = 'Sincronizzazione non riuscita'; })
          .finally(function () { b.disabled = false; });
      });
      section.appendChild(h);
      section.appendChild(status);
      section.appendChild(b);
      root.appendChild(style);
      root.appendChild(section);
    }
  }
  customElements.define('desk-sync', DeskSync);

  var form = document.getElementById('desk-search');
  var input = document.getElementById('desk-q');
  var results = document.getElementById('desk-results');
  var seq = 0;

  function cell(tr, cls, text) {
    var td = document.createElement('td');
    td.className = cls;
    td.textContent = text;
    tr.appendChild(td);
  }

  function render(q) {
    var mine = ++seq;
    input.value = q;
    results.replaceChildren();
    if (q.trim() === '') return;
    results.setAttribute('aria-busy', 'true');
    fetch('/api/desk/clients?q=' + encodeURIComponent(q))
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
      .then(function (list) {
        if (mine !== seq) return; // a newer search owns the results
        results.removeAttribute('aria-busy');
        if (list.length === 0) {
          var p = document.createElement('p');
          p.setAttribute('role', 'status');
          p.textContent = 'No client matches';
          results.replaceChildren(p);
          return;
        }
        var table = document.createElement('table');
        var cap = document.createElement('caption');
        cap.textContent = 'Matching clients';
        table.appendChild(cap);
        var tbody = document.createElement('tbody');
        list.forEach(function (c) {
          var tr = document.createElement('tr');
          tr.className = 'client-row';
          cell(tr, 'name', c.name);
          cell(tr, 'invoices', String(c.invoices));
          tbody.appendChild(tr);
        });
        table.appendChild(tbody);
        results.replaceChildren(table);
      })
      .catch(function () {
        if (mine !== seq) return;
        results.removeAttribute('aria-busy');
        results.textContent = 'The search failed';
      });
  }

  function current() { return new URLSearchParams(window.location.search).get('q') || ''; }

  form.addEventListener('submit', function (e) {
    e.preventDefault();
    var q = input.value;
    history.pushState(null, '', '/desk?q=' + encodeURIComponent(q));
    render(q);
  });
  window.addEventListener('popstate', function () { render(current()); });
  render(current());
})();

// Invoice ledger: client-side pagination (no navigation), CSV export,
// the consequential "Issue invoice" with its confirmation, and the optional
// unexpected survey modal.
(function () {
  'use strict';
  var PAGE_SIZE = 10;
  var data = JSON.parse(document.getElementById('invoice-data').textContent) || [];
  var cfg = document.body.dataset;
  var pages = Math.max(1, Math.ceil(data.length / PAGE_SIZE));
  var page = 0;
  var tbody = document.getElementById('invoice-rows');
  var pageStatus = document.getElementById('page-status');
  var prev = document.getElementById('prev-page');
  var next = document.getElementById('next-page');
  var issueStatus = document.getElementById('issue-status');
  var backdrop = document.getElementById('backdrop');
  var confirmDialog = document.getElementById('confirm-dialog');
  var surveyDialog = document.getElementById('survey-dialog');
  var FIELDS = ['number', 'customer', 'date', 'amount', 'status'];

  function randomHex() {
    var a = new Uint8Array(4);
    window.crypto.getRandomValues(a);
    return Array.prototype.map.call(a, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
  }

  function render() {
    var rows = data.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE).map(function (inv) {
      var tr = document.createElement('tr');
      tr.className = 'invoice-row';
      tr.setAttribute('data-testid', 'invoice-row-' + randomHex());
      FIELDS.forEach(function (f) {
        var td = document.createElement('td');
        td.className = f;
        td.textContent = inv[f];
        tr.appendChild(td);
      });
      return tr;
    });
    tbody.replaceChildren.apply(tbody, rows);
    pageStatus.textContent = 'Page ' + (page + 1) + ' of ' + pages;
    prev.hidden = page === 0;
    next.hidden = page >= pages - 1;
  }

  prev.addEventListener('click', function () { if (page > 0) { page--; render(); } });
  next.addEventListener('click', function () { if (page < pages - 1) { page++; render(); } });

  document.getElementById('export-csv').addEventListener('click', function () {
    window.location.href = '/export/invoices.csv';
  });

  var openDialog = null;
  function open(d, focus) {
    openDialog = d;
    backdrop.hidden = false;
    d.hidden = false;
    focus.focus();
  }
  function close() {
    if (openDialog) openDialog.hidden = true;
    openDialog = null;
    backdrop.hidden = true;
  }

  function issue() {
    return fetch('/api/issue', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
      .then(function (r) {
        issueStatus.textContent = r.ok ? 'Invoice ' + cfg.issueNumber + ' issued' : 'Issue failed';
      }, function () {
        issueStatus.textContent = 'Issue failed';
      })
      .then(function () { issueStatus.hidden = false; });
  }

  document.getElementById('issue-invoice').addEventListener('click', function () {
    if (cfg.nativeDialog === 'true') {
      if (window.confirm('Issue invoice ' + cfg.issueNumber + ' to ' + cfg.issueCustomer + '?')) issue();
      return;
    }
    open(confirmDialog, document.getElementById('confirm-cancel'));
  });
  document.getElementById('confirm-yes').addEventListener('click', function () {
    issue().then(close);
  });
  document.getElementById('confirm-cancel').addEventListener('click', close);
  document.addEventListener('keydown', function (ev) {
    if (ev.key === 'Escape' && openDialog === confirmDialog) close();
  });

  function answer() {
    fetch('/api/survey', { method: 'POST' }).catch(function () {});
    close();
  }
  document.getElementById('survey-yes').addEventListener('click', answer);
  document.getElementById('survey-no').addEventListener('click', answer);

  render();
  if (cfg.survey === 'true') open(surveyDialog, document.getElementById('survey-no'));
})();

// Escape pages: navigate or open a popup to the outside origin.
(function () {
  'use strict';
  var body = document.body;
  var target = body.dataset.outside + '/page';
  if (body.dataset.escape === 'js-redirect') {
    window.addEventListener('load', function () { window.location.href = target; });
  }
  var status = document.getElementById('status');
  var say = function (t) { if (status) { status.textContent = t; } };
  var out = body.dataset.outside;
  var ws = out.replace(/^http/, 'ws') + '/ws';
  switch (body.dataset.escape) {
    case 'worker-ws':
      var w = new Worker('/assets/escape-worker.js?ws=' + encodeURIComponent(ws));
      w.onmessage = function (e) { say('Worker WebSocket: ' + e.data); };
      say('Worker started');
      break;
    case 'service-worker':
      if (!('serviceWorker' in navigator)) { say('No service worker support'); break; }
      navigator.serviceWorker.onmessage = function (e) { say('Service worker ready, WebSocket ' + e.data); };
      navigator.serviceWorker.register('/escape/sw.js?out=' + encodeURIComponent(out), { scope: '/escape/' })
        .then(function () { return navigator.serviceWorker.ready; })
        .then(function () { say('Service worker ready'); })
        .catch(function (e) { say('Service worker failed: ' + e.name); });
      break;
    case 'rebind':
      say('Loaded');
      document.getElementById('fetch-data').addEventListener('click', function () {
        say('Fetching');
        Promise.all([1, 2, 3, 4].map(function (n) {
          return fetch('/escape/rebind/data/' + n, { cache: 'no-store' })
            .then(function (r) { return r.ok ? 'ok' : 'status ' + r.status; }, function () { return 'error'; });
        })).then(function (rs) { say('Rebind done: ' + rs.join(' ')); });
      });
      break;
  }
  var open = document.getElementById('open-popup');
  if (open) {
    open.addEventListener('click', function () { window.open(target, '_blank'); });
  }
})();

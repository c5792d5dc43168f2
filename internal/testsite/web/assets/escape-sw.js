// A service worker (served at /escape/sw.js, scope /escape/) that, once
// active, opens a WebSocket and a fetch to the origin in its query (?out=).
'use strict';
var out = new URLSearchParams(self.location.search).get('out');
self.addEventListener('install', function () { self.skipWaiting(); });
self.addEventListener('activate', function (e) {
  e.waitUntil(self.clients.claim());
  try { new WebSocket(out.replace(/^http/, 'ws') + '/ws'); } catch (err) { /* refused */ }
  fetch(out + '/sw-fetch', { mode: 'no-cors', cache: 'no-store' }).catch(function () {});
});

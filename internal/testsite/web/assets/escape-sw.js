// A service worker (served at /escape/sw.js, scope /escape/) that, once
// active, fetches from and opens a WebSocket to the origin in its query
// (?out=), then tells its pages how the WebSocket ended.
'use strict';
var out = new URLSearchParams(self.location.search).get('out');
var tell = function (msg) {
  return self.clients.matchAll({ includeUncontrolled: true }).then(function (cs) {
    cs.forEach(function (c) { c.postMessage(msg); });
  });
};
self.addEventListener('install', function () { self.skipWaiting(); });
self.addEventListener('activate', function (e) {
  e.waitUntil(self.clients.claim().then(function () {
    return fetch(out + '/sw-fetch', { mode: 'no-cors', cache: 'no-store' }).catch(function () {});
  }).then(function () {
    return new Promise(function (resolve) {
      try {
        var s = new WebSocket(out.replace(/^http/, 'ws') + '/ws');
        s.onopen = function () { tell('open').then(resolve); };
        s.onerror = function () { tell('error').then(resolve); };
      } catch (err) {
        tell('threw ' + err.name).then(resolve);
      }
    });
  }));
});

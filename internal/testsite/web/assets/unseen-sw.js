// The unseen worker dashboard's service worker: answers
// /unseen/sw-data/orders by fetching /unseen/api/orders itself.
// Installing precaches for 300 ms (as a real one fetches its assets).
self.addEventListener("install", function (e) {
  self.skipWaiting();
  e.waitUntil(new Promise(function (res) { setTimeout(res, 300); }));
});
self.addEventListener("activate", function (e) { e.waitUntil(self.clients.claim()); });
self.addEventListener("fetch", function (e) {
  var u = new URL(e.request.url);
  if (u.pathname !== "/unseen/sw-data/orders") return;
  e.respondWith(fetch("/unseen/api/orders" + u.search));
});

// The unseen worker dashboard's service worker: answers
// /unseen/sw-data/orders by fetching /unseen/api/orders itself.
self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (e) { e.waitUntil(self.clients.claim()); });
self.addEventListener("fetch", function (e) {
  var u = new URL(e.request.url);
  if (u.pathname !== "/unseen/sw-data/orders") return;
  e.respondWith(fetch("/unseen/api/orders" + u.search));
});

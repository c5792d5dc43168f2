// The unseen worker dashboard's data worker: fetches the URL it is sent
// and posts the JSON back.
self.onmessage = function (e) {
  fetch(e.data.url).then(function (r) { return r.json(); }).then(function (d) { self.postMessage(d); });
};

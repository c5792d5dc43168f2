// The unseen worker dashboard's data worker: fetches the URL it is sent,
// aggregates for e.data.work milliseconds (as a worker that crunches the
// data would), and posts the JSON back.
self.onmessage = function (e) {
  fetch(e.data.url).then(function (r) { return r.json(); }).then(function (d) {
    var until = Date.now() + (e.data.work || 0);
    while (Date.now() < until) { /* aggregating */ }
    self.postMessage(d);
  });
};

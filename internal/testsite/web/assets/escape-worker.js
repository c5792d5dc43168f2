// A dedicated worker loaded over http: it takes the policy of its own
// script response, not the page's, and opens a WebSocket to the URL in
// its query (?ws=).
(function () {
  'use strict';
  var url = new URLSearchParams(self.location.search).get('ws');
  try {
    var s = new WebSocket(url);
    s.onopen = function () { self.postMessage('open'); };
    s.onerror = function () { self.postMessage('error'); };
  } catch (e) {
    self.postMessage('threw ' + e.name);
  }
})();

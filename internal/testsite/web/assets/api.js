// API console: "Send request" POSTs the textarea's text as the JSON body
// of /api/requests and shows the server's verdict.
(function () {
  'use strict';
  var form = document.getElementById('api-form');
  var body = document.getElementById('body');
  var send = document.getElementById('send');
  var status = document.getElementById('api-status');
  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    send.disabled = true;
    status.textContent = 'Sending…';
    fetch('/api/requests', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: body.value
    }).then(function (res) {
      status.textContent = res.status === 201 ? 'Request accepted' : 'Request rejected';
    }, function () {
      status.textContent = 'Request failed';
    }).finally(function () {
      send.disabled = false;
    });
  });
})();

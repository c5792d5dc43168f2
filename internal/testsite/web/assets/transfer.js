// Transfer form: "Review transfer" opens the confirmation dialog; its
// "Confirm and send" submits the form. Like most real sites the dialog
// stays on screen, its button busy, while the submission is in flight.
(function () {
  'use strict';
  var form = document.getElementById('transfer-form');
  var dialog = document.getElementById('confirm');
  var send = document.getElementById('confirm-send');
  document.getElementById('review').addEventListener('click', function () {
    dialog.hidden = false;
  });
  document.getElementById('cancel').addEventListener('click', function () {
    dialog.hidden = true;
  });
  form.addEventListener('submit', function () {
    send.setAttribute('aria-busy', 'true');
    send.textContent = 'Sending…';
  });
})();

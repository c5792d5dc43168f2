// Never settles: mutates the DOM every 10 ms and keeps one fetch pending
// forever (the server holds /stress/hang open until it closes).
(function () {
  'use strict';
  var ticker = document.getElementById('ticker');
  var n = 0;
  window.setInterval(function () {
    n++;
    ticker.textContent = String(n);
    ticker.setAttribute('data-tick', String(n % 2));
  }, 10);
  fetch('/stress/hang', { cache: 'no-store' }).catch(function () {});
})();

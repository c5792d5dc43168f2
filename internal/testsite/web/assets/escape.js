// Escape pages: navigate or open a popup to the outside origin.
(function () {
  'use strict';
  var body = document.body;
  var target = body.dataset.outside + '/page';
  if (body.dataset.escape === 'js-redirect') {
    window.addEventListener('load', function () { window.location.href = target; });
  }
  var open = document.getElementById('open-popup');
  if (open) {
    open.addEventListener('click', function () { window.open(target, '_blank'); });
  }
})();

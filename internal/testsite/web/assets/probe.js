// Observation probe: counts DOM mutations and user events so a test can
// prove that read-only discovery never touched the page. It changes nothing
// in the DOM itself.
(function () {
  'use strict';
  var probe = { mutations: 0, events: 0 };
  window.__veraProbe = probe;
  new MutationObserver(function (records) {
    probe.mutations += records.length;
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  ['click', 'input', 'change', 'keydown', 'focusin'].forEach(function (type) {
    window.addEventListener(type, function () { probe.events++; }, true);
  });
})();

// Starts Redoc on a reference page. The page names its description (data-spec) and carries
// its Redoc options as a JSON data block, so this file holds no per-page settings and no
// inline script is needed (the Content-Security-Policy allows scripts from this site only).
(function () {
  'use strict';
  var root = document.getElementById('redoc');
  var status = document.getElementById('redoc-status');
  var html = document.documentElement;

  function fail(message) {
    html.setAttribute('data-redoc', 'error');
    if (status) {
      status.hidden = false;
      status.textContent = message;
    }
    console.error(message);
  }

  if (!root || typeof window.Redoc === 'undefined') {
    fail('The reference viewer could not start: its script did not load.');
    return;
  }
  var options;
  try {
    options = JSON.parse(document.getElementById('redoc-options').textContent);
  } catch (error) {
    fail('The reference viewer could not start: its options are not valid JSON.');
    return;
  }
  html.setAttribute('data-redoc', 'loading');
  window.Redoc.init(root.getAttribute('data-spec'), options, root, function (error) {
    if (error) {
      fail('The description could not be loaded: ' + (error.message || error));
      return;
    }
    html.setAttribute('data-redoc', 'ready');
  });
})();

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
    var list = document.getElementById('operation-list');
    if (list) list.removeAttribute('aria-busy');
    if (status) {
      status.hidden = false;
      status.textContent = message;
    }
    console.error(message);
  }

  // Until Redoc has rendered, the page shows its static list of operations.
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
    // Redoc takes the place of the static list of operations.
    var list = document.getElementById('operation-list');
    if (list) list.parentNode.removeChild(list);
    root.classList.remove('redoc-loading');
    if (window.location.hash.length > 1) {
      var target = document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
      if (target) target.scrollIntoView();
    }
    html.setAttribute('data-redoc', 'ready');
    document.dispatchEvent(new Event('redoc-ready'));
  });
})();

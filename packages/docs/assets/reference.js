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
  // The code samples show the reader's sandbox address and token (assets/sandbox-settings.js).
  var sandbox = window.PayrollSandbox;
  fetch(root.getAttribute('data-spec'))
    .then(function (response) {
      if (!response.ok) throw new Error('HTTP ' + response.status);
      return response.json();
    })
    .then(function (spec) {
      for (var path in spec.paths || {}) {
        for (var method in spec.paths[path]) {
          var samples = (spec.paths[path][method] || {})['x-codeSamples'];
          if (!sandbox || !Array.isArray(samples)) continue;
          for (var i = 0; i < samples.length; i++) samples[i].source = sandbox.rewrite(samples[i].source);
        }
      }
      window.Redoc.init(spec, options, root, ready);
    })
    .catch(function (error) {
      fail('The description could not be loaded: ' + (error.message || error));
    });

  function ready(error) {
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
  }
})();

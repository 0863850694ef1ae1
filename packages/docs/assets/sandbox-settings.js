// The reader's sandbox on every page: the address and token set in a sandbox bar (Start here,
// or above a reference) are kept in localStorage, and every sample on the page (each code
// block, and the references' code samples through window.PayrollSandbox.rewrite) shows them
// instead of the site's sample address and token (the <body>'s data-sample-origin and
// data-sample-token; data-sample-tokens lists every token that stands for the reader's).
(function () {
  'use strict';
  var ORIGIN_KEY = 'payroll-docs:sandbox-origin';
  var TOKEN_KEY = 'payroll-docs:sandbox-token';
  var body = document.body;
  var sampleOrigin = body.getAttribute('data-sample-origin');
  var sampleToken = body.getAttribute('data-sample-token');

  function stored(key) {
    try {
      return window.localStorage.getItem(key) || '';
    } catch (error) {
      return '';
    }
  }
  function store(key, value) {
    try {
      window.localStorage.setItem(key, value);
    } catch (error) {
      // storage refused (private mode): the value lasts for this page only
    }
  }
  function originOf(text) {
    try {
      var url = new URL(text);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : '';
    } catch (error) {
      return '';
    }
  }
  var current = { origin: originOf(stored(ORIGIN_KEY)) || sampleOrigin, token: stored(TOKEN_KEY) || sampleToken };
  var escape = function (text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  };
  var tokens = (body.getAttribute('data-sample-tokens') || sampleToken).split(' ').map(escape).join('|');
  var tokenPattern = new RegExp('(^|[^\\w-])(?:' + tokens + ')(?![\\w-])', 'g');

  /** A sample's text with the reader's address and token in place of the site's. */
  function rewrite(text) {
    return String(text)
      .split(sampleOrigin)
      .join(current.origin)
      .replace(tokenPattern, function (match, before) {
        return before + current.token;
      });
  }

  var originals = [];
  function showSamples() {
    if (originals.length === 0) {
      var blocks = document.querySelectorAll('pre code');
      for (var i = 0; i < blocks.length; i++) originals.push({ node: blocks[i], text: blocks[i].textContent });
    }
    for (var j = 0; j < originals.length; j++) {
      var text = rewrite(originals[j].text);
      if (originals[j].node.textContent !== text) originals[j].node.textContent = text;
    }
  }

  /** Keeps the reader's address and token; false when the address is not an http(s) address. */
  function save(origin, token) {
    var chosen = originOf(origin);
    if (!chosen) return false;
    current.origin = chosen;
    current.token = token.trim() || sampleToken;
    store(ORIGIN_KEY, chosen);
    store(TOKEN_KEY, current.token);
    showSamples();
    return true;
  }

  window.PayrollSandbox = {
    sampleOrigin: sampleOrigin,
    sampleToken: sampleToken,
    origin: function () {
      return current.origin;
    },
    token: function () {
      return current.token;
    },
    rewrite: rewrite,
    save: save,
  };

  showSamples();

  // The bar of a page without a console (Start here): the samples change in place.
  var form = document.getElementById('sandbox-settings');
  if (!form) return;
  var note = form.querySelector('output');
  form.elements.origin.value = current.origin;
  form.elements.token.value = current.token;
  form.elements.origin.addEventListener('input', function () {
    form.elements.origin.setCustomValidity('');
  });
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (!save(form.elements.origin.value, form.elements.token.value)) {
      form.elements.origin.setCustomValidity('An address such as https://sandbox.example.nl');
      form.reportValidity();
      return;
    }
    if (note) note.textContent = 'Every sample on this site now uses ' + current.origin + ' and your token.';
  });
})();

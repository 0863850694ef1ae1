// The first script of a reference page: narrows the page's connect-src to the site and the
// one sandbox origin the reader chose (stored by the sandbox bar; the page's
// <meta name="sandbox-origin"> is the default), or to the site alone when the reader chose
// "this browser". A second Content-Security-Policy only ever
// restricts further, so choosing another sandbox reloads the page.
(function () {
  'use strict';
  var KEY = 'payroll-docs:sandbox-origin';
  var TARGET_KEY = 'payroll-docs:sandbox-target';
  var fallback = document.querySelector('meta[name="sandbox-origin"]');
  var origin = null;
  var inBrowserOnly = false;
  try {
    // "In this browser" needs no connection at all: the policy then names no sandbox origin.
    inBrowserOnly = window.localStorage.getItem(TARGET_KEY) === 'browser';
    var stored = window.localStorage.getItem(KEY);
    if (stored) {
      var url = new URL(stored);
      if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
    }
  } catch (error) {
    origin = null;
  }
  if (!origin && fallback) origin = new URL(fallback.getAttribute('content')).origin;
  var meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = "connect-src 'self'" + (origin && !inBrowserOnly ? ' ' + origin : '');
  document.head.appendChild(meta);
  document.documentElement.setAttribute('data-sandbox-origin', origin || '');
})();

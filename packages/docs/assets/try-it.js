// "Try it": a console under every operation of the reference. It starts from the operation's
// sample request (path parameters with ids from the sandbox's seed, the operation's own
// versioned Accept and Content-Type, the example body), sends it to the sandbox chosen in the
// sandbox bar with the bearer token, and shows the status, the headers and the body.
// Where it goes (the bar's "Try it in"): the sandbox server at the chosen origin; or the same
// sandbox engine in this browser, in a Web Worker started on the first Try that needs it
// (src/in-browser-sandbox.mjs, which keeps the reader's data in IndexedDB); or, by default,
// the server when its /__health answers and this browser otherwise. The fallback to this
// browser is for the site's default address only: when the address the reader entered does not
// answer, the console says so and offers to retry or to use this browser, never switching
// quietly.
(function () {
  'use strict';
  var ORIGIN_KEY = 'payroll-docs:sandbox-origin';
  var TOKEN_KEY = 'payroll-docs:sandbox-token';
  var TARGET_KEY = 'payroll-docs:sandbox-target';
  var PROBE_MS = 2000;
  var html = document.documentElement;
  var root = document.getElementById('redoc');
  var bar = document.getElementById('sandbox-bar');
  if (!root || !bar) return;

  function stored(key, fallback) {
    try {
      return window.localStorage.getItem(key) || fallback;
    } catch (error) {
      return fallback;
    }
  }
  function store(key, value) {
    try {
      window.localStorage.setItem(key, value);
    } catch (error) {
      // storage refused (private mode): the value lasts for this page only
    }
  }

  var data = null;
  var sandbox = window.PayrollSandbox;
  var origin = html.getAttribute('data-sandbox-origin');
  // An address the reader entered (not the site's default) is never replaced by this browser.
  var chosenByReader = stored(ORIGIN_KEY, '') !== '' && origin !== sandbox.sampleOrigin;
  var token = sandbox.token();
  bar.elements.origin.value = origin;
  bar.elements.token.value = token;
  var target = stored(TARGET_KEY, 'auto');
  bar.elements.target.value = target;
  var targetNote = document.getElementById('sandbox-target');
  bar.elements.origin.addEventListener('input', function () {
    bar.elements.origin.setCustomValidity('');
  });
  bar.addEventListener('submit', function (event) {
    event.preventDefault();
    if (!sandbox.save(bar.elements.origin.value, bar.elements.token.value)) {
      bar.elements.origin.setCustomValidity('An address such as https://sandbox.example.nl');
      bar.reportValidity();
      return;
    }
    if (sandbox.origin() !== origin || sandbox.token() !== token || bar.elements.target.value !== target) {
      store(TARGET_KEY, bar.elements.target.value);
      // The page's connection policy names the old origin (or none), and the code samples the
      // old address and token: a reload sets both.
      window.location.reload();
    }
  });

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    for (var name in attributes) node.setAttribute(name, attributes[name]);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function field(form, label, name, value, multiline) {
    var wrapper = element('label', { class: 'try-field' });
    wrapper.appendChild(element('span', {}, label));
    var input = element(multiline ? 'textarea' : 'input', { name: name, spellcheck: 'false', autocomplete: 'off' });
    if (multiline) input.rows = Math.min(14, Math.max(4, value.split('\n').length));
    input.value = value;
    wrapper.appendChild(input);
    form.appendChild(wrapper);
    return input;
  }

  var resolved = null;
  /** 'server' or 'browser': the reader's choice, or (automatic) whether the server answers. */
  function resolveTarget() {
    if (target === 'server' || target === 'browser') return Promise.resolve(target);
    if (!resolved) {
      var controller = new AbortController();
      var timer = setTimeout(function () {
        controller.abort();
      }, PROBE_MS);
      resolved = fetch(origin + '/__health', { cache: 'no-store', signal: controller.signal })
        .then(
          function (response) {
            return response.ok ? 'server' : 'browser';
          },
          function () {
            return 'browser';
          },
        )
        .then(function (where) {
          clearTimeout(timer);
          if (targetNote) {
            if (where === 'server') targetNote.textContent = 'Answering: the sandbox at ' + origin + '.';
            else targetNote.textContent = chosenByReader ? 'No sandbox answered at ' + origin + '.' : 'No sandbox answered at ' + origin + ': answering in this browser.';
          }
          return where;
        });
    }
    return resolved;
  }

  var worker = null;
  var pending = {};
  var nextId = 1;
  function failAll(message) {
    for (var id in pending) pending[id].reject(new Error(message));
    pending = {};
  }
  /** fetch() for the sandbox in this browser: the request goes to the worker, the answer comes back as a Response. */
  function inBrowser(url, init) {
    if (!worker) {
      worker = new Worker(data.worker);
      worker.onmessage = function (event) {
        var reply = event.data;
        var waiting = pending[reply.id];
        delete pending[reply.id];
        if (!waiting) return;
        if (reply.error) return waiting.reject(new Error(reply.error));
        var empty = reply.status === 204 || reply.status === 205 || reply.status === 304;
        waiting.resolve(new Response(empty ? null : reply.body, { status: reply.status, statusText: reply.statusText, headers: reply.headers }));
      };
      worker.onerror = function (event) {
        failAll('the in-browser sandbox failed: ' + (event.message || 'unknown error'));
        worker = null;
      };
    }
    return new Promise(function (resolve, reject) {
      var id = nextId++;
      pending[id] = { resolve: resolve, reject: reject };
      worker.postMessage({ id: id, method: init.method, url: url, headers: init.headers, body: init.body === undefined ? null : init.body });
    });
  }

  function send(operation, form, output) {
    resolveTarget().then(function (where) {
      if (where === 'browser' && target === 'auto' && chosenByReader) {
        resolved = null;
        unreachable(operation, form, output, 'it did not answer ' + origin + '/__health within ' + PROBE_MS / 1000 + ' s');
        return;
      }
      sendTo(where, operation, form, output);
    });
  }

  /** The chosen sandbox server did not answer: say so, and let the reader retry or use this browser. */
  function unreachable(operation, form, output, reason) {
    output.hidden = false;
    output.textContent = '';
    output.setAttribute('data-state', 'unreachable');
    output.setAttribute('data-target', 'server');
    var notice = element('div', { class: 'try-notice', role: 'alert' });
    notice.appendChild(element('p', {}, 'No sandbox answered at ' + origin + ' (' + reason + '). Nothing was sent anywhere else. Check the address in the sandbox bar above (the operator of a hosted sandbox gives it) and that the sandbox is running.'));
    var retry = element('button', { type: 'button', 'data-action': 'retry' }, 'Retry ' + origin);
    retry.addEventListener('click', function () {
      send(operation, form, output);
    });
    var here = element('button', { type: 'button', 'data-action': 'in-browser' }, 'Use the sandbox in this browser instead');
    here.addEventListener('click', function () {
      target = 'browser';
      bar.elements.target.value = 'browser';
      store(TARGET_KEY, 'browser');
      if (targetNote) targetNote.textContent = 'Answering in this browser, as you chose.';
      sendTo('browser', operation, form, output);
    });
    notice.appendChild(retry);
    notice.appendChild(here);
    output.appendChild(notice);
  }

  function sendTo(where, operation, form, output) {
    var here = where === 'browser';
    var path = operation.path.replace(/\{(\w+)\}/g, function (_, name) {
      return encodeURIComponent(form.elements['path.' + name].value);
    });
    var query = form.elements.query.value.trim();
    var url = (here ? '' : origin) + data.base + path + (query ? (query.charAt(0) === '?' ? query : '?' + query) : '');
    var headers = { Authorization: 'Bearer ' + (bar.elements.token.value.trim() || token) };
    if (form.elements.accept.value.trim()) headers.Accept = form.elements.accept.value.trim();
    var init = { method: operation.method, headers: headers };
    if (form.elements.body) {
      headers['Content-Type'] = form.elements.contentType.value.trim();
      init.body = form.elements.body.value;
    }
    output.hidden = false;
    output.setAttribute('data-state', 'sending');
    output.setAttribute('data-target', where);
    output.textContent = operation.method + ' ' + url + (here ? ' (in this browser; the first call starts the sandbox)' : '') + ' …';
    var started = performance.now();
    (here ? inBrowser(url, init) : fetch(url, init))
      .then(function (response) {
        return response.text().then(function (text) {
          var lines = [];
          response.headers.forEach(function (value, name) {
            lines.push(name + ': ' + value);
          });
          var shown = text;
          try {
            shown = JSON.stringify(JSON.parse(text), null, 2);
          } catch (error) {
            // not JSON: shown as it came
          }
          output.textContent = '';
          output.setAttribute('data-state', 'done');
          output.setAttribute('data-status', String(response.status));
          output.appendChild(element('p', { class: 'try-status' }, response.status + ' ' + response.statusText + ' · ' + Math.round(performance.now() - started) + ' ms' + (here ? ' · in this browser' : '')));
          output.appendChild(element('pre', { class: 'try-headers' }, lines.sort().join('\n')));
          output.appendChild(element('pre', { class: 'try-body' }, shown || '(no body)'));
        });
      })
      .catch(function (error) {
        if (here) {
          output.setAttribute('data-state', 'failed');
          output.textContent = 'The sandbox in this browser did not answer (' + error.message + ').';
          return;
        }
        unreachable(operation, form, output, error.message);
      });
  }

  function consoleFor(id, operation) {
    var box = element('details', { class: 'try-it', 'data-try': id });
    box.appendChild(element('summary', {}, 'Try it in the sandbox'));
    var form = element('form', { class: 'try-form' });
    for (var name in operation.pathParams) field(form, name + ' (path)', 'path.' + name, operation.pathParams[name]);
    field(form, 'Query', 'query', '');
    field(form, 'Accept', 'accept', operation.accept || '');
    if (operation.contentType) {
      field(form, 'Content-Type', 'contentType', operation.contentType);
      field(form, 'Body', 'body', operation.body === null ? '' : JSON.stringify(operation.body, null, 2), true);
    }
    var button = element('button', { type: 'submit' }, 'Send ' + operation.method);
    form.appendChild(button);
    var output = element('div', { class: 'try-output', 'aria-live': 'polite' });
    output.hidden = true;
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      send(operation, form, output);
    });
    box.appendChild(form);
    box.appendChild(output);
    return box;
  }

  function attach() {
    for (var id in data.operations) {
      var section = document.getElementById('operation/' + id);
      if (!section || section.querySelector('[data-try]')) continue;
      var heading = section.querySelector('h2');
      if (!heading) continue;
      heading.parentNode.insertBefore(consoleFor(id, data.operations[id]), heading.nextSibling);
    }
    html.setAttribute('data-try-it', 'ready');
  }

  fetch(root.getAttribute('data-console'))
    .then(function (response) {
      if (!response.ok) throw new Error('HTTP ' + response.status);
      return response.json();
    })
    .then(function (json) {
      data = json;
      if (html.getAttribute('data-redoc') === 'ready') attach();
      else document.addEventListener('redoc-ready', attach, { once: true });
    })
    .catch(function (error) {
      console.error('The "Try it" console could not load its requests: ' + error.message);
    });
})();

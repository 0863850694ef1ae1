// Site search: the index (search-index.json, written by the build) is loaded on first use.
// It finds activity names (operationIds), full error codes, rule ids and field names. An
// exact activity name or code comes first, then names that start with the query, then the
// rest; operations rank above the pages and fields that mention the same name.
(function () {
  'use strict';
  var form = document.querySelector('.site-search');
  if (!form) return;
  var input = form.querySelector('input');
  var list = form.querySelector('.search-results');
  var index = null;
  var loading = null;

  function load() {
    if (!loading) {
      loading = fetch(form.getAttribute('data-index'))
        .then(function (response) {
          if (!response.ok) throw new Error('HTTP ' + response.status);
          return response.json();
        })
        .then(function (json) {
          index = json.entries.map(function (entry) {
            entry.key = entry.name.toLowerCase();
            entry.words = (entry.name + ' ' + (entry.text || '')).toLowerCase();
            return entry;
          });
        });
    }
    return loading;
  }

  var KIND_RANK = { operation: 0, 'error code': 1, rule: 2, page: 3, field: 4 };
  function score(entry, query) {
    var kind = KIND_RANK[entry.kind] === undefined ? 5 : KIND_RANK[entry.kind];
    if (entry.key === query) return kind;
    if (entry.key.indexOf(query) === 0) return 10 + kind;
    if (entry.key.indexOf(query) >= 0) return 20 + kind;
    if (entry.words.indexOf(query) >= 0) return 30 + kind;
    return -1;
  }

  function show() {
    var query = input.value.trim().toLowerCase();
    list.textContent = '';
    if (!query || !index) {
      list.hidden = true;
      return;
    }
    var hits = [];
    for (var i = 0; i < index.length; i++) {
      var s = score(index[i], query);
      if (s >= 0) hits.push({ entry: index[i], score: s });
    }
    hits.sort(function (a, b) {
      return a.score - b.score || a.entry.name.length - b.entry.name.length || (a.entry.name < b.entry.name ? -1 : 1);
    });
    hits.slice(0, 12).forEach(function (hit) {
      var item = document.createElement('li');
      var link = document.createElement('a');
      link.href = hit.entry.href;
      var name = document.createElement('strong');
      name.textContent = hit.entry.name;
      var kind = document.createElement('span');
      kind.className = 'search-kind';
      kind.textContent = hit.entry.kind + (hit.entry.where ? ' · ' + hit.entry.where : '');
      link.appendChild(name);
      link.appendChild(kind);
      item.appendChild(link);
      list.appendChild(item);
    });
    if (hits.length === 0) {
      var none = document.createElement('li');
      none.className = 'search-none';
      none.textContent = 'Nothing found for “' + input.value.trim() + '”.';
      list.appendChild(none);
    }
    list.hidden = false;
  }

  input.addEventListener('focus', load);
  input.addEventListener('input', function () {
    load().then(show, function (error) {
      console.error('Search could not load its index: ' + error.message);
    });
  });
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    load().then(function () {
      show();
      var first = list.querySelector('a');
      if (first) window.location.href = first.href;
    });
  });
  document.addEventListener('click', function (event) {
    if (!form.contains(event.target)) list.hidden = true;
  });
  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape') list.hidden = true;
  });
})();

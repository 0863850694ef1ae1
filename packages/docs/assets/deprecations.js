// The deprecation calendar, as of the reader's today: days left and status per version, and
// the rows in the order a reader needs them (upcoming obsolete dates first, soonest first;
// then versions served until further notice; then versions no longer served, latest first).
(function () {
  'use strict';
  var table = document.getElementById('calendar');
  if (!table) return;
  var now = new Date();
  var today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  var DAY = 86400000;
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  var upcoming = [];
  var current = [];
  var passed = [];
  rows.forEach(function (row) {
    var date = row.getAttribute('data-obsolete');
    var days = row.querySelector('[data-days-left]');
    var status = row.querySelector('[data-status]');
    if (!date) {
      current.push(row);
      row.className = 'status-current';
      status.textContent = 'current';
      return;
    }
    var parts = date.split('-');
    var left = Math.round((Date.UTC(+parts[0], +parts[1] - 1, +parts[2]) - today) / DAY);
    row.setAttribute('data-days', String(left));
    if (left > 0) {
      upcoming.push(row);
      row.className = 'status-deprecated';
      status.textContent = 'deprecated';
      days.textContent = String(left);
    } else {
      passed.push(row);
      row.className = 'status-obsolete';
      status.textContent = 'obsolete';
      days.textContent = left === 0 ? 'from today' : 'passed ' + -left + ' days ago';
    }
  });
  var byDays = function (a, b) { return +a.getAttribute('data-days') - +b.getAttribute('data-days'); };
  upcoming.sort(byDays);
  passed.sort(byDays).reverse();
  var body = table.tBodies[0];
  upcoming.concat(current, passed).forEach(function (row) { body.appendChild(row); });
  var summary = document.getElementById('calendar-summary');
  if (summary) {
    summary.textContent = upcoming.length
      ? upcoming.length + ' resource version' + (upcoming.length === 1 ? ' is' : 's are') + ' scheduled to stop being served. The next date is ' +
        upcoming[0].getAttribute('data-obsolete') + ', in ' + upcoming[0].getAttribute('data-days') + ' days.'
      : 'No resource version is scheduled to stop being served' + (passed.length ? ' from now on' : '') + ': the versions listed as current are served until further notice.';
  }
})();

import { renderPage } from './layout.mjs';

/**
 * The page the server answers a missing path with. It can be served at any depth, so its
 * links are root-relative.
 */
export function notFoundPage() {
  return renderPage({
    id: 'not-found',
    title: 'Page not found',
    root: '/',
    body: `<h1>Page not found</h1>
      <p class="lead">There is no page at this address.</p>
      <p>Start from the <a href="/index.html">guide</a>, or open the <a href="/payroll.html">Payroll API reference</a> or the <a href="/journal.html">Journal API reference</a>.</p>`,
  });
}

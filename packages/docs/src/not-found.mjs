import { renderPage } from './layout.mjs';

/**
 * The page the server answers a missing path with. Its links are relative to the site root
 * like every page's; the server (src/server.mjs) prefixes them with the way back to the root
 * from the depth it answers at, so the page works under any sub-path.
 */
export function notFoundPage() {
  return renderPage({
    id: 'not-found',
    title: 'Page not found',
    body: `<h1>Page not found</h1>
      <p class="lead">There is no page at this address.</p>
      <p>Start from the <a href="index.html">guide</a>, or open the <a href="payroll.html">Payroll API reference</a> or the <a href="journal.html">Journal API reference</a>.</p>`,
  });
}

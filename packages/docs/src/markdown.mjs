// Markdown from the repository (changelogs, changesets) as safe, self-contained HTML: raw
// HTML is shown as text, images become plain links (an image would be a request to another
// site), and headings are shifted to sit under the page's own headings.
import { Marked } from 'marked';
import { escapeHtml } from './layout.mjs';

/** Renders markdown; headings are moved down by `shift` levels (at most h6). */
export function renderMarkdown(text, { shift = 0 } = {}) {
  const marked = new Marked({
    gfm: true,
    walkTokens(token) {
      if (token.type === 'heading') token.depth = Math.min(6, token.depth + shift);
    },
    renderer: {
      html(token) {
        return escapeHtml(token.text);
      },
      image(token) {
        return `<a href="${escapeHtml(token.href)}">${escapeHtml(token.text || token.href)}</a>`;
      },
    },
  });
  return marked.parse(String(text));
}

/** One markdown sentence as inline HTML (without its paragraph). */
export function renderInline(text) {
  return renderMarkdown(text).replace(/^<p>|<\/p>\s*$/g, '');
}

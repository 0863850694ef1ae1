// Views of a stored doc that depend on the doc alone. A list makes each such view once per
// stored doc (engine/list-items.ts): the docs a list reads are the store's own, frozen, and a
// write replaces a doc instead of changing it, so the view holds for as long as the doc does.
import type { Doc } from '../store/types.js';

export type DocView = (doc: Doc) => unknown;

const pureViews = new WeakSet<DocView>();

/** Marks `view` as a function of the stored doc alone: it reads no clock, no other doc and nothing of the request. */
export function pureView<V extends DocView>(view: V): V {
  pureViews.add(view);
  return view;
}

export const isPureView = (view: DocView): boolean => pureViews.has(view);

/** One pure view per key (a view that also reads, say, the sandbox date), made once per key; the last `keep` keys are kept. */
export function pureViewsBy<K>(make: (key: K) => DocView, keep = 32): (key: K) => DocView {
  const made = new Map<K, DocView>();
  return (key) => {
    let view = made.get(key);
    if (!view) {
      view = pureView(make(key));
      if (made.size >= keep) made.delete(made.keys().next().value as K);
      made.set(key, view);
    }
    return view;
  };
}

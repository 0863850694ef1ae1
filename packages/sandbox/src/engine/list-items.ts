// A list's items, each made and written once per stored doc. The docs a list reads are the
// store's own, frozen, and a write replaces a doc instead of changing it: what a pure view
// (domain/views.ts) makes of one, and the JSON text of that item at a version, hold for as long
// as the doc does, for every token and sandbox that reads it. Items not made so (a view that
// reads the request, a copied doc) are written anew each time, the same way.
import type { Doc } from '../store/types.js';
import { freezeJson } from '../store/clone.js';
import { isPureView, type DocView } from '../domain/views.js';
import { embeddedItemProjection, projectToSchema } from '../http/schema-walk.js';
import { answerAt, type Window } from './version-window.js';

type Schema = Record<string, unknown>;
type ItemText = (item: unknown) => string;

const views = new WeakMap<Doc, WeakMap<DocView, unknown>>();
/** The items itemOf made once (frozen, shared): only their texts are kept. */
const madeOnce = new WeakSet<object>();

/** `view(doc)`, made once per frozen doc and pure view, and frozen itself (items are shared). */
export function itemOf(doc: Doc, view: DocView): unknown {
  if (!isPureView(view) || !Object.isFrozen(doc)) return view(doc);
  let made = views.get(doc);
  if (!made) views.set(doc, (made = new WeakMap()));
  if (made.has(view)) return made.get(view);
  const item = freezeJson(view(doc));
  made.set(view, item);
  if (item !== null && typeof item === 'object') madeOnce.add(item);
  return item;
}

const writers = new WeakMap<Schema, Map<string, ItemText>>();
const texts = new WeakMap<object, WeakMap<ItemText, string>>();
const NO_SCHEMA: Schema = {};

/** How one item of the list is written: taken to the version answered, projected as the envelope's projection would, as JSON. */
function itemWriter(schema: Schema | undefined, at: { window: Window; version: string } | undefined): ItemText | undefined {
  const project = embeddedItemProjection(schema);
  if (!project) return undefined;
  const key = at ? `${at.window.resource} ${at.window.code} ${at.version}` : '';
  let perVersion = writers.get(schema ?? NO_SCHEMA);
  if (!perVersion) writers.set(schema ?? NO_SCHEMA, (perVersion = new Map()));
  let write = perVersion.get(key);
  if (!write) {
    // An item is translated as it would be inside its envelope (the changes reach the envelope's entities).
    const translated = at ? (item: unknown) => (answerAt(at.window, at.version, { _embedded: [item] })._embedded[0] as unknown) : (item: unknown) => item;
    // As JSON.stringify writes an array's item: what has no JSON text is null.
    write = (item) => JSON.stringify(project(translated(item))) ?? 'null';
    perVersion.set(key, write);
  }
  return write;
}

function textOf(item: unknown, write: ItemText): string {
  if (item === null || typeof item !== 'object' || !madeOnce.has(item)) return write(item);
  let written = texts.get(item);
  if (!written) texts.set(item, (written = new WeakMap()));
  let text = written.get(write);
  if (text === undefined) written.set(write, (text = write(item)));
  return text;
}

const EMPTY_LIST_END = '"_embedded":[]}';

/**
 * The JSON text of a list envelope as `JSON.stringify(projectToSchema(answerAt(envelope)))` writes
 * it, with each item's text made once per frozen item; undefined when the envelope is not one
 * whose items can be written apart (the caller writes it whole).
 */
export function listAnswerText(envelope: Record<string, unknown>, schema: Schema | undefined, at: { window: Window; version: string } | undefined): string | undefined {
  const items = envelope._embedded;
  if (!Array.isArray(items)) return undefined;
  const write = itemWriter(schema, at);
  if (!write) return undefined;
  // The version changes reach only the envelope's entities: the shell, without them, is written as it is.
  const shellText = JSON.stringify(projectToSchema({ ...envelope, _embedded: [] }, schema));
  if (!shellText.endsWith(EMPTY_LIST_END)) return undefined;
  const parts = new Array<string>(items.length);
  for (let i = 0; i < items.length; i++) parts[i] = textOf(items[i], write);
  return `${shellText.slice(0, -2)}${parts.join(',')}]}`;
}

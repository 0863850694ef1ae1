// A list's items made and written once per stored doc: the text is the one the whole envelope's
// projection and translation would give, and nothing made once outlives the doc it was made of.
import { describe, expect, it } from 'vitest';
import { recordFromRegistry, versionChanges } from '@payroll-api/version-changes';
import { itemOf, listAnswerText } from '../src/engine/list-items.js';
import { answerAt, type Window } from '../src/engine/version-window.js';
import { projectToSchema } from '../src/http/schema-walk.js';
import { pureView, pureViewsBy } from '../src/domain/views.js';
import { freezeJson } from '../src/store/clone.js';
import type { Doc } from '../src/store/types.js';
import { createSandbox } from '../src/index.js';
import { call, EMPLOYEES, ORIGIN } from './support.js';

// person: 2020-01-01 → 2021-01-01, renaming a field and changing a value's form.
const chain = versionChanges({
  openapi: '3.1.0',
  'x-version-changes': recordFromRegistry({
    resources: {
      person: {
        versions: [
          { version: '2021-01-01', changes: [{ rename: 'details.placeOfBirth', to: 'birthPlace' }, { revalue: 'gender', values: { M: 'male', F: 'female' } }] },
          { version: '2020-01-01' },
        ],
      },
    },
  }),
});
const window: Window = { chain, resource: 'person', code: '2021-01-01' };

const item = { type: 'object', properties: { id: {}, gender: {}, details: { type: 'object', properties: { birthPlace: {}, placeOfBirth: {} } } } };
const envelope = { type: 'object', properties: { totalSize: {}, messages: {}, _embedded: { type: 'array', items: item } } };

/** What the answer used to be: the whole envelope translated, projected and written at once. */
const whole = (value: Record<string, unknown>, schema: Record<string, unknown> | undefined, at?: { window: Window; version: string }) => JSON.stringify(projectToSchema(at ? answerAt(at.window, at.version, value) : value, schema));

const stored = (id: string, gender: string): Doc => freezeJson({ id, gender, employerId: 'e1', details: { birthPlace: `Goes ${id}`, internal: true } });

describe('listAnswerText', () => {
  const view = pureView((doc: Doc) => ({ ...doc, shown: true }));
  const items = [itemOf(stored('a', 'male'), view), itemOf(stored('b', 'female'), view), { id: 'c', gender: 'male', details: null }, null, 7];
  const list = { totalSize: 5, unnamed: 'dropped', messages: [{ text: '"_embedded":[]}' }], _embedded: items };

  it('writes what the whole envelope written at once gives, at the stored version and at an older one', () => {
    for (const at of [undefined, { window, version: '2021-01-01' }, { window, version: '2020-01-01' }]) {
      const text = listAnswerText(list, envelope, at);
      expect(text).toBe(whole(list, envelope, at));
    }
    expect(JSON.parse(listAnswerText(list, envelope, { window, version: '2020-01-01' })!)._embedded[0]).toEqual({ id: 'a', gender: 'M', details: { placeOfBirth: 'Goes a' } });
    // The same items again: the texts kept give the same answer.
    expect(listAnswerText(list, envelope, { window, version: '2020-01-01' })).toBe(whole(list, envelope, { window, version: '2020-01-01' }));
  });

  it('writes an empty list, a list without a schema, and leaves to the caller an envelope whose schema drops the items', () => {
    expect(listAnswerText({ ...list, _embedded: [] }, envelope, undefined)).toBe(whole({ ...list, _embedded: [] }, envelope));
    expect(listAnswerText(list, undefined, undefined)).toBe(JSON.stringify(list));
    expect(listAnswerText(list, { type: 'object', properties: { totalSize: {} } }, undefined)).toBeUndefined();
    expect(listAnswerText({ totalSize: 0 }, envelope, undefined)).toBeUndefined();
  });

  it('writes an item kept once only once, reading none of its fields again', () => {
    let reads = 0;
    const counted = pureView((doc: Doc) => Object.defineProperty({ id: doc.id }, 'gender', { enumerable: true, get: () => (reads++, doc.gender) }));
    const page = { totalSize: 1, _embedded: [itemOf(stored('d', 'male'), counted)] };
    const first = listAnswerText(page, envelope, { window, version: '2020-01-01' });
    const afterFirst = reads;
    expect(afterFirst).toBeGreaterThan(0);
    expect(listAnswerText({ ...page, _embedded: [itemOf(stored('d', 'male'), counted)] }, envelope, { window, version: '2020-01-01' })).not.toBeUndefined();
    // A new doc (a write replaces the doc) is made and written anew; the doc kept is not.
    const doc = stored('e', 'female');
    listAnswerText({ totalSize: 1, _embedded: [itemOf(doc, counted)] }, envelope, undefined);
    const beforeAgain = reads;
    expect(listAnswerText({ totalSize: 1, _embedded: [itemOf(doc, counted)] }, envelope, undefined)).toBe(whole({ totalSize: 1, _embedded: [{ id: 'e', gender: 'female' }] }, envelope));
    expect(reads).toBe(beforeAgain);
    expect(first).toBe(whole({ totalSize: 1, _embedded: [{ id: 'd', gender: 'male' }] }, envelope, { window, version: '2020-01-01' }));
  });
});

describe('itemOf', () => {
  it('makes a pure view once per frozen doc, frozen; anything else every time', () => {
    let made = 0;
    const view = pureView((doc: Doc) => (made++, { id: doc.id }));
    const doc = stored('a', 'male');
    const first = itemOf(doc, view);
    expect(itemOf(doc, view)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(made).toBe(1);
    // A doc that is not the store's frozen one, and a view not said to be pure, are made anew.
    itemOf({ id: 'copy' }, view);
    itemOf({ id: 'copy' }, view);
    expect(made).toBe(3);
    const impure = (d: Doc) => (made++, { id: d.id });
    itemOf(doc, impure);
    itemOf(doc, impure);
    expect(made).toBe(5);
  });

  it('keeps one view per key of a keyed view, and the same function for the same key', () => {
    const on = pureViewsBy((day: string) => (doc: Doc) => ({ id: doc.id, day }), 2);
    expect(on('2026-01-01')).toBe(on('2026-01-01'));
    const doc = stored('a', 'male');
    expect(itemOf(doc, on('2026-01-01'))).toEqual({ id: 'a', day: '2026-01-01' });
    expect(itemOf(doc, on('2026-01-02'))).toEqual({ id: 'a', day: '2026-01-02' });
    const first = on('2026-01-01');
    on('2026-01-03');
    on('2026-01-04');
    expect(on('2026-01-01')).not.toBe(first);
  });
});

describe('through the sandbox', () => {
  it('answers a list after a write with the written doc, to the writer only', async () => {
    const sandbox = await createSandbox();
    try {
      const names = async (token: string) => ((await (await call(sandbox, token, `${EMPLOYEES}?orderBy=employeeNumber`)).json())._embedded as Array<{ id: string; personalDetails: { lastName: string } }>);
      const before = await names('writer');
      expect(await names('writer')).toEqual(before);
      const target = before[0]!;
      const detail = await (await call(sandbox, 'writer', `${ORIGIN}/v2/v2/providers/employers/employees/${target.id}`)).json();
      const body = { ...detail.content, personalDetails: { ...detail.content.personalDetails, lastName: 'Written' } };
      const put = await call(sandbox, 'writer', `${ORIGIN}/v2/v2/providers/employers/employees/${target.id}`, { method: 'PUT', body: JSON.stringify(body) });
      expect(put.status).toBe(200);
      expect((await names('writer')).find((e) => e.id === target.id)!.personalDetails.lastName).toBe('Written');
      expect((await names('reader')).find((e) => e.id === target.id)!.personalDetails.lastName).toBe(target.personalDetails.lastName);
    } finally {
      await sandbox.close();
    }
  });
});

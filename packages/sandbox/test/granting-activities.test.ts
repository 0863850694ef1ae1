// An activity the authorization model names nowhere (one described after the model was made) is
// granted as the named activities of its tag and kind; with a tag of its own, as the nearest.
import { describe, expect, it } from 'vitest';
import { grantingActivities, type AuthorizationModel } from '../src/authorization/model.js';

const op = (operationId: string, method: string, path: string, tag?: string) => ({ operationId, method, path, tag });
const operations = [
  op('GetThings', 'get', '/a/{id}/things', 'Things'),
  op('PostThing', 'post', '/a/{id}/things', 'Things'),
  op('GetOthers', 'get', '/b/others', 'Others'),
  op('GetThing', 'get', '/a/things/{thingId}', 'Things'),
  op('GetWidgets', 'get', '/a/{id}/widgets', 'Widgets'),
  op('PatchWidget', 'patch', '/a/widgets/{widgetId}', 'Widgets'),
];
const doc = { paths: {} as Record<string, Record<string, { tags?: string[] }>> };
for (const o of operations) (doc.paths[o.path] ??= {})[o.method] = o.tag ? { tags: [o.tag] } : {};
const api = { doc, operations };
const model = {
  clients: { c: { name: 'c', secret: null, activities: ['GetThings'] } },
  rights: { read: { name: 'r', activities: ['GetThings', 'GetOthers'] }, write: { name: 'w', activities: ['PostThing'] } },
  roles: {},
  users: {},
  modules: {},
  providers: {},
} as unknown as AuthorizationModel;
const of = (id: string) => grantingActivities(model, { ...operations.find((o) => o.operationId === id)!, api });

describe('grantingActivities', () => {
  it('is the activity itself where the model names it', () => {
    expect(of('GetOthers')).toEqual(['GetOthers']);
  });

  it('adds the named activities of the same tag and kind', () => {
    expect(of('GetThing')).toEqual(['GetThing', 'GetThings']);
  });

  it('with a tag no named activity has, takes those of its kind nearest in the path tree', () => {
    expect(of('GetWidgets')).toEqual(['GetWidgets', 'GetThings']);
    expect(of('PatchWidget')).toEqual(['PatchWidget', 'PostThing']);
  });
});

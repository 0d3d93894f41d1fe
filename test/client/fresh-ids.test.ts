/** What the preview shows is what the send sends: a document's fresh meta.id and created_at are pinned until renewed. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FreshIds } from '../../client/fresh-ids';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('a document keeps its values until they are renewed; each document has its own', () => {
  const ids = new FreshIds();
  const first = ids.for('file:///a.babel.json');
  const id = first.uuid();
  const now = first.now();
  assert.match(id, UUID);
  assert.ok(Math.abs(now - Date.now()) < 60_000, `now is ${now}`);
  // Asked again (the preview, then the send): the same values.
  const again = ids.for('file:///a.babel.json');
  assert.equal(again.uuid(), id);
  assert.equal(again.now(), now);
  assert.notEqual(ids.for('file:///b.babel.json').uuid(), id);
  ids.renew('file:///a.babel.json');
  assert.notEqual(ids.for('file:///a.babel.json').uuid(), id, 'a sent document gets a new id for its next send');
  assert.equal(ids.for('file:///b.babel.json').uuid(), ids.for('file:///b.babel.json').uuid(), 'renewing one document leaves the others');
});

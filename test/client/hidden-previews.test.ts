/** When a preview VS Code keeps off screen is rendered again (client/hidden-previews.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HiddenPreviews } from '../../client/hidden-previews';

const A = 'file:///w/a.babel.json';
const B = 'file:///w/b.babel.json';

test('a kept preview whose envelope changed while hidden is rendered again when the command runs, and not again when it is shown', () => {
  const hidden = new HiddenPreviews();
  hidden.changedWhileHidden(A);
  assert.equal(hidden.opening(A, true), 'render-again');
  assert.equal(hidden.shown(A), false, 'the command rendered it already: showing it renders nothing more');
  assert.equal(hidden.opening(A, true), 'show-as-kept', 'up to date since');
});

test('a kept preview of an envelope that did not change is shown as it is; one not kept is rendered early', () => {
  const hidden = new HiddenPreviews();
  assert.equal(hidden.opening(A, true), 'show-as-kept');
  assert.equal(hidden.opening(A, false), 'render-early');
  hidden.changedWhileHidden(B);
  assert.equal(hidden.opening(A, true), 'show-as-kept', "another envelope's change is not this one's");
  assert.equal(hidden.opening(B, true), 'render-again');
});

test('a preview brought back by VS Code (a tab, not the command) is rendered again once', () => {
  const hidden = new HiddenPreviews();
  hidden.changedWhileHidden(A);
  assert.equal(hidden.shown(A), true);
  assert.equal(hidden.shown(A), false);
  assert.equal(hidden.opening(A, true), 'show-as-kept');
});

test('an out-of-date preview VS Code lets go of is rendered once, early, when it opens again', () => {
  const hidden = new HiddenPreviews();
  hidden.changedWhileHidden(A);
  hidden.settled(A);
  assert.equal(hidden.opening(A, false), 'render-early');
  assert.equal(hidden.shown(A), false, 'the editor shown after the early render does not render a second time');
});

test('a render that brought a hidden preview up to date (a pending refresh, new fresh ids) clears the mark', () => {
  const hidden = new HiddenPreviews();
  hidden.changedWhileHidden(A);
  hidden.changedWhileHidden(B);
  hidden.settled(A);
  assert.equal(hidden.opening(A, true), 'show-as-kept');
  assert.equal(hidden.shown(A), false);
  assert.equal(hidden.opening(B, true), 'render-again', 'only the rendered one');
});

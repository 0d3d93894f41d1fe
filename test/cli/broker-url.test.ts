/**
 * An empty broker URL (`--broker ''`, or BABELQ_BROKER_URL set to nothing, as a CI variable that
 * held nothing leaves it) is named as empty by every broker verb, with what to do instead, before
 * any broker is asked; no broker is read from or sent to in its place.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertCliBuilt, babelq, envelope, makeTree, removeTree } from './helpers';

describe('an empty broker URL', () => {
  let dir: string;
  before(() => {
    assertCliBuilt();
    dir = makeTree({ 'order.babel.json': envelope({ lang: 'node' }) });
  });
  after(() => removeTree(dir));

  const VERBS = [
    ['send', 'order.babel.json'],
    ['peek', '--queue', 'orders'],
    ['dlq', 'list', '--queue', 'orders'],
  ];
  for (const verb of VERBS) {
    test(`--broker '' is refused by babelq ${verb[0]}`, () => {
      for (const empty of ['', '  ']) {
        const result = babelq([...verb, '--broker', empty, '--timeout', '1'], dir, { BABELQ_BROKER_URL: 'redis://127.0.0.1:1' });
        assert.equal(result.status, 2);
        assert.equal(result.stdout, '');
        assert.equal(result.stderr, `babelq: --broker needs a broker URL, not an empty value (leave it out for BABELQ_BROKER_URL, else redis://127.0.0.1:6379)\nRun 'babelq ${verb[0]} --help' for usage.\n`);
      }
    });

    test(`BABELQ_BROKER_URL set to nothing is refused by babelq ${verb[0]}, not read as the default`, () => {
      const result = babelq([...verb, '--timeout', '1'], dir, { BABELQ_BROKER_URL: '' });
      assert.equal(result.status, 2);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /^babelq: BABELQ_BROKER_URL is set but empty: set it to a broker URL, or unset it for the default, redis:\/\/127\.0\.0\.1:6379\n/);
    });
  }

  test('preview --sdk all says that send refuses an empty BABELQ_BROKER_URL, not that the default broker is the target', () => {
    const result = babelq(['preview', 'order.babel.json', '--sdk', 'all'], dir, { BABELQ_BROKER_URL: '' });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /\nBroker: none: BABELQ_BROKER_URL is set but empty, which send refuses\n/);
  });
});

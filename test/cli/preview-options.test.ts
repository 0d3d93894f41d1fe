/**
 * `babelq preview`'s options that apply in one of its two modes only: `--hex` dumps one encoder's
 * bytes (the comparison of every encoder, `--sdk all`, has its hex view always), and `--prefix`
 * is Laravel's connection prefix, shown in the Redis commands of the comparison with the laravel
 * layout only (one encoder's bytes do not depend on it). Given where it does nothing, each is
 * refused (exit 2) with where it applies, not passed over.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertCliBuilt, babelq, envelope, makeTree, removeTree } from './helpers';

describe('preview: options of one mode', () => {
  let dir: string;
  before(() => {
    assertCliBuilt();
    dir = makeTree({ 'order.babel.json': envelope({ lang: 'node' }) });
  });
  after(() => removeTree(dir));

  test('--hex with --sdk all is refused: the comparison has its hex view, --hex is for one encoder', () => {
    const result = babelq(['preview', 'order.babel.json', '--sdk', 'all', '--hex'], dir);
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^babelq: --hex dumps one encoder's bytes \(--sdk node, php, …, or auto\); --sdk all prints the comparison, with its own hex view of the body\nRun 'babelq preview --help' for usage\.\n$/);
  });

  test('--prefix with one encoder is refused: the bytes do not depend on it', () => {
    for (const args of [['--prefix', 'app_'], ['--sdk', 'php', '--layout', 'laravel', '--prefix', 'app_']]) {
      const result = babelq(['preview', 'order.babel.json', ...args], dir);
      assert.equal(result.status, 2, args.join(' '));
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /^babelq: --prefix is shown in the Redis commands of --sdk all with --layout laravel; one encoder's bytes do not depend on it\n/, args.join(' '));
    }
  });

  test('--prefix with --sdk all and the babelqueue layout is refused: that layout has no prefix', () => {
    const result = babelq(['preview', 'order.babel.json', '--sdk', 'all', '--prefix', 'app_'], dir);
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^babelq: --prefix is Laravel's connection prefix: it applies with --layout laravel only \(the babelqueue layout pushes to the bare queue\)\n/);
  });

  test('--prefix with --sdk all and --layout laravel is shown in the Redis commands; --hex with one encoder dumps the bytes', () => {
    const all = babelq(['preview', 'order.babel.json', '--sdk', 'all', '--layout', 'laravel', '--prefix', 'app_'], dir);
    assert.equal(all.status, 0, all.stderr);
    assert.match(all.stdout, /Redis \(laravel layout\): MULTI; RPUSH app_queues:orders <body>; RPUSH app_queues:orders:notify 1; EXEC/);
    const hex = babelq(['preview', 'order.babel.json', '--hex'], dir);
    assert.equal(hex.status, 0, hex.stderr);
    assert.match(hex.stdout, /^00000000 {2}7b 22 6a 6f 62 22/);
  });
});

describe('send, peek and dlq: --prefix with the babelqueue layout', () => {
  let dir: string;
  before(() => {
    assertCliBuilt();
    dir = makeTree({ 'order.babel.json': envelope({ lang: 'node' }) });
  });
  after(() => removeTree(dir));

  for (const args of [
    ['send', 'order.babel.json', '--prefix', 'app_'],
    ['peek', '--queue', 'orders', '--prefix', 'app_'],
    ['dlq', 'list', '--queue', 'orders', '--layout', 'babelqueue', '--prefix', 'app_'],
  ]) {
    test(`is refused before any broker is asked: babelq ${args.join(' ')}`, () => {
      // A broker that would not answer: the refusal comes first, so nothing waits for it.
      const result = babelq([...args, '--broker', 'redis://127.0.0.1:1', '--timeout', '1'], dir);
      assert.equal(result.status, 2);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /^babelq: --prefix is Laravel's connection prefix: it applies with --layout laravel only/);
    });
  }
});

describe('send, peek and dlq: --layout or --prefix with a RabbitMQ broker', () => {
  let dir: string;
  before(() => {
    assertCliBuilt();
    dir = makeTree({ 'order.babel.json': envelope({ lang: 'node' }) });
  });
  after(() => removeTree(dir));

  for (const verb of [['send', 'order.babel.json'], ['peek', '--queue', 'orders'], ['dlq', 'list', '--queue', 'orders']]) {
    for (const given of [['--layout', 'laravel'], ['--layout', 'babelqueue'], ['--layout', 'laravel', '--prefix', 'app_']]) {
      test(`is refused before any broker is asked: babelq ${verb.join(' ')} ${given.join(' ')}`, () => {
        const result = babelq([...verb, ...given, '--broker', 'amqp://guest@127.0.0.1:1', '--timeout', '1'], dir);
        assert.equal(result.status, 2, result.stderr);
        assert.equal(result.stdout, '');
        const named = given.includes('--prefix') ? '--layout and --prefix are' : '--layout is';
        assert.match(result.stderr, new RegExp(`^babelq: ${named} for a Redis broker: on RabbitMQ \\(amqp://guest@127\\.0\\.0\\.1:1\\) a message goes to the queue by its name; leave ${given.includes('--prefix') ? 'them' : 'it'} out\\n`));
      });
    }
  }
});

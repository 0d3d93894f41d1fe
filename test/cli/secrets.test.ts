/**
 * No form of a password reaches any output of `babelq send` or `peek`, under any debug setting of
 * the client libraries or of Node: DEBUG=* and DEBUG=ioredis:* (ioredis logs every command it
 * writes, AUTH included), NODE_DEBUG for Node's own modules. The password is looked for as given,
 * URL-encoded and base64-encoded, in stdout and stderr, against the real Redis and RabbitMQ.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { GOOD_ENVELOPE } from '../support/envelopes';

const CLI = resolve(__dirname, '../../dist/cli.js');
const PASSWORD = 'Zq9$s3cr:t/pw+x';
const FORMS = [PASSWORD, encodeURIComponent(PASSWORD), Buffer.from(PASSWORD).toString('base64'), Buffer.from(`:${PASSWORD}`).toString('base64'), Buffer.from(`guest:${PASSWORD}`).toString('base64')];
const MODES: Record<string, string>[] = [{ DEBUG: '*' }, { DEBUG: 'ioredis:*' }, { DEBUG: 'amqp*,ioredis*' }, { NODE_DEBUG: 'net,tls,http,stream,child_process' }, { DEBUG: '*', NODE_DEBUG: 'net' }];

const scratch = mkdtempSync(join(tmpdir(), 'babelq-secrets-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
const fixture = join(scratch, 'a.babel.json');
writeFileSync(fixture, GOOD_ENVELOPE);

function run(args: string[], env: Record<string, string>): string {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, ...env } });
  return `${result.stdout}\n${result.stderr}`;
}

describe('no password in any output, under every debug setting', () => {
  const brokers = [
    `redis://:${encodeURIComponent(PASSWORD)}@127.0.0.1:6379`,
    `amqp://guest:${encodeURIComponent(PASSWORD)}@127.0.0.1:5672`,
  ];
  for (const broker of brokers) {
    for (const mode of MODES) {
      test(`${broker.split(':')[0]} with ${JSON.stringify(mode)}: send and peek print no form of it`, () => {
        const outputs = [
          run(['send', fixture, '--broker', broker, '--queue', 'babelq-secrets-test', '--yes'], mode),
          run(['peek', '--queue', 'babelq-secrets-test', '--broker', broker], mode),
          // The password from the environment instead of the URL.
          run(['send', fixture, '--broker', broker.replace(/:[^:@/]*@/, '@').replace('redis://@', 'redis://'), '--queue', 'babelq-secrets-test', '--yes'], { ...mode, BABELQ_BROKER_PASSWORD: PASSWORD }),
        ];
        for (const output of outputs) {
          // Each run reached the broker and logged in: it says the login failed (the servers have other passwords).
          assert.match(output, /Authentication failed|[Ll]ogin to .* refused/, output.slice(0, 400));
          for (const form of FORMS) assert.ok(!output.includes(form), `the password appeared as ${JSON.stringify(form)}:\n${output.slice(0, 2000)}`);
        }
      });
    }
  }
});

describe('a long broker URL in the wrong place, cut where a message quotes it, shows no part of its password', () => {
  // Cut at 60 characters (a value) or 200 (a path), inside the password: what is left has no '@'
  // by which a URL's password is found, so it is masked before it is cut.
  const secret = `Lk7${'w'.repeat(250)}`;
  for (const url of [`redis://:${secret}@127.0.0.1:6379`, `amqp://guest:${secret}@127.0.0.1:5672`]) {
    for (const args of [['send', fixture, '--layout', url], ['lint', '--registry', url, fixture], [url], ['dlq', url]]) {
      test(`babelq ${args.map((arg) => (arg === url ? `${url.slice(0, 12)}…` : arg)).join(' ')}`, () => {
        const output = run(args, {});
        assert.match(output, /babelq: /);
        assert.ok(!output.includes('Lk7'), `the password's start appeared:\n${output.slice(0, 2000)}`);
        assert.ok(!output.includes('wwwwww'), `part of the password appeared:\n${output.slice(0, 2000)}`);
      });
    }
  }
});

describe('a broker URL in the wrong place among the arguments is not echoed with its password', () => {
  const urls = {
    'a Redis URL with a password': `redis://:${encodeURIComponent(PASSWORD)}@127.0.0.1:6379`,
    'an AMQP URL with a password': `amqp://guest:${encodeURIComponent(PASSWORD)}@127.0.0.1:5672`,
    'a Redis URL with a lone user name (a password to several Redis clients)': `redis://${encodeURIComponent(PASSWORD)}@127.0.0.1:6379`,
    // Its "/" ends the authority for the URL parser: the password is all that comes before the last "@".
    'an AMQP URL with its password typed unencoded': `amqp://guest:${PASSWORD}@127.0.0.1:5672`,
  };
  // A URL given where a file, a command, an action or another option's value was expected: each is
  // a usage error that names what it was given.
  const misplaced = (url: string): string[][] => [
    ['send', url],
    ['send', fixture, '--timeout', url],
    ['send', fixture, '--layout', url],
    ['dlq', url],
    [url],
    ['lint', url],
    ['preview', url],
  ];
  for (const [what, url] of Object.entries(urls)) {
    test(what, () => {
      for (const args of misplaced(url)) {
        const output = run(args, {});
        // Each was refused as the usage error it is, naming where the URL went.
        assert.match(output, /babelq: .*(rediss?|amqp):\/\/.*\*\*\*@127\.0\.0\.1/, `${args.join(' ')}:\n${output}`);
        for (const form of FORMS) assert.ok(!output.includes(form), `${args.join(' ')}: the password appeared as ${JSON.stringify(form)}:\n${output.slice(0, 2000)}`);
      }
    });
  }
});

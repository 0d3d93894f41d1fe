/**
 * Preloaded (`--require`, through NODE_OPTIONS) into a process whose network use a test watches:
 * every call that opens a socket or resolves a name is appended, one line each, to the file that
 * BABELQ_NETWORK_LOG names, before it runs. Its first line says it was loaded, so a test that
 * finds nothing else knows the watch was in place.
 */
'use strict';
const { appendFileSync } = require('node:fs');
const log = process.env.BABELQ_NETWORK_LOG;
const record = (line) => appendFileSync(log, `${line}\n`);
record(`loaded ${process.pid}`);

function watch(owner, name, describe) {
  const original = owner[name];
  if (typeof original !== 'function') return;
  owner[name] = function watched(...args) {
    record(`${describe} ${args.length > 0 && typeof args[0] !== 'function' ? JSON.stringify(args[0]) : ''}`);
    return original.apply(this, args);
  };
}

const net = require('node:net');
watch(net.Socket.prototype, 'connect', 'net.Socket.connect');
const dns = require('node:dns');
for (const name of ['lookup', 'resolve', 'resolve4', 'resolve6', 'resolveAny']) {
  watch(dns, name, `dns.${name}`);
  watch(dns.promises, name, `dns.promises.${name}`);
}
for (const module of ['node:http', 'node:https']) {
  for (const name of ['request', 'get']) watch(require(module), name, `${module}.${name}`);
}
watch(require('node:tls'), 'connect', 'tls.connect');
watch(require('node:dgram'), 'createSocket', 'dgram.createSocket');
watch(globalThis, 'fetch', 'fetch');

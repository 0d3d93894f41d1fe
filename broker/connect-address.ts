/**
 * The addresses a broker connection goes to, decided once and before any byte is sent. A host the
 * guards took for this machine by its name (`localhost`, `localhost.`, `127.0.0.1.`) is connected
 * to through the loopback addresses it resolves to and no other, and through none when it resolves
 * to none: a name is only a promise, and a resolver (a hosts file, a DNS answer for `localhost.`)
 * could point it elsewhere with the user's password on the way. The socket then connects to those
 * very addresses, so a second lookup cannot answer otherwise.
 */
import { BrokerError, isBrokerError } from './errors';
import { isIP, isLoopback, type BrokerTarget } from './target';

/** The resolver: the system's (getaddrinfo: hosts file, then DNS); a test stands in for a resolver that lies. */
export type Lookup = (host: string) => Promise<readonly { address: string }[]>;
// node:dns is loaded on the first lookup: only a broker command makes one.
const systemLookup: Lookup = (host) => (require('node:dns') as typeof import('node:dns')).promises.lookup(host, { all: true, verbatim: true });

/**
 * The addresses to connect to, in the resolver's order, or undefined to let the client library
 * resolve the name itself (and try each address it has, IPv6 and IPv4): only a host taken for
 * this machine is resolved here, checked, and pinned, because only that one skipped the question
 * a remote host gets. Every loopback address is kept, not the first alone: `localhost` commonly
 * resolves to ::1 and 127.0.0.1, and a broker listening on one of them only is this machine all
 * the same. An address that is not loopback is left out (older macOS hosts files give localhost
 * `fe80::1%lo0` as well), and a name with no loopback address at all is refused.
 */
export async function connectAddresses(target: BrokerTarget, timeoutMs: number, lookup: Lookup = systemLookup): Promise<readonly string[] | undefined> {
  // A trailing dot names the same host absolutely; the resolver is asked without it.
  const host = target.host.replace(/\.$/, '');
  if (!isLoopback(target.host)) return undefined;
  if (isIP(host) !== 0) return [host];
  let addresses: string[];
  let timer: NodeJS.Timeout | undefined;
  try {
    const found = await Promise.race([
      lookup(host),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new BrokerError('timeout', `${target.display}: the name ${host} did not resolve within ${timeoutMs} ms. Nothing was sent.`, { target: target.display })), timeoutMs);
      }),
    ]);
    addresses = found.map((entry) => entry.address);
  } catch (error) {
    if (error instanceof BrokerError) throw error;
    const code = (error as { code?: string }).code;
    throw new BrokerError('unreachable', `${target.display}: the name ${host} does not resolve${code ? ` (${code})` : ''}. Check the host in the URL. Nothing was sent.`, { target: target.display, ...(code ? { code } : {}) });
  } finally {
    clearTimeout(timer);
  }
  if (addresses.length === 0) {
    throw new BrokerError('unreachable', `${target.display}: the name ${host} resolves to no address. Check the host in the URL. Nothing was sent.`, { target: target.display });
  }
  const local = addresses.filter((address) => isLoopback(address));
  if (local.length === 0) {
    throw new BrokerError('remote-host', `${target.display}: ${target.host} was taken for this machine, but it resolves to ${addresses.join(', ')}, ${addresses.length === 1 ? 'which is not a loopback address' : 'none of them a loopback address'}. Nothing was sent; use the address you mean in the URL, and confirm it as another host.`, { target: target.display });
  }
  return local;
}

/**
 * Opens a connection through each address in turn (undefined: the client library resolves the
 * name), moving on only while the one before refused the TCP connection or had no route: the
 * broker never saw a byte, so nothing can be published twice. Any other failure is the answer.
 */
export async function openThroughFirst<T>(addresses: readonly string[] | undefined, open: (address: string | undefined) => Promise<T>): Promise<T> {
  const tried = addresses ?? [undefined];
  for (let index = 0; ; index++) {
    try {
      return await open(tried[index]);
    } catch (error) {
      const unanswered = isBrokerError(error) && (error.kind === 'refused' || error.kind === 'unreachable');
      if (!unanswered || index === tried.length - 1) throw error;
    }
  }
}

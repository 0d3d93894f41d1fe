/**
 * The address a broker connection goes to, decided once and before any byte is sent. A host the
 * guards took for this machine by its name (`localhost`, `localhost.`, `127.0.0.1.`) must resolve
 * to a loopback address, or nothing is sent: a name is only a promise, and a resolver (a hosts
 * file, a DNS answer for `localhost.`) could point it elsewhere with the user's password on the
 * way. The socket then connects to that very address, so a second lookup cannot answer otherwise.
 */
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { BrokerError } from './errors';
import { isLoopback, type BrokerTarget } from './target';

/** The resolver: the system's (getaddrinfo: hosts file, then DNS); a test stands in for a resolver that lies. */
export type Lookup = (host: string) => Promise<{ address: string }>;
const systemLookup: Lookup = (host) => dns.lookup(host, { verbatim: true });

/**
 * The address to connect to, or undefined to let the client library resolve the name itself (and
 * try each address it has, IPv6 and IPv4): only a host taken for this machine is resolved here,
 * checked, and pinned, because only that one skipped the question a remote host gets.
 */
export async function connectAddress(target: BrokerTarget, timeoutMs: number, lookup: Lookup = systemLookup): Promise<string | undefined> {
  // A trailing dot names the same host absolutely; the resolver is asked without it.
  const host = target.host.replace(/\.$/, '');
  if (!isLoopback(target.host)) return undefined;
  if (isIP(host) !== 0) return host;
  let address: string;
  let timer: NodeJS.Timeout | undefined;
  try {
    const found = await Promise.race([
      lookup(host),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new BrokerError('timeout', `${target.display}: the name ${host} did not resolve within ${timeoutMs} ms. Nothing was sent.`, { target: target.display })), timeoutMs);
      }),
    ]);
    address = found.address;
  } catch (error) {
    if (error instanceof BrokerError) throw error;
    const code = (error as { code?: string }).code;
    throw new BrokerError('unreachable', `${target.display}: the name ${host} does not resolve${code ? ` (${code})` : ''}. Check the host in the URL. Nothing was sent.`, { target: target.display, ...(code ? { code } : {}) });
  } finally {
    clearTimeout(timer);
  }
  if (!isLoopback(address)) {
    throw new BrokerError('remote-host', `${target.display}: ${target.host} was taken for this machine, but it resolves to ${address}, which is not a loopback address. Nothing was sent; use the address you mean in the URL, and confirm it as another host.`, { target: target.display });
  }
  return address;
}

/**
 * The broker clients' debug output stays off whatever DEBUG says. ioredis logs every command it
 * writes through the `debug` package, AUTH with its password included (`DEBUG=*` or
 * `DEBUG=ioredis:*` printed `auth([ '<password>' ])`), and no setting of ours may put a password in
 * any output. `debug` reads DEBUG once, when it loads: the clients are loaded with their namespaces
 * turned off (`-ioredis:*`, `-amqp*`), and DEBUG is put back for everything else.
 */

const SILENCED = ['-ioredis:*', '-amqp*'];

/** Loads a broker client module with its debug namespaces disabled. */
export async function loadQuietly<T>(load: () => Promise<T>): Promise<T> {
  const original = process.env.DEBUG;
  if (original === undefined || original.trim() === '') return load();
  process.env.DEBUG = [original, ...SILENCED].join(',');
  try {
    return await load();
  } finally {
    process.env.DEBUG = original;
  }
}

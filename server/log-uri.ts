/**
 * A document's or root's URI as the server's log names it: a password in its userinfo
 * (`sftp://user:password@host/`, a remote root some editors name) masked, as every broker URL the
 * tools quote is, and a URI longer than the log needs cut by its start (a client may send any
 * string as a URI, and a log line of a megabyte helps no one). A URI's userinfo holds no raw '@',
 * '/', '?' or '#'.
 */
import { shortened } from '../core/model/describe-value';

const MAX_LOGGED_URI = 300;

export function uriForLog(uri: string): string {
  return shortened(uri.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/?#]*):[^@/?#]*@/i, '$1:***@'), MAX_LOGGED_URI);
}

/**
 * The fresh meta.id and created_at a document will be sent with. The preview shows them and the
 * send uses the same ones, then mints new ones for the next send: what you saw is what was sent.
 */
import { randomUUID } from 'node:crypto';
import { fixedFresh, type Fresh } from '../core/model/fresh';

export class FreshIds {
  private readonly byDocument = new Map<string, { id: string; now: number }>();

  /** The pinned fresh values of a document (minted on first use). */
  for(uri: string): Fresh {
    let pinned = this.byDocument.get(uri);
    if (!pinned) {
      pinned = { id: randomUUID(), now: Date.now() };
      this.byDocument.set(uri, pinned);
    }
    const { id, now } = pinned;
    return fixedFresh(id, now);
  }

  /** Forgets a document's values so the next preview or send mints new ones. */
  renew(uri: string): void {
    this.byDocument.delete(uri);
  }
}

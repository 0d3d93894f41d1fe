/** A breaking schema change while it is typed, on a 100-schema registry in git. */
import { join } from 'node:path';
import { info, log, OUT, QUICK, SHIPPED_SERVER } from '../context';
import { range, stats } from '../measure';
import { COMPAT_SCHEMAS, measureSchemaCompat, writeCompatRepository } from '../schema-compat';

export async function compatScenario(): Promise<void> {
  log(`\nbreaking-change while a schema is typed: ${COMPAT_SCHEMAS} schemas in git, 20 fixtures each (production server over stdio)`);
  const dir = join(OUT, 'compat-100');
  writeCompatRepository(dir);
  const { keystrokeToBreak, message } = await measureSchemaCompat(dir, SHIPPED_SERVER, QUICK ? 5 : 15);
  if (!message.includes('20 of the 20 fixtures')) throw new Error(`the break does not count the URN's fixtures: ${message}`);
  // The first edit pays git's start (rev-parse, cat-file); the rest are the keystroke as typed.
  info(`unsaved schema edit → breaking-change with the fixtures it breaks counted (${COMPAT_SCHEMAS} schemas; first edit, git read)`, `${keystrokeToBreak[0].toFixed(1)} ms`);
  info(`unsaved schema edit → breaking-change with the fixtures it breaks counted (${COMPAT_SCHEMAS} schemas; later edits)`, range(stats(keystrokeToBreak.slice(1))));
}

/**
 * GitIgnores on a deep tree: which work tree a folder belongs to is found once per folder, from
 * the answer of the folder above it, so a walk of a checkout N folders deep costs some N lookups,
 * not up to 64 per folder; and the answers are those of a lookup from scratch, at the 64-level
 * reach included.
 */
import assert from 'node:assert/strict';
import { posix } from 'node:path';
import { describe, test } from 'node:test';
import { GitIgnores } from '../../workspace/gitignore';

const DEPTH = 220;
/** A nested work tree starts this many folders down. */
const NESTED_AT = 150;

const folderAt = (level: number) => posix.join('/r', ...Array.from({ length: level }, () => 'd'));

/** A virtual checkout: /r is a work tree ignoring *.tmp, and so is the folder NESTED_AT below it (ignoring *.log). */
function checkout() {
  let looks = 0;
  const exists = (path: string) => {
    looks++;
    return path === `${folderAt(0)}/.git` || path === `${folderAt(NESTED_AT)}/.git`;
  };
  const read = (path: string) => (path === `${folderAt(0)}/.gitignore` ? '*.tmp\n' : path === `${folderAt(NESTED_AT)}/.gitignore` ? '*.log\n' : undefined);
  return { ignores: () => new GitIgnores(read, exists), looks: () => looks };
}

describe('GitIgnores on a deep tree', () => {
  test(`a walk ${DEPTH} folders deep: the answers of a lookup from scratch, in about one look per folder`, () => {
    const walked = checkout();
    const scratch = checkout();
    const shared = walked.ignores();
    const answers: string[] = [];
    for (let level = 1; level <= DEPTH; level++) {
      const folder = folderAt(level);
      // As a walk asks: each folder before it enters it, then the files in it.
      shared.isIgnored(folder, true);
      for (const name of ['a.tmp', 'a.log']) {
        const path = `${folder}/${name}`;
        const answer = shared.isIgnored(path, false);
        assert.equal(answer, scratch.ignores().isIgnored(path, false), `${level} folders down, ${name}`);
        answers.push(`${level}:${name}:${answer}`);
      }
    }
    // *.tmp within reach of /r's .gitignore (63 folders down); beyond it, none until the nested tree, which ignores *.log.
    assert.ok(answers.includes('63:a.tmp:true') && answers.includes('64:a.tmp:false') && answers.includes(`${NESTED_AT + 1}:a.log:true`) && answers.includes(`${NESTED_AT + 1}:a.tmp:false`));
    assert.ok(walked.looks() <= 3 * DEPTH, `${walked.looks()} looks for ${DEPTH} folders`);
  });
});

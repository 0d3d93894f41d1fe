/**
 * `.gitignore` lines read as git reads them where a careless reading differs from git's: the
 * answers below are those of git 2.39 (`git ls-files --others --exclude-standard`) on the same
 * lines and names; test/workspace/gitignore-differential.test.ts compares with git on random trees.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseGitignore } from '../../workspace/gitignore';

/** Whether `rules` ignore a path (relative to their folder), as git decides: the last rule that matches. */
function ignoredBy(rules: ReturnType<typeof parseGitignore>): (path: string, isDirectory?: boolean) => boolean {
  return (path, isDirectory = false) => {
    let verdict = false;
    for (const rule of rules) if ((!rule.directoryOnly || isDirectory) && rule.matcher.test(path)) verdict = !rule.negated;
    return verdict;
  };
}

describe('.gitignore lines as git reads them', () => {
  test('a bracket naming a class that is a property of every object ([[:constructor:]], [[:__proto__:]]) is an unknown class: the line matches nothing, the others apply', () => {
    const ignored = ignoredBy(parseGitignore('[[:constructor:]]*\n[[:__proto__:]]x\n[[:toString:]]\n[[:hasOwnProperty:]]y\n*.tmp\n'));
    assert.equal(ignored('a.tmp'), true);
    assert.equal(ignored('cx'), false);
    assert.equal(ignored('constructor'), false);
    assert.equal(ignored('_x'), false);
  });

  test('[[:space:]] is git\'s own space: tab, line feed, carriage return and space, not vertical tab or form feed', () => {
    const ignored = ignoredBy(parseGitignore('a[[:space:]]b\n'));
    for (const space of ['\t', '\n', '\r', ' ']) assert.equal(ignored(`a${space}b`), true, JSON.stringify(space));
    for (const other of ['\v', '\f', '\u00a0', 'x']) assert.equal(ignored(`a${other}b`), false, JSON.stringify(other));
  });

  test('only trailing spaces are dropped, and a space after an escaped backslash is trailing too; a tab, a no-break space or a second carriage return stays part of the name', () => {
    const ignored = ignoredBy(parseGitignore('tab\t\nnbsp\u00a0\ncr\r\r\nback\\\\  \nkept\\ \ncrlf\r\nlast\r'));
    assert.equal(ignored('tab'), false, 'a tab is no trailing space');
    assert.equal(ignored('tab\t'), true);
    assert.equal(ignored('nbsp'), false);
    assert.equal(ignored('nbsp\u00a0'), true);
    assert.equal(ignored('cr'), false, 'one carriage return before the line feed ends the line; another is part of it');
    assert.equal(ignored('cr\r'), true);
    assert.equal(ignored('back\\'), true, '"back\\\\  " is "back\\" escaped, its spaces trailing');
    assert.equal(ignored('back\\ '), false);
    assert.equal(ignored('kept '), true, 'an escaped space is kept');
    assert.equal(ignored('crlf'), true);
    assert.equal(ignored('last'), true, 'a carriage return ending the file ends its last line');
  });

  test('a UTF-8 byte order mark opening the file is no part of its first line (an editor on Windows writes one)', () => {
    const ignored = ignoredBy(parseGitignore('\ufeff*.tmp\r\nbuild/\r\n'));
    assert.equal(ignored('a.tmp'), true);
    assert.equal(ignored('build', true), true);
    assert.equal(ignoredBy(parseGitignore('a\n\ufeffb\n'))('b'), false, 'one further down is part of its line');
  });

  test('a line ending in a lone backslash matches nothing (git\'s wildmatch finds no character to escape)', () => {
    const ignored = ignoredBy(parseGitignore('d\\\n*.tmp\\\n/e\\\nf\\\\\n'));
    assert.equal(ignored('d\\', true), false);
    assert.equal(ignored('d', true), false);
    assert.equal(ignored('a.tmp\\'), false);
    assert.equal(ignored('e\\'), false);
    assert.equal(ignored('f\\'), true, 'an escaped backslash at the end is one backslash');
  });

  test('"**" as git\'s wildmatch reads it: a longer run of stars between slashes, before an escaped slash, or right after the plain start of a line with a slash', () => {
    const runs = ignoredBy(parseGitignore('x/***/a\n***/b\n'));
    assert.equal(runs('x/y/z/a'), true, '*** between slashes is **');
    assert.equal(runs('x/a'), true);
    assert.equal(runs('b'), true);
    assert.equal(runs('x/y/b'), true);
    const escaped = ignoredBy(parseGitignore('**\\/a\n'));
    assert.equal(escaped('x/y/a'), true, '**\\/ crosses folders');
    assert.equal(escaped('x/a'), true);
    assert.equal(escaped('a'), false, 'but always one at least');
    // git compares the plain start of a line with a slash by itself and matches the rest from there, as a line of its own.
    const afterPlain = ignoredBy(parseGitignore('foo**/bar\nx/y***\n'));
    assert.equal(afterPlain('foo/x/bar', true), true);
    assert.equal(afterPlain('foo/bar', true), true);
    assert.equal(afterPlain('foox/bar', true), true);
    assert.equal(afterPlain('foobar', true), true);
    assert.equal(afterPlain('fo/bar', true), false);
    assert.equal(afterPlain('x/yz/q'), true, '"x/y***" is "x/y" then anything, slashes too');
    const notWhole = ignoredBy(parseGitignore('x/**c\n'));
    assert.equal(notWhole('x/c'), true, '"**c" is not a whole segment: one folder\'s names only');
    assert.equal(notWhole('x/y/c'), false);
    const unanchored = ignoredBy(parseGitignore('a***b\n'));
    assert.equal(unanchored('sub/axyb'), true);
    assert.equal(unanchored('a/b'), false, 'stars inside a name never cross a slash');
  });

  test('a trailing slash after an escaped backslash still means folders only ("d\\\\/" is the folder "d\\")', () => {
    const ignored = ignoredBy(parseGitignore('d\\\\/\n[!q]e\\\\/\n'));
    assert.equal(ignored('d\\', true), true);
    assert.equal(ignored('d\\'), false, 'a file of that name is not a folder');
    assert.equal(ignored('sub/xe\\', true), true);
  });

  test('a line opening with an escaped "#" or "!" has no plain start, as in git: a "**" right after it is no whole segment', () => {
    const ignored = ignoredBy(parseGitignore('\\#**/**.babel.*\n\\!x**/a\n'));
    assert.equal(ignored('#h.babel.json'), false);
    assert.equal(ignored('#x/h.babel.json'), true);
    assert.equal(ignored('!xy/a'), true);
    assert.equal(ignored('!x/y/a'), false);
  });
});

/**
 * Drives the real VS Code workbench (code-server) in Debian's Chromium through playwright-core,
 * the way a person does: the command palette, Quick Open, Go to Line, the keyboard, and what is
 * on the screen (squiggles, the Problems panel, notifications, editors). Nothing here calls the
 * extension or VS Code's API directly.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, ROOT } from '../../../scripts/e2e/code-server';

export const RESULTS_DIR = join(ROOT, 'test-results');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** Polls `probe` until it returns something other than undefined/false, or fails with `what`. */
export async function waitUntil<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 15_000, intervalMs = 150): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((done) => setTimeout(done, intervalMs));
  }
}

/** One row of the Problems panel as the user reads it. */
export interface Problem {
  readonly message: string;
  readonly source: string;
  readonly code: string;
  readonly line: number;
  readonly column: number;
  /** The file row it is listed under, as its text reads: its name, then its folder (`order-created.babel.jsonworker • fixtures`). */
  readonly file: string;
}

export type TrustAnswer = 'Yes, I trust the authors' | "No, I don't trust the authors";

export class Workbench {
  private constructor(
    readonly page: Page,
    private readonly context: BrowserContext,
  ) {}

  /** Opens the workbench at `url` and answers the workspace-trust dialog. */
  static async open(browser: Browser, url: string, answer: TrustAnswer): Promise<Workbench> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    const button = page.locator('.monaco-dialog-box').getByRole('button', { name: answer, exact: true });
    await button.waitFor({ state: 'visible', timeout: 60_000 });
    await button.click();
    await page.locator('.monaco-dialog-box').waitFor({ state: 'detached', timeout: 10_000 });
    return new Workbench(page, context);
  }

  async close(): Promise<void> {
    await this.context.close();
  }

  /** Saves test-results/<name>.png after `settleMs` (notifications and widgets fade in). */
  async screenshot(name: string, settleMs = 400): Promise<string> {
    mkdirSync(RESULTS_DIR, { recursive: true });
    await this.page.waitForTimeout(settleMs);
    const path = join(RESULTS_DIR, `${name}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  /** Types into a quick input opened by `key` (or the one already open), checks the focused row and accepts it. */
  private async quickInput(key: string | undefined, text: string, expected: string, closes = true): Promise<void> {
    const { page } = this;
    if (key) await page.keyboard.press(key);
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await page.keyboard.type(text);
    const focused = page.locator('.quick-input-list .monaco-list-row.focused');
    await waitUntil(`"${expected}" in the quick input after typing "${text}"`, async () => {
      const rows = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
      if (!rows.some((row) => row.includes(expected))) return false;
      const current = await focused.innerText().catch(() => '');
      if (current.includes(expected)) return true;
      await page.keyboard.press('ArrowDown');
      return false;
    });
    await page.keyboard.press('Enter');
    if (closes) await input.waitFor({ state: 'hidden', timeout: 10_000 });
    // A row that leads to another pick: wait until the list no longer shows what was typed.
    else await waitUntil(`the next pick after "${expected}"`, async () => (await input.inputValue()) === '');
  }

  /** Picks the row showing `expected` in the quick pick that is open, after typing `text`. */
  async pick(text: string, expected: string, options: { next?: boolean } = {}): Promise<void> {
    await this.quickInput(undefined, text, expected, !options.next);
  }

  /** In the quick input already open, types `filter`, focuses the row containing `expected` and accepts it (what comes next may be another pick or a dialog). */
  async choose(expected: string, filter = ''): Promise<void> {
    const { page } = this;
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    if (filter) await page.keyboard.type(filter);
    const focused = page.locator('.quick-input-list .monaco-list-row.focused');
    await waitUntil(`"${expected}" focused in the quick input`, async () => {
      const rows = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
      if (!rows.some((row) => row.includes(expected))) return false;
      if ((await focused.innerText().catch(() => '')).includes(expected)) return true;
      await page.keyboard.press('ArrowDown');
      return false;
    });
    await page.keyboard.press('Enter');
  }

  /**
   * Clicks `button` in the modal dialog on screen and waits for that dialog to close. The dialog
   * itself is waited for, not any dialog: the next question (a redrive's "Redrive Anyway") can be
   * on screen before a look for no dialog at all comes round, and that look would never succeed.
   */
  async answerDialog(button: string): Promise<string> {
    const dialog = this.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    const shown = await dialog.elementHandle();
    const text = await dialog.innerText();
    await dialog.getByRole('button', { name: button, exact: true }).click();
    await shown!.waitForElementState('hidden', { timeout: 10_000 });
    return text;
  }

  /** Runs a command from the command palette (F1), by its title as the palette shows it; `opensPick`: it opens a quick pick of its own. */
  async command(title: string, options: { opensPick?: boolean } = {}): Promise<void> {
    await this.quickInput('F1', title, title, !options.opensPick);
  }

  /** Opens a workspace file with Quick Open (Ctrl+P) and waits for its tab to be active. */
  async openFile(relativePath: string): Promise<void> {
    const name = relativePath.split('/').pop()!;
    await this.quickInput('Control+P', relativePath, name);
    await this.page.locator('.editor-group-container.active .tabs-container .tab.active', { hasText: name }).waitFor({ timeout: 10_000 });
  }

  /** Moves the cursor in the active editor with Go to Line/Column (Ctrl+G); both one-based. */
  async goTo(line: number, column: number): Promise<void> {
    const { page } = this;
    const input = page.locator('.quick-input-widget .quick-input-box input');
    const rows = page.locator('.quick-input-list .monaco-list-row');
    const wanted = `:${line}:${column}`;
    for (let attempt = 1; ; attempt++) {
      await page.keyboard.press('Control+G');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      // Keys typed while the widget is still taking focus can land in the editor instead (seen on a
      // loaded CI machine): write the value into the input itself and wait until the widget shows it.
      await input.fill(wanted);
      await waitUntil(`"${wanted}" in Go to Line`, async () => (await input.inputValue()) === wanted);
      // Enter only moves the cursor once the widget offers the move. Just after a file opens (seen
      // in Restricted Mode on CI) it can still say "Open a text editor first", and Enter then
      // leaves the widget open: close it, put the focus in the editor and ask again.
      const offer = await waitUntil(`Go to Line's answer to "${wanted}"`, async () =>
        (await rows.allInnerTexts()).find((row) => /Go to line|Open a text editor first/.test(row)));
      if (offer.includes(`Go to line ${line}`)) break;
      await page.keyboard.press('Escape');
      await input.waitFor({ state: 'hidden', timeout: 10_000 });
      if (attempt === 3) throw new Error(`Go to Line did not offer line ${line} after ${attempt} tries: "${offer}"`);
      await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    }
    await page.keyboard.press('Enter');
    await input.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** The editor group at `index` (0: the first, left), as on screen. */
  group(index: number): Locator {
    return this.page.locator('.editor-group-container').nth(index);
  }

  async groupCount(): Promise<number> {
    return this.page.locator('.editor-group-container').count();
  }

  /** Focuses editor group `index` (0-based) with Ctrl+1/Ctrl+2/… */
  async focusGroup(index: number): Promise<void> {
    await this.page.keyboard.press(`Control+${index + 1}`);
  }

  /**
   * The whole text of the editor in group `index`: focus it, Select All, Copy, and read the
   * clipboard (the editor only renders the lines in view). The cursor ends at the top.
   */
  async editorText(index: number): Promise<string> {
    const { page } = this;
    await page.evaluate(() => (globalThis as any).navigator.clipboard.writeText('\u0000'));
    await this.focusGroup(index);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+C');
    const text = await waitUntil('the editor text on the clipboard', async () => {
      const value: string = await page.evaluate(() => (globalThis as any).navigator.clipboard.readText());
      return value === '\u0000' ? undefined : value;
    });
    await page.keyboard.press('Control+Home');
    return text;
  }

  /** The rendered text of the lines in view in the active editor. */
  async visibleLines(): Promise<string[]> {
    return this.page.locator('.editor-group-container.active .monaco-editor .view-line').evaluateAll((lines: any[]) => lines.map((line) => String(line.textContent).replace(/\u00a0/g, ' ')));
  }

  /** Squiggles drawn in the active editor (lines in view only). */
  async squiggles(kind: 'error' | 'warning' | 'info' | 'any' = 'any'): Promise<number> {
    const selector = kind === 'any' ? '.squiggly-error, .squiggly-warning, .squiggly-info' : `.squiggly-${kind}`;
    return this.page.locator(`.editor-group-container.active .monaco-editor :is(${selector})`).count();
  }

  /** The status bar's problem counts ("Errors: 7, Warnings: 9, Infos: 1"). */
  async problemCounts(): Promise<{ errors: number; warnings: number; infos: number }> {
    const label = (await this.page.locator('#status\\.problems').getAttribute('aria-label')) ?? '';
    const count = (name: string) => Number(new RegExp(`${name}: (\\d+)`).exec(label)?.[1] ?? NaN);
    return { errors: count('Errors'), warnings: count('Warnings'), infos: count('Infos') };
  }

  /** Shows the Problems panel with `glob` typed into its filter box. */
  private async problemsPanel(glob: string): Promise<Locator> {
    const { page } = this;
    const panel = page.locator('.markers-panel');
    if (!(await panel.isVisible())) await this.command('Problems: Focus on Problems View');
    await panel.waitFor({ state: 'visible', timeout: 10_000 });
    const filter = page.locator('.markers-panel-action-filter input, .viewpane-filter input').first();
    // The view can keep an empty result for a filter typed while markers were changing under it
    // (seen once in CI while a task and the server both reported one file): type the filter again.
    const stale = (await filter.inputValue()) === glob && (await panel.getByText('No results found with provided filter criteria').isVisible().catch(() => false));
    if ((await filter.inputValue()) !== glob || stale) {
      if (stale) {
        await filter.fill('');
        await page.waitForTimeout(400);
      }
      await filter.fill(glob);
      await page.waitForTimeout(400); // the filter is debounced
      await this.command('View: Focus Active Editor Group'); // typing goes to the editor again
    }
    return panel;
  }

  /**
   * The Problems panel's rows for the files matching `glob`. The list only renders the rows in
   * view: with `all`, the panel is maximised while it is read (and restored after).
   */
  async problems(glob: string, options: { all?: boolean } = {}): Promise<Problem[]> {
    const panel = await this.problemsPanel(glob);
    if (options.all) await this.maximizePanel(true);
    let texts: string[];
    try {
      texts = await panel.locator('.monaco-list-row').allInnerTexts();
    } finally {
      if (options.all) await this.maximizePanel(false);
    }
    const problems: Problem[] = [];
    let file = '';
    for (const text of texts) {
      const lines = text.split('\n').map((line) => line.trim()).filter(Boolean);
      const at = /^\[Ln (\d+), Col (\d+)\]$/.exec(lines[lines.length - 1] ?? '');
      if (!at || lines.length < 4) {
        // A file row: its name, its folder and its count (a related-information row has no count).
        if (/^\d+$/.test(lines[lines.length - 1] ?? '')) file = lines.slice(0, -1).join(' ');
        continue;
      }
      problems.push({ message: lines[0], source: lines[lines.length - 3], code: lines[lines.length - 2], line: Number(at[1]), column: Number(at[2]), file });
    }
    return problems;
  }

  /** The number on the file rows of the Problems panel for the files matching `glob`. */
  async problemTotal(glob: string): Promise<number> {
    const panel = await this.problemsPanel(glob);
    const texts = await panel.locator('.monaco-list-row').allInnerTexts();
    let total = 0;
    for (const text of texts) {
      const lines = text.split('\n').map((line) => line.trim()).filter(Boolean);
      if (/^\[Ln \d+, Col \d+\]$/.test(lines[lines.length - 1] ?? '')) continue; // a problem row
      total += Number(lines[lines.length - 1]) || 0;
    }
    return total;
  }

  /** Maximises the panel (or restores it) with the button in the panel's title bar. */
  async maximizePanel(maximized: boolean): Promise<void> {
    const restore = this.page.locator('.part.panel .action-label[aria-label^="Restore Panel Size"]');
    const maximize = this.page.locator('.part.panel .action-label[aria-label^="Maximize Panel Size"]');
    if ((await restore.isVisible()) === maximized) return;
    await (maximized ? maximize : restore).click();
    await (maximized ? restore : maximize).waitFor({ state: 'visible', timeout: 10_000 });
  }

  /** The texts of the notification toasts on screen. */
  async notifications(): Promise<string[]> {
    return this.page.locator('.notifications-toasts .notification-toast').allInnerTexts();
  }

  async clearNotifications(): Promise<void> {
    await this.command('Notifications: Clear All Notifications');
  }

  /** The visible hover widget's text, after Show or Focus Hover (Ctrl+K Ctrl+I) at the cursor. */
  async hoverAtCursor(): Promise<string> {
    const { page } = this;
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    const hover = page.locator('.monaco-hover:not(.hidden)');
    await hover.first().waitFor({ state: 'visible', timeout: 10_000 });
    return waitUntil('the hover content', async () => {
      const text = (await hover.allInnerTexts()).join('\n').trim();
      return text.length > 0 && !/^Loading/.test(text) ? text : undefined;
    });
  }

  /** Opens the quick fixes at the cursor (Ctrl+.), picks the one whose title starts with `title`. */
  async applyQuickFix(title: string): Promise<string[]> {
    await this.page.keyboard.press('Control+.');
    return this.pickQuickFix(title);
  }

  /** Opens the problem's hover at the cursor, follows its "Quick Fix..." link, picks as applyQuickFix does. */
  async applyQuickFixFromHover(title: string): Promise<string[]> {
    const { page } = this;
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    // The link appears once the hover has asked the server for the problem's fixes.
    const link = page.locator('.monaco-hover:not(.hidden) .action-container', { hasText: 'Quick Fix' });
    await link.first().waitFor({ state: 'visible', timeout: 10_000 });
    await link.first().click();
    return this.pickQuickFix(title);
  }

  private async pickQuickFix(title: string): Promise<string[]> {
    const { page } = this;
    const rows = page.locator('.action-widget .monaco-list-row.action');
    await rows.first().waitFor({ state: 'visible', timeout: 10_000 });
    const titles = (await rows.evaluateAll((elements: any[]) => elements.map((element) => String(element.getAttribute('aria-label') ?? element.textContent)))) as string[];
    const index = titles.findIndex((candidate) => candidate.startsWith(title));
    if (index < 0) throw new Error(`No quick fix starting "${title}"; offered: ${titles.join(' | ')}`);
    await waitUntil(`quick fix "${title}" focused`, async () => {
      const focused = (await page.locator('.action-widget .monaco-list-row.action.focused').getAttribute('aria-label').catch(() => null)) ?? '';
      if (focused.startsWith(title)) return true;
      await page.keyboard.press('ArrowDown');
      return false;
    });
    await page.keyboard.press('Enter');
    await page.locator('.action-widget').waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
    return titles;
  }
}

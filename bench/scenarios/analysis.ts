/** In-process analysis against its anchors: 5 MB, tiny fixtures, 50 KB and 20 MB, and the scaling from 16 KB to 20 MB. */
import * as jsonc from 'jsonc-parser';
import { TextDocument } from 'vscode-json-languageservice';
import type { RegistryState } from '../../core/registry/types';
import { anchorText, anchorValidate, jsoncScan } from '../anchor';
import { asReceived, emptyYoungGeneration, engine, info, log, QUICK, ratio, results, target } from '../context';
import { envelopeText, tinyText } from '../generate';
import { bytes, compare, ms, range, type Stats } from '../measure';

const { analyzeText, DEFAULT_SETTINGS } = engine;

export async function analysisScenarios(texts: Record<string, string>, registry: RegistryState): Promise<void> {
  log('\nFull analysis (parse, every rule, payload schema), in process');
  const ours = (text: string) => () => analyzeText(text, DEFAULT_SETTINGS, registry);

  // 5 MB: the headline.
  const big = texts['5 MB'];
  const r5 = await compare(
    {
      ours: ours(big),
      'JSON.parse': () => JSON.parse(big),
      'vscode-json-languageservice': () => anchorText(big),
      'jsonc-parser parseTree': () => jsonc.parseTree(big),
      'jsonc-parser scanner': () => jsoncScan(big),
    },
    // Each contender runs once untimed before each timed run: the anchors leave hundreds of megabytes
    // of garbage that would otherwise be collected during whatever runs next.
    { warmup: 5, samples: QUICK ? 5 : 11, settle: 1, beforeSample: emptyYoungGeneration },
  );
  results.anchorsTable.push(`| 5 MB | ${Object.entries(r5).map(([, s]) => range(s)).join(' | ')} |`);
  for (const [name, s] of Object.entries(r5)) info(`5 MB: ${name}`, range(s));
  const toJson = r5.ours.median / r5['JSON.parse'].median;
  target('5 MB full analysis vs JSON.parse of the same text', ratio(toJson), '≤ 3×', toJson <= 3);
  const faster = r5['vscode-json-languageservice'].median / r5.ours.median;
  target('5 MB full analysis, speed-up over vscode-json-languageservice parse + validate', ratio(faster), '≥ 8×', faster >= 8);

  // Tiny fixtures, many distinct ones per sample.
  const tinies = Array.from({ length: 200 }, (_, i) => asReceived(tinyText(1000 + i)));
  const documents = tinies.map((text, i) => TextDocument.create(`file:///bench/t${i}.babel.json`, 'json', 1, text));
  const rt = await compare(
    {
      ours: () => {
        for (const text of tinies) analyzeText(text, DEFAULT_SETTINGS, registry);
      },
      anchor: async () => {
        for (const document of documents) await anchorValidate(document);
      },
      'JSON.parse': () => {
        for (const text of tinies) JSON.parse(text);
      },
    },
    { warmup: 5, samples: QUICK ? 9 : 21 },
  );
  const perDoc = (s: Stats) => ms(s.median / tinies.length);
  info('tiny fixture: ours per document', perDoc(rt.ours));
  info('tiny fixture: vscode-json-languageservice per document', perDoc(rt.anchor));
  info('tiny fixture: JSON.parse per document', perDoc(rt['JSON.parse']));
  results.anchorsTable.push(`| tiny (${bytes(tinies[0].length)}), per document | ${perDoc(rt.ours)} | ${perDoc(rt['JSON.parse'])} | ${perDoc(rt.anchor)} | – | – |`);
  const tinyRatio = rt.ours.median / rt.anchor.median;
  target('tiny fixture analysis vs vscode-json-languageservice parse + validate', `${ratio(tinyRatio)} the anchor's time`, '≤ 1×', tinyRatio <= 1);

  // 50 KB and 20 MB, for the record.
  for (const name of ['50 KB', '20 MB']) {
    const text = texts[name];
    const r = await compare(
      { ours: ours(text), 'JSON.parse': () => JSON.parse(text), 'vscode-json-languageservice': () => anchorText(text) },
      name === '20 MB' ? { warmup: 1, samples: QUICK ? 3 : 5, settle: 1, beforeSample: emptyYoungGeneration } : { warmup: 5, samples: QUICK ? 9 : 21 },
    );
    results.anchorsTable.push(`| ${name} | ${range(r.ours)} | ${range(r['JSON.parse'])} | ${range(r['vscode-json-languageservice'])} | – | – |`);
    info(`${name}: ours / JSON.parse / anchor`, `${range(r.ours)} / ${range(r['JSON.parse'])} / ${range(r['vscode-json-languageservice'])}; ${ratio(r.ours.median / r['JSON.parse'].median)} JSON.parse, ${ratio(r['vscode-json-languageservice'].median / r.ours.median)} faster than the anchor`);
  }

  // Scaling: 16 KB to 20 MB.
  log('\nScaling (full analysis)');
  const sizes = [16 * 1024, 64 * 1024, 256 * 1024, 1024 * 1024, 4 * 1024 * 1024, 20 * 1024 * 1024];
  for (const size of sizes) {
    const text = size === 20 * 1024 * 1024 ? texts['20 MB'] : asReceived(envelopeText(size, 5));
    const big = size >= 4 * 1024 * 1024;
    const r = await compare(
      { ours: ours(text), 'JSON.parse': () => JSON.parse(text) },
      big ? { warmup: 1, samples: QUICK ? 3 : 5, settle: 1, beforeSample: emptyYoungGeneration } : { warmup: 3, samples: QUICK ? 3 : 11, repeat: size <= 64 * 1024 ? 10 : 1 },
    );
    const perMb = r.ours.median / (text.length / 1024 / 1024);
    results.scaling.push(`| ${bytes(text.length)} | ${range(r.ours)} | ${perMb.toFixed(1)} ms | ${ms(r['JSON.parse'].median)} | ${ratio(r.ours.median / r['JSON.parse'].median)} |`);
    log(`  ${bytes(text.length).padStart(8)}: ${range(r.ours)}, ${perMb.toFixed(1)} ms per MB, ${ratio(r.ours.median / r['JSON.parse'].median)} JSON.parse`);
  }
}

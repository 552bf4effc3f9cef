/**
 * Electronegativity (Doyensec's static checker for Electron apps) over the app's sources, offline.
 *
 * It scans main/, preload/, renderer/ and package.json, plus three small files this test writes
 * from what the code really produces: the web preferences of the app window (and the address
 * strip) and of the isolated URL page, and the app scheme's Content-Security-Policy header.
 * Electronegativity only reads web preferences written as a literal inside
 * `new BrowserWindow({...})` and a CSP written as a literal; Airlock builds both in functions
 * (tested on their own), which it cannot follow, and it knows nothing of `WebContentsView`.
 *
 * Every finding above informational (and the informational ones Airlock counts all the same,
 * {@link COUNTED_INFORMATIONAL}) must be explained in the findings table of docs/security.md,
 * or fixed. The test fails on a finding the table does not explain and on a row that no
 * finding matches any more, so the table stays true.
 *
 * Offline: Electronegativity fetches translations and Electron's release list with `got`; this
 * test hands it a `got` that fails at once, and leaves out the one check that needs the list.
 */
import '../main/electron/use-fake-electron.js';
import {
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { createRequire, Module } from 'node:module';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Session } from 'electron';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appWebPreferences } from '../../../main/electron/app-window.js';
import { isolatedWebPreferences } from '../../../main/electron/url-window-policy.js';
import { appContentSecurityPolicy } from '../../../main/shared/app-content.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const require = createRequire(import.meta.url);
const toolRequire = createRequire(require.resolve('@doyensec/electronegativity/package.json'));

/** The source folders scanned (with package.json), as the app's root names them. */
const SCANNED = ['main', 'preload', 'renderer'];

/**
 * Checks Electronegativity rates informational that Airlock counts all the same: an explicit
 * `nodeIntegration: true` without `sandbox: true` (it rates it up only beside an http
 * resource), and Electron's security warnings turned off (they would hide the rest).
 */
const COUNTED_INFORMATIONAL = new Set([
  'NODE_INTEGRATION_JS_CHECK',
  'SECURITY_WARNINGS_DISABLED_JS_CHECK',
  'SECURITY_WARNINGS_DISABLED_JSON_CHECK',
]);

/** The one check that needs the network (Electron's release list); the version is pinned. */
const ONLINE_CHECK = 'AvailableSecurityFixesGlobalCheck';

type Level = { value: number; name: string };
type Finding = {
  id: string;
  file: string;
  location: { line: number; column: number };
  severity: Level;
  confidence: Level;
  description: string;
};
/** A finding as docs/security.md's table names it. */
type Entry = { id: string; severity: string; confidence: string; file: string };
type RunResult = { errors: { file: string; message: string }[]; issues: Finding[] };
type Run = (options: Record<string, unknown>, forCli: boolean) => Promise<RunResult>;

let scanDir = '';
let result: RunResult;

beforeAll(async () => {
  scanDir = await mkdtemp(join(tmpdir(), 'airlock-electronegativity-'));
  for (const folder of SCANNED) {
    // 'junction': a folder link Windows makes without extra rights; other systems ignore it.
    await symlink(join(root, folder), join(scanDir, folder), 'junction');
  }
  await copyFile(join(root, 'package.json'), join(scanDir, 'package.json'));
  await writeEvaluated(join(scanDir, 'evaluated'));
  result = await runOffline(scanDir);
}, 60_000);

afterAll(async () => {
  if (scanDir) {
    // Removes the links, not what they point to.
    await rm(scanDir, { recursive: true, force: true });
  }
});

/** Writes what the functions return as the literals Electronegativity reads. */
async function writeEvaluated(dir: string): Promise<void> {
  await mkdir(dir);
  const header = (what: string) =>
    `// Written by test/unit/security/electronegativity.test.ts from ${what}.\n`;
  const window = (prefs: object) =>
    `new BrowserWindow({ webPreferences: ${JSON.stringify(plain(prefs), null, 2)} });\n`;
  await writeFile(
    join(dir, 'appWebPreferences.js'),
    header('appWebPreferences() of a packaged app') +
      window(appWebPreferences('/app/out/preload/index.cjs', true)),
  );
  await writeFile(
    join(dir, 'isolatedWebPreferences.js'),
    header('isolatedWebPreferences()') + window(isolatedWebPreferences({} as Session)),
  );
  const policy = JSON.stringify(appContentSecurityPolicy());
  await writeFile(
    join(dir, 'appContentSecurityPolicy.js'),
    header('the header serveAppRequest() sends') +
      `respond({ responseHeaders: { 'Content-Security-Policy': [${policy}] } });\n`,
  );
}

/** The preferences with every value that is not a plain flag or string named instead. */
function plain(prefs: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(prefs).map(([key, value]) => [
      key,
      ['boolean', 'string', 'number'].includes(typeof value) ? value : `<${key}>`,
    ]),
  );
}

/** Runs Electronegativity over `input` with a `got` that never reaches the network. */
async function runOffline(input: string): Promise<RunResult> {
  const gotPath = toolRequire.resolve('got');
  const previous = require.cache[gotPath];
  const offline = Object.assign(() => Promise.reject(new Error('offline')), {
    head: () => Promise.reject(new Error('offline')),
  });
  const stub = new Module(gotPath);
  stub.filename = gotPath;
  stub.loaded = true;
  stub.exports = offline;
  require.cache[gotPath] = stub;
  // It says on the console that the translations could not be fetched: that is expected.
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    const run = toolRequire('@doyensec/electronegativity') as Run;
    const electron = (
      JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
        devDependencies: Record<string, string>;
      }
    ).devDependencies.electron;
    return await run(
      {
        input,
        isRelative: true,
        electronVersionOverride: electron,
        excludeFromScan: [ONLINE_CHECK],
      },
      false,
    );
  } finally {
    log.mockRestore();
    if (previous) {
      require.cache[gotPath] = previous;
    } else {
      delete require.cache[gotPath];
    }
  }
}

/** One line per check, rating and file: `ID | SEVERITY | CONFIDENCE | file | count`. */
function tally(entries: Entry[]): string[] {
  const counts = new Map<string, number>();
  for (const { id, severity, confidence, file } of entries) {
    const key = `${id} | ${severity.toUpperCase()} | ${confidence.toUpperCase()} | ${file}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, count]) => `${key} | ${count}`).sort();
}

/** The findings that count, as {@link tally} lines. */
function counted(): { lines: string[]; details: string } {
  const findings = result.issues.filter(
    (issue) => issue.severity.value > 0 || COUNTED_INFORMATIONAL.has(issue.id),
  );
  const entries = findings.map((issue) => ({
    id: issue.id,
    severity: issue.severity.name,
    confidence: issue.confidence.name,
    file: issue.file.split(sep).join('/'),
  }));
  const details = findings
    .map(
      (issue, index) =>
        `${entries[index]!.id} at ${entries[index]!.file}:${issue.location.line}: ${issue.description}`,
    )
    .join('\n');
  return { lines: tally(entries), details };
}

/**
 * The rows of docs/security.md's findings table, as {@link tally} lines. A row reads
 * `` | `CHECK_ID` | severity | confidence | `file` | count | why | ``; a row without a reason is
 * not one.
 */
async function explained(): Promise<string[]> {
  const doc = await readFile(join(root, 'docs', 'security.md'), 'utf8');
  const section = doc.split(/^## /m).find((part) => part.startsWith('Electronegativity'));
  const row =
    /^\|\s*`([A-Z_]+)`\s*\|\s*(\w+)\s*\|\s*(\w+)\s*\|\s*`([^`]+)`\s*\|\s*(\d+)\s*\|\s*\S.*\|$/;
  const entries: Entry[] = [];
  for (const line of (section ?? '').split('\n')) {
    const match = row.exec(line.trim());
    if (match) {
      const [, id, severity, confidence, file, count] = match as unknown as string[];
      for (let i = 0; i < Number(count); i += 1) {
        entries.push({ id: id!, severity: severity!, confidence: confidence!, file: file! });
      }
    }
  }
  return tally(entries);
}

describe('Electronegativity over the sources', () => {
  it('reads every file: none is skipped for a parse error', () => {
    expect(result.errors).toEqual([]);
  });

  it('finds nothing that docs/security.md does not explain', async () => {
    const { lines, details } = counted();
    const documented = new Set(await explained());
    const unexplained = lines.filter((line) => !documented.has(line));
    expect(
      unexplained,
      `Fix what docs/security.md does not explain, or explain it there. Found:\n${details}`,
    ).toEqual([]);
  });

  it('still finds everything docs/security.md explains, so the table stays true', async () => {
    const found = new Set(counted().lines);
    const stale = (await explained()).filter((line) => !found.has(line));
    expect(stale, 'These rows of docs/security.md match no finding any more').toEqual([]);
  });

  it('is told of every finding: no inline eng-disable comment hides one', async () => {
    const hiding: string[] = [];
    for (const folder of SCANNED) {
      for (const entry of await readdir(join(root, folder), { recursive: true })) {
        if (/\.(ts|tsx|js|html)$/.test(entry)) {
          const text = await readFile(join(root, folder, entry), 'utf8');
          if (/eng-disable/.test(text)) {
            hiding.push(join(folder, entry));
          }
        }
      }
    }
    expect(hiding).toEqual([]);
  });
});

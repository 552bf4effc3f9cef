/**
 * `npm run bench -- recovery`: how long tabs wait when their agent crashes. Three tabs of the
 * demo agent share one process; `/crash` in one ends it, and Airlock restarts it by itself and
 * each tab picks up its session (see main/core/agents/recovery.ts). Timed from the crash (the
 * tabs seeing the agent exit) to all three ready again in their sessions, over several runs.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type {
  EventPayload,
  SessionSummary,
  TranscriptEvent,
} from '../../preload/shared/contract.js';
import { AirlockCore } from '../../main/core/core.js';
import { demoAgentSpec } from '../helpers/agents.js';
import { ms, spread } from './spread.js';

const RUNS = 5;
const TABS = 3;

/** One run: a fresh core and three tabs; the time from the crash to all three ready again. */
async function once(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'airlock-bench-recovery-'));
  const settingsPath = join(dir, 'settings.json');
  await writeFile(settingsPath, '{}');
  const core = new AirlockCore({
    settingsPath,
    logsDir: join(dir, 'logs'),
    demoAgent: demoAgentSpec(),
    defaultCwd: dir,
  });
  try {
    await core.init();
    const status = new Map<string, SessionSummary['status']>();
    const restarted = new Set<string>();
    let exitedAt: number | undefined;
    let changed = () => undefined as void;
    core.onEvent((channel, payload) => {
      if (channel === 'session:onDidChange') {
        const summary = payload as SessionSummary;
        status.set(summary.key, summary.status);
      } else if (channel === 'session:onDidAppend') {
        const { key, events } = payload as EventPayload<'session:onDidAppend'>;
        for (const event of events as TranscriptEvent[]) {
          if (event.type === 'agent_exit') {
            exitedAt ??= performance.now();
          }
          if (event.type === 'system' && event.text.startsWith('Restarted ')) {
            restarted.add(key);
          }
        }
      }
      changed();
    });
    const until = (done: () => boolean) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (done()) {
            changed = () => undefined;
            resolve();
          }
        };
        changed = check;
        check();
      });
    const keys: string[] = [];
    for (let i = 0; i < TABS; i++) {
      const { key } = (await core.invoke('session:create', {
        agentName: 'Demo Agent',
        cwd: dir,
      })) as { key: string };
      keys.push(key);
    }
    await until(() => keys.every((key) => status.get(key) === 'ready'));
    await core.invoke('session:prompt', { key: keys[0]!, text: '/crash' });
    await until(() => keys.every((key) => restarted.has(key) && status.get(key) === 'ready'));
    return performance.now() - exitedAt!;
  } finally {
    await core.dispose();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function recoveryBench(): Promise<void> {
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    runs.push(await once());
  }
  console.log(`a crashed agent with ${TABS} tabs, ${RUNS} runs:`);
  console.log(`  from the crash to every tab ready again in its session: ${spread(runs, ms)}`);
}

import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatReport } from '../../../../main/cli/probe.js';
import { probeAgent } from '../../../../main/core/agents/probe.js';
import { DEFAULT_TIMEOUTS } from '../../../../main/core/agent-connection.js';
import { demoAgentSpec } from '../../../helpers/agents.js';

describe('airlock probe', () => {
  it('reports what Airlock offers the agent, file methods included', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'airlock-probe-'));
    const report = await probeAgent(demoAgentSpec(), {
      logsDir: join(dir, 'logs'),
      timeouts: DEFAULT_TIMEOUTS,
      cwd: dir,
    });
    expect(report.offered?.fs).toEqual({ readTextFile: true, writeTextFile: true });
    const text = formatReport(report);
    expect(text).toContain('Airlock offers\n');
    expect(text.split('\n')).toEqual(
      expect.arrayContaining(['  fs.readTextFile: yes', '  fs.writeTextFile: yes']),
    );
  });
});

/**
 * A settings file pasted from Zed as Zed writes it today, through the web host in Chromium: an
 * agent from the ACP registry, a custom agent and a broken entry. The custom agent is offered
 * in the new-session dialog, the registry agent shows where it comes from (no command form to
 * edit), and the broken entry is listed in the settings view with its line and reason.
 *
 * Screens are saved to /tmp/shots/settings/, light and dark, wide and 420 px, to be looked at.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { offeredAgents } from '../helpers/app-page.js';
import { useSettingsView } from '../helpers/settings-view.js';

const SHOTS = '/tmp/shots/settings';
const FILE = `// Pasted from Zed
{
  "theme": "One Dark",
  "agent_servers": {
    "claude-acp": {
      "type": "registry",
      "default_mode": "plan",
    },
    "Helper": {
      "type": "custom",
      "command": "helper-agent",
      "args": ["--acp"],
    },
    "Broken": {
      "type": "custom",
      "args": ["--acp"],
    },
  },
}
`;

// No network: the registry is the copy bundled with Airlock, which lists claude-acp.
const previousUrl = process.env.AIRLOCK_REGISTRY_URL;
process.env.AIRLOCK_REGISTRY_URL = 'http://127.0.0.1:9/registry.json';
afterAll(() => {
  if (previousUrl === undefined) {
    delete process.env.AIRLOCK_REGISTRY_URL;
  } else {
    process.env.AIRLOCK_REGISTRY_URL = previousUrl;
  }
});

const { page, view, agentList, openSettings, shoot, seriousInView } = useSettingsView(FILE, SHOTS);

describe('a settings file as Zed writes it today', () => {
  it('offers every usable agent and lists the broken entry with its line and reason', async () => {
    await openSettings();
    expect(await offeredAgents(page())).toEqual(['Demo Agent', 'claude-acp', 'Helper']);

    const unusable = view().getByRole('list', { name: 'Unusable entries' });
    const items = await unusable.getByRole('listitem').allInnerTexts();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatch(/^Broken\n/);
    expect(items[0]).toMatch(/settings\.json, line 14: agent_servers\.Broken\.command: is missing/);
    await expect(unusable.getByRole('button', { name: 'Remove Broken' }).isEnabled()).resolves.toBe(
      true,
    );

    // Shown by the registry's name for it, its id beside.
    const registry = agentList().getByRole('listitem', { name: /^Claude Agent/ });
    expect((await registry.innerText()).replace(/\s+/g, ' ')).toContain('Claude Agent claude-acp');
    expect((await registry.innerText()).replace(/\s+/g, ' ')).toContain(
      'From the ACP registry: Airlock installs and runs it.',
    );
    await expect(registry.getByRole('button', { name: 'Edit Claude Agent' }).count()).resolves.toBe(
      0,
    );
    await expect(
      registry.getByRole('button', { name: 'Remove Claude Agent' }).count(),
    ).resolves.toBe(1);
    const helper = agentList().getByRole('listitem', { name: 'Helper' });
    await expect(helper.getByRole('button', { name: 'Edit Helper' }).count()).resolves.toBe(1);

    expect(await seriousInView()).toEqual([]);
    await shoot('zed-today-wide');
    await page().setViewportSize({ width: 420, height: 900 });
    await unusable.scrollIntoViewIfNeeded();
    await shoot('zed-today-420');
  });
});

/**
 * MCP servers and `ask_before_writes` in the agents' settings view, through the web host in
 * Chromium: the servers every agent gets and an agent's own listed as text with their secrets
 * hidden, the checkbox written to the file by keyboard (its comments kept), Test showing both
 * sides and the servers given, and axe.
 *
 * Screens are saved to /tmp/airlock-shots/mcp/, light and dark, to be looked at.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSettingsView } from '../helpers/settings-view.js';

const SHOTS = '/tmp/airlock-shots/mcp';
const FILE = `// MCP servers, by hand.
{
  "context_servers": {
    "files": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/srv/notes"],
      "env": { "GITHUB_TOKEN": "ghp_do_not_show_me_0123", "LOG_LEVEL": "debug" },
    },
    "docs": {
      "url": "https://mcp.example.com/mcp",
      "headers": { "Authorization": "Bearer do-not-show-me" },
    },
    "postgres": { "settings": { "database_url": "postgres://localhost" } },
  },
  "agent_servers": {
    "Helper": {
      "command": "helper-agent",
      "context_servers": {
        "events": { "url": "https://events.example.com/sse", "type": "sse" },
      },
    },
  },
}
`;

const { app, page, view, openSettings, shoot, seriousInView } = useSettingsView(FILE, SHOTS);

describe('MCP servers in the settings view', () => {
  it('lists the servers every agent gets and an agent’s own, secrets hidden, and where to edit them', async () => {
    await openSettings();
    const global = view().getByRole('list', { name: 'MCP servers for every agent' });
    const items = await global.getByRole('listitem').allInnerTexts();
    expect(items.map((text) => text.replace(/\s+/g, ' ').trim())).toEqual([
      'files Local (stdio) npx -y @modelcontextprotocol/server-filesystem /srv/notes Variables: GITHUB_TOKEN (hidden), LOG_LEVEL=debug',
      'docs Remote (HTTP) https://mcp.example.com/mcp Headers: Authorization (hidden)',
      'postgres Zed extension Airlock cannot start a Zed extension’s server; it is not given to agents.',
    ]);
    const own = view().getByRole('list', { name: 'MCP servers of Helper' });
    expect((await own.innerText()).replace(/\s+/g, ' ').trim()).toBe(
      'events Remote (SSE) https://events.example.com/sse',
    );
    const text = await view().innerText();
    expect(text).not.toContain('do_not_show_me');
    expect(text).not.toContain('do-not-show-me');
    expect(text).toContain(join(app().configDir, 'settings.json'));
    await shoot('settings');
    // The form for that agent says its servers stay as they are.
    await view().getByRole('button', { name: 'Edit Helper' }).click();
    await page().getByText('Its own MCP servers (events) are kept as they are').waitFor();
  });

  it('sets ask_before_writes from the keyboard, keeping the file’s comments', async () => {
    await openSettings();
    const box = view().getByRole('checkbox', { name: 'Ask before an agent writes a file' });
    expect(await box.isChecked()).toBe(false);
    await box.focus();
    await page().keyboard.press('Space');
    const file = join(app().configDir, 'settings.json');
    await expect.poll(() => readFile(file, 'utf8')).toContain('"ask_before_writes": true');
    expect(await readFile(file, 'utf8')).toContain('// MCP servers, by hand.');
    // The box shows what the file now says, once the core has read it again.
    await expect.poll(() => box.isChecked()).toBe(true);
    await shoot('checked');
    await page().keyboard.press('Space');
    await expect.poll(() => readFile(file, 'utf8')).toContain('"ask_before_writes": false');
    await expect.poll(() => box.isChecked()).toBe(false);
    // The box follows the file: a hand edit shows without a reload.
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('"ask_before_writes": false', '"ask_before_writes": true'));
    await expect.poll(() => box.isChecked()).toBe(true);
  });

  it('shows what Test found: both sides of the handshake and the servers given or left out', async () => {
    await openSettings();
    await view().getByRole('button', { name: 'Test Demo Agent' }).click();
    const result = view().getByRole('region', { name: 'Test of Demo Agent' });
    await result.getByText('started and answered').waitFor({ timeout: 60_000 });
    // The handshake's raw keys sit under Details, in words above it.
    await result.locator('summary', { hasText: 'Details' }).click();
    const facts = (await result.locator('dl').allInnerTexts()).join('\n');
    expect(facts).toContain('Airlock offers');
    expect(facts).toContain('fs.writeTextFile: yes');
    expect(facts).toContain('terminal: yes');
    expect(facts).toContain('mcpCapabilities.http: no');
    expect(facts).toContain('files: given, stdio npx');
    expect(facts).toMatch(/docs: left out, it is reached over HTTP/);
    expect(facts).toContain('postgres: left out');
    await result.scrollIntoViewIfNeeded();
    await shoot('test');
  });

  it('has no serious accessibility violation', async () => {
    await openSettings();
    expect(await seriousInView()).toEqual([]);
  });
});

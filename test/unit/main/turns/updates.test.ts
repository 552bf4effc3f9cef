import { describe, expect, it } from 'vitest';
import {
  clip,
  configViews,
  contentView,
  mapUpdate,
  MAX_CHUNK_CHARS,
  splitText,
} from '../../../../main/core/updates.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

const { startWith } = useCore({ timeouts: TEST_TIMEOUTS });

describe('session/update variants', () => {
  it('turns every stable variant into transcript events and summary fields, and ignores unknown ones', async () => {
    const agent = fixtureSpec('update-variants');
    const started = await startWith(agent);
    const { core, recorder, key } = started;
    const ready = recorder.summaries.get(key)!;
    expect(ready.modes).toEqual([
      { id: 'code', name: 'Code', description: undefined },
      { id: 'plan', name: 'Plan', description: 'Think first' },
    ]);
    expect(ready.currentModeId).toBe('code');

    await core.invoke('session:prompt', { key, text: 'show me everything' });
    expect((await recorder.event(key, 'turn_end')).stopReason).toBe('end_turn');

    // In order, and the unknown variant between the notice and "Part two." left no trace.
    expect(recorder.transcript(key)).toEqual([
      { type: 'prompt', text: 'show me everything' },
      { type: 'chunk', role: 'user', text: 'echoed prompt' },
      { type: 'chunk', role: 'thought', text: 'thinking…' },
      { type: 'chunk', role: 'agent', text: 'Part one. ' },
      { type: 'content', role: 'agent', content: { type: 'image', mimeType: 'image/png' } },
      {
        type: 'content',
        role: 'agent',
        content: { type: 'resource_link', name: 'spec.md', uri: 'file:///work/spec.md' },
      },
      {
        type: 'tool_call',
        toolCallId: 'tc-edit',
        fields: {
          title: 'Edit main.ts',
          kind: 'edit',
          status: 'in_progress',
          locations: [{ path: '/work/main.ts', line: 3 }],
          content: [
            {
              type: 'diff',
              path: '/work/main.ts',
              oldText: 'let a = 1;\n',
              newText: 'const a = 1;\n',
            },
          ],
        },
      },
      {
        type: 'tool_call_update',
        toolCallId: 'tc-edit',
        fields: {
          status: 'completed',
          content: [{ type: 'content', content: { type: 'text', text: 'Edited 1 line.' } }],
        },
      },
      {
        type: 'tool_call',
        toolCallId: 'tc-run',
        fields: { title: 'npm test', kind: 'execute', status: 'pending' },
      },
      {
        type: 'tool_call_update',
        toolCallId: 'tc-run',
        fields: { status: 'failed', content: [{ type: 'terminal', terminalId: 'term-1' }] },
      },
      {
        type: 'plan',
        entries: [
          { content: 'Read the code', priority: 'high', status: 'completed' },
          { content: 'Fix the bug', priority: 'medium', status: 'in_progress' },
          { content: 'Write a test', priority: 'low', status: 'pending' },
        ],
      },
      { type: 'notice', severity: 'warning', title: 'Rate limited', description: 'Slowing down' },
      { type: 'chunk', role: 'agent', text: 'Part two.' },
      { type: 'turn_end', stopReason: 'end_turn' },
    ]);

    const summary = await recorder.status(key, 'ready');
    expect(summary.commands).toEqual([
      { name: 'review', description: 'Review the diff', hint: undefined },
      { name: 'explain', description: 'Explain code', hint: 'what to explain' },
    ]);
    expect(summary.currentModeId).toBe('plan');
    expect(summary.configOptions).toEqual([
      {
        id: 'model',
        name: 'Model',
        currentValue: 'fast',
        choices: [
          { value: 'fast', name: 'Fast' },
          { value: 'deep', name: 'Deep' },
        ],
      },
      { id: 'yolo', name: 'Auto-approve', currentValue: false, choices: [] },
    ]);
    expect(summary.title).toBe('Fixing the bug');
    expect(summary.usage).toEqual({
      used: 1234,
      size: 200_000,
      cost: { amount: 0.42, currency: 'USD' },
    });

    // What the UI fetches when it attaches later is the same transcript.
    const { events } = await started.call('session:getTranscript', { key });
    expect(events).toEqual(recorder.transcript(key));
  });
});

describe('the result of session/prompt', () => {
  it('ends the turn with an error when it has no stop reason, and the session stays usable', async () => {
    const agent = fixtureSpec('wrong-shape-prompt');
    const { core, recorder, key } = await startWith(agent);
    await core.invoke('session:prompt', { key, text: 'go' });
    const error = await recorder.event(key, 'turn_error');
    expect(error.message).toBe(
      'fixture-wrong-shape-prompt ended the turn without saying why it stopped',
    );
    expect(recorder.text(key)).toBe('an answer without an ending');
    expect((await recorder.status(key, 'ready')).status).toBe('ready');

    const before = recorder.transcript(key).length;
    await core.invoke('session:prompt', { key, text: 'again' });
    expect((await recorder.event(key, 'turn_error', before)).message).toContain(
      'without saying why it stopped',
    );
  });
});

describe('a turn the agent fails', () => {
  it('ends with a sentence free of the JSON-RPC code, which goes to the detail', async () => {
    const { core, recorder, key } = await startWith(fixtureSpec('prompt-fails'));
    await core.invoke('session:prompt', { key, text: 'go' });
    const error = await recorder.event(key, 'turn_error');
    expect(error.message).toMatch(
      /^fixture-prompt-fails: Internal error: The model is overloaded($|\. Its log ends with)/,
    );
    expect(error.detail).toBe(
      'JSON-RPC error -32603 answering session/prompt; data: {"details":"The model is overloaded"}',
    );
  });
});

describe('the bounds on what one update carries', () => {
  it('clips a string only when it is longer than its bound', () => {
    expect(clip('x'.repeat(10_000))).toBe('x'.repeat(10_000));
    expect(clip('x'.repeat(10_001))).toBe(`${'x'.repeat(9_999)}…`);
  });

  it('splits text into whole pieces, with no empty piece after an exact multiple', () => {
    const text = 'y'.repeat(MAX_CHUNK_CHARS * 2);
    expect(splitText(text).map((piece) => piece.length)).toEqual([
      MAX_CHUNK_CHARS,
      MAX_CHUNK_CHARS,
    ]);
  });

  it('streams a text chunk of up to MAX_CHUNK_CHARS as one event, and a longer one in pieces', () => {
    const chunk = (text: string) =>
      mapUpdate({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } }).events;
    const whole = 'w'.repeat(MAX_CHUNK_CHARS);
    expect(chunk(whole)).toEqual([{ type: 'chunk', role: 'thought', text: whole }]);
    expect(chunk(`${whole}!`)).toEqual([
      { type: 'chunk', role: 'thought', text: whole },
      { type: 'chunk', role: 'thought', text: '!' },
    ]);
  });

  it('keeps at most 1000 plan entries and commands, 100 options and 1000 choices each', () => {
    const many = Array.from({ length: 1001 }, (_unused, n) => String(n));
    const plan = mapUpdate({
      sessionUpdate: 'plan',
      entries: many.map((content) => ({ content, priority: 'low', status: 'pending' })),
    });
    expect(plan.events[0]?.type === 'plan' && plan.events[0].entries).toHaveLength(1000);
    const commands = mapUpdate({
      sessionUpdate: 'available_commands_update',
      availableCommands: many.map((name) => ({ name, description: name })),
    });
    expect(commands.summary?.commands).toHaveLength(1000);
    const options = configViews(
      many.map((id) => ({
        id,
        name: id,
        type: 'select',
        category: id === '0' ? 'model' : null,
        currentValue: 'v'.repeat(20_000),
        options: many.map((value) => ({ value, name: value })),
      })),
    );
    expect(options).toHaveLength(100);
    expect(options[0]?.choices).toHaveLength(1000);
    expect(options[0]?.currentValue).toHaveLength(10_000);
    expect(options[0]?.category).toBe('model');
    expect(options[1]?.category).toBeUndefined();
  });
});

describe('the rarer shapes of an update', () => {
  it('describes audio and embedded resources by what they are, carrying only text as text', () => {
    expect(
      mapUpdate({
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' },
      }),
    ).toEqual({
      events: [
        { type: 'content', role: 'agent', content: { type: 'audio', mimeType: 'audio/wav' } },
      ],
    });
    expect(
      contentView({
        type: 'resource',
        resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'the notes' },
      }),
    ).toEqual({ type: 'resource', uri: 'file:///notes.txt', text: 'the notes' });
    // A binary resource: its bytes are never shown, only where it is from.
    expect(
      contentView({ type: 'resource', resource: { uri: 'file:///logo.png', blob: 'iVBORw==' } }),
    ).toStrictEqual({ type: 'resource', uri: 'file:///logo.png', text: undefined });
  });

  it('gives no event for an empty text chunk, and changes nothing for a session_info_update without a title', () => {
    expect(
      mapUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '' } }),
    ).toStrictEqual({ events: [] });
    expect(mapUpdate({ sessionUpdate: 'session_info_update', title: null })).toStrictEqual({
      events: [],
    });
    expect(
      mapUpdate({ sessionUpdate: 'session_info_update', updatedAt: '2026-12-02T00:00:00Z' }),
    ).toStrictEqual({ events: [] });
  });

  it("lists a select's grouped choices in order, group after group", () => {
    const [option] = configViews([
      {
        id: 'model',
        name: 'Model',
        type: 'select',
        currentValue: 'fast-1',
        options: [
          {
            group: 'fast',
            name: 'Fast',
            options: [
              { value: 'fast-1', name: 'Fast one' },
              { value: 'fast-2', name: 'Fast two' },
            ],
          },
          { group: 'big', name: 'Big', options: [{ value: 'big', name: 'Big one' }] },
        ],
      },
    ]);
    expect(option?.choices).toEqual([
      { value: 'fast-1', name: 'Fast one' },
      { value: 'fast-2', name: 'Fast two' },
      { value: 'big', name: 'Big one' },
    ]);
  });
});

import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { AirlockApi } from '../../../preload/shared/contract.js';
import type { FormModel } from '../../../preload/shared/form-model.js';
import {
  DiscardPrompt,
  ElicitationCard,
  type ElicitationRow,
} from '../../../renderer/src/components/elicitation-card.js';
import { ElicitationRowView } from '../../../renderer/src/components/elicitation-row.js';

const api: AirlockApi = { invoke: vi.fn(), on: vi.fn() } as unknown as AirlockApi;
let next = 1;

function row(form: FormModel, extra: Partial<ElicitationRow> = {}): ElicitationRow {
  return {
    kind: 'elicitation',
    id: next,
    cardKey: `e${next++}`,
    agent: {
      configName: 'Demo',
      title: 'Demo Agent',
      version: '1.2.3',
      protocolVersion: 1,
      commandLine: 'demo --acp',
    },
    scope: 'session',
    message: 'Why I ask',
    form,
    ...extra,
  };
}

/** The card's markup, rendered as the server renderer would (no effects run). */
function render(form: FormModel, extra: Partial<ElicitationRow> = {}): string {
  return renderToStaticMarkup(
    createElement(ElicitationCard, {
      api,
      sessionKey: 's1',
      sessionLabel: 'the tab “Demo”',
      row: row(form, extra),
    }),
  );
}

const buttons = (html: string) =>
  [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((match) => match[1]);

describe('ElicitationCard', () => {
  it('names who asks, for which tab, and shows the message as text only', () => {
    const card = render(
      { fields: [] },
      { message: '<b>bold</b> [click](https://example.com) <img src=x onerror=alert(1)>' },
    );
    expect(card).toContain('Question from Demo Agent 1.2.3');
    expect(card).toContain('For the tab “Demo”');
    expect(card).toContain('<code>demo --acp</code>');
    expect(card).toContain('&lt;b&gt;bold&lt;/b&gt; [click](https://example.com) &lt;img');
    expect(card).not.toMatch(/<a |<b>|<img/);
  });

  it("quotes the agent's title and message under “<Agent> asks:”, never as a heading", () => {
    const card = render(
      { title: 'Airlock — Sign in', description: 'Enter your details', fields: [] },
      { message: 'Sign in to Airlock' },
    );
    // The app's own heading names the agent.
    expect(card).toMatch(/<h3[^>]*>Question from Demo Agent 1\.2\.3<\/h3>/);
    // The agent's title is in no heading, by element or by role.
    const headings = [...card.matchAll(/<h([1-6])[^>]*>(.*?)<\/h\1>/g)].map((match) => match[2]);
    expect(headings).toEqual(['Question from Demo Agent 1.2.3']);
    expect(card).not.toContain('role="heading"');
    // It is inside the quotation captioned "<Agent> asks:", with the message and description.
    const quoted =
      /<figure[^>]*aria-labelledby="([^"]+)"[^>]*><figcaption id="\1"[^>]*>Demo Agent 1\.2\.3 asks:<\/figcaption><blockquote[^>]*>(.*?)<\/blockquote><\/figure>/.exec(
        card,
      );
    expect(quoted?.[2]).toContain('>Airlock — Sign in</p>');
    expect(quoted?.[2]).toContain('>Sign in to Airlock</p>');
    expect(quoted?.[2]).toContain('>Enter your details</p>');
    expect(card.split('Airlock — Sign in')).toHaveLength(2);
  });

  it('shows every string of the form as text: titles, descriptions, options and defaults', () => {
    // Markup and a link in every place an agent's words reach the card.
    const hostile = (where: string) =>
      `<a href="https://evil.example/${where}">${where}</a> [${where}](https://evil.example) <img src=x>`;
    const options = [
      { value: 'a', title: hostile('option'), description: hostile('option-description') },
      { value: 'b', title: 'Plain' },
    ];
    const card = render({
      title: hostile('form-title'),
      description: hostile('form-description'),
      fields: [
        {
          name: 'text',
          title: hostile('field-title'),
          description: hostile('field-description'),
          required: false,
          kind: 'string',
          default: hostile('default'),
        },
        { name: 'yes', title: hostile('boolean-title'), required: false, kind: 'boolean' },
        { name: 'one', title: 'One', required: true, kind: 'single-select', titled: true, options },
        {
          name: 'many',
          title: 'Many',
          required: false,
          kind: 'multi-select',
          titled: true,
          options,
        },
      ],
    });
    for (const where of [
      'form-title',
      'form-description',
      'field-title',
      'field-description',
      'default',
      'boolean-title',
      'option',
      'option-description',
    ]) {
      expect(card, where).toContain(`&lt;a href=&quot;https://evil.example/${where}&quot;&gt;`);
    }
    expect(card).not.toMatch(/<a[\s>]|<img|\shref="/);
  });

  it('labels every control with its title and marks required ones', () => {
    const card = render({
      fields: [
        { name: 'who', title: 'Your name', required: true, kind: 'string' },
        { name: 'age', title: 'Age', required: false, kind: 'integer', default: 0 },
      ],
    });
    expect(card).toMatch(
      /<label id="(e\d+)-field-0-label" for="\1-field-0"[^>]*>Your name<\/label>/,
    );
    expect(card).toMatch(/<input id="e\d+-field-0"[^>]*aria-required="true"/);
    expect(card).toMatch(/<input id="e\d+-field-1"[^>]*value="0"/);
    expect(buttons(render({ fields: [] }))).toEqual(['Accept', 'Decline', 'Cancel']);
  });

  it('starts a select on "Choose…" unless a required default is chosen', () => {
    const options = [
      { value: 'a', title: 'Alpha', description: 'The first' },
      { value: 'b', title: 'Beta' },
    ];
    const open = render({
      fields: [{ name: 'x', required: true, kind: 'single-select', titled: true, options }],
    });
    expect(open).toMatch(/<select[^>]*><option value="" selected="">Choose…<\/option>/);
    expect(open).toContain('<span class="option-title">Alpha</span>: The first');
    const preset = render({
      fields: [
        { name: 'x', required: true, kind: 'single-select', titled: true, options, default: 'b' },
      ],
    });
    expect(preset).not.toContain('Choose…');
    expect(preset).toContain('<option value="b" selected="">Beta</option>');
  });

  it('never shows a field it cannot draw as a control, and offers no Accept when it is required', () => {
    const form = (required: boolean): FormModel => ({
      fields: [
        { name: 'odd', title: 'Odd', required, kind: 'unsupported', reason: 'its type is _x' },
      ],
    });
    const card = render(form(true));
    expect(card).toContain('Airlock cannot show this field: its type is _x.');
    expect(card).not.toMatch(/<input|<select|<textarea/);
    expect(buttons(card)).toEqual(['Decline', 'Cancel']);
    expect(buttons(render(form(false)))).toEqual(['Accept', 'Decline', 'Cancel']);
  });

  it('warns on the card and on the field when a field asks for a secret', () => {
    const card = render({
      fields: [{ name: 'apiKey', title: 'API key', required: false, kind: 'string' }],
    });
    expect(card).toContain(
      'Form mode must not be used for secrets; do not enter passwords or keys here.',
    );
    expect(card).toMatch(/aria-describedby="[^"]*-secret"/);
  });
});

describe('DiscardPrompt', () => {
  const prompt = (asking: boolean) =>
    renderToStaticMarkup(
      createElement(DiscardPrompt, {
        asking,
        questionId: 'q1-discard',
        keepRef: { current: null },
        onKeep: vi.fn(),
        onDiscard: vi.fn(),
      }),
    );

  it('asks in a polite status, with Keep editing first and Discard, grouped under the question', () => {
    const html = prompt(true);
    expect(html).toMatch(
      /^<span id="q1-discard" class="card-discard-question" role="status">Discard your answers\?<\/span>/,
    );
    expect(html).not.toContain('role="alert"');
    expect(html).toContain('role="group" aria-labelledby="q1-discard"');
    expect(buttons(html)).toEqual(['Keep editing', 'Discard']);
    expect(html).toMatch(/<button type="button" aria-keyshortcuts="Enter">Keep editing/);
    expect(html).toMatch(/aria-keyshortcuts="Escape">Discard</);
  });

  it('keeps the empty status in place while not asking, and offers no buttons', () => {
    expect(prompt(false)).toBe(
      '<span id="q1-discard" class="card-discard-question" role="status"></span>',
    );
  });

  it('is not asking on a card as it opens: Accept, Decline and Cancel, and Esc cancels', () => {
    const html = render({
      fields: [{ name: 'n', title: 'Name', required: false, kind: 'string' }],
    });
    expect(buttons(html)).toEqual(['Accept', 'Decline', 'Cancel']);
    expect(html).toContain('role="status"></span>');
    expect(html).toContain('Enter accepts · Esc cancels');
  });
});

describe('ElicitationRowView', () => {
  const form: FormModel = {
    fields: [{ name: 'n', title: 'Count', required: false, kind: 'integer' }],
  };
  it.each([
    [{ action: 'accept', content: { n: 3 } }, 'Accepted. Sent:Count3'],
    [{ action: 'decline' }, 'Declined'],
    [{ action: 'cancel' }, 'Cancelled'],
    [{ action: 'cancel', ended: 'withdrawn' }, 'Withdrawn by the agent'],
    [{ action: 'cancel', ended: 'turn_cancelled' }, 'Closed: the turn was cancelled'],
    [{ action: 'cancel', ended: 'tab_closed' }, 'Closed: the tab was closed'],
    [{ action: 'cancel', ended: 'agent_exited' }, 'Closed: the agent exited'],
  ] as const)('says how it ended: %o', (resolved, shown) => {
    const html = renderToStaticMarkup(
      createElement(ElicitationRowView, { row: row(form, { resolved }) }),
    );
    expect(html.replace(/<[^>]+>/g, '')).toContain(shown);
  });
});

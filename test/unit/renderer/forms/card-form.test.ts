import { describe, expect, it } from 'vitest';
import type { FormField, FormModel } from '../../../../preload/shared/form-model.js';
import { answerLines } from '../../../../renderer/src/forms/answer-text.js';
import {
  acceptedContent,
  cannotAccept,
  describedBy,
  fieldMetas,
  initialValues,
} from '../../../../renderer/src/forms/card-form.js';
import {
  formatOffset,
  fromLocalInput,
  toLocalInput,
} from '../../../../renderer/src/forms/date-time.js';
import { looksLikeSecret } from '../../../../renderer/src/forms/secret-fields.js';

const text = (name: string, extra: Partial<FormField> = {}): FormField =>
  ({ name, required: false, kind: 'string', ...extra }) as FormField;

const defaults: FormModel = {
  fields: [
    { name: 'retries', required: false, kind: 'integer', default: 0 },
    { name: 'verbose', required: false, kind: 'boolean', default: false },
    { name: 'prefix', required: false, kind: 'string', default: '' },
    { name: 'note', required: false, kind: 'string' },
    { name: 'ask', required: false, kind: 'boolean' },
    { name: 'count', required: false, kind: 'number' },
    {
      name: 'level',
      required: false,
      kind: 'single-select',
      titled: true,
      options: [
        { value: 'low', title: 'Low' },
        { value: 'high', title: 'High' },
      ],
    },
  ],
};

describe('initialValues', () => {
  it('fills each declared default, falsy ones too, and invents nothing else', () => {
    expect(initialValues(defaults)).toEqual({ retries: 0, verbose: false, prefix: '' });
  });
});

describe('acceptedContent', () => {
  it('sends untouched falsy defaults, "" included, and leaves blank fields out', () => {
    expect(acceptedContent(defaults, initialValues(defaults))).toEqual({
      retries: 0,
      verbose: false,
      prefix: '',
    });
  });

  it('does not send "" for a field whose default "" would not be a valid answer', () => {
    const model: FormModel = {
      fields: [
        text('short', { default: '', minLength: 2 }),
        text('mail', { default: '', format: 'email' } as Partial<FormField>),
        text('code', { default: '', pattern: '^[A-Z]+$' } as Partial<FormField>),
        text('any', { default: '', pattern: '^[A-Z]*$' } as Partial<FormField>),
      ],
    };
    expect(acceptedContent(model, initialValues(model))).toEqual({ any: '' });
  });

  it('sends typed values: a number typed as text becomes a number', () => {
    expect(acceptedContent(defaults, { count: '2.5', level: 'high', note: 'hi' })).toEqual({
      count: 2.5,
      level: 'high',
      note: 'hi',
      prefix: '',
    });
  });
});

describe('cannotAccept', () => {
  it('is true only when a field Airlock cannot show is required', () => {
    const odd = (required: boolean): FormModel => ({
      fields: [{ name: 'x', required, kind: 'unsupported', reason: 'type "_tuple"' }],
    });
    expect(cannotAccept(odd(true))).toBe(true);
    expect(cannotAccept(odd(false))).toBe(false);
    expect(cannotAccept(defaults)).toBe(false);
  });
});

describe('fieldMetas', () => {
  it('makes ids from the card and the position, never from the property name', () => {
    const metas = fieldMetas({ fields: [text('first name'), text('x"y')] }, 'e7');
    expect([...metas.values()].map((meta) => meta.domId)).toEqual(['e7-field-0', 'e7-field-1']);
  });

  it('labels a field by its title, or its name when it has none', () => {
    const metas = fieldMetas({ fields: [text('a', { title: 'Alpha' }), text('b')] }, 'e1');
    expect([...metas.values()].map((meta) => meta.label)).toEqual(['Alpha', 'b']);
  });

  it('says the constraints in words, singular where it is one', () => {
    const metas = fieldMetas(
      {
        fields: [
          text('a', { minLength: 1 }),
          text('b', { minLength: 2, maxLength: 40 }),
          { name: 'c', required: false, kind: 'integer', minimum: 0, maximum: 150 },
        ],
      },
      'e1',
    );
    expect([...metas.values()].map((meta) => meta.hint)).toEqual([
      'At least 1 character',
      '2 to 40 characters',
      'A whole number from 0 to 150',
    ]);
  });

  it('asks Yes or No only for a required yes/no question with no default', () => {
    const metas = fieldMetas(
      {
        fields: [
          { name: 'a', required: true, kind: 'boolean' },
          { name: 'b', required: true, kind: 'boolean', default: true },
          { name: 'c', required: false, kind: 'boolean' },
        ],
      },
      'e1',
    );
    expect([...metas.values()].map((meta) => meta.yesNo)).toEqual([true, false, false]);
  });

  it('points a control only at the parts it has, errors first when they show', () => {
    const meta = fieldMetas({ fields: [text('a', { description: 'd' })] }, 'e1').get('a')!;
    expect(describedBy(meta, false)).toBe('e1-field-0-description');
    expect(describedBy(meta, true)).toBe('e1-field-0-errors e1-field-0-description');
    const bare = fieldMetas({ fields: [text('a')] }, 'e1').get('a')!;
    expect(describedBy(bare, false)).toBeUndefined();
  });
});

describe('looksLikeSecret', () => {
  it.each([
    'password',
    'Passphrase',
    'apiKey',
    'OPENAI_API_KEY',
    'GitHub token',
    'Personal access token',
    'client_secret',
    'SSH private key',
    'Recovery codes',
    'Card number',
    'CVV',
    'One-time code',
  ])('warns for %s', (name) => {
    expect(looksLikeSecret(text(name))).toBe(true);
  });

  it.each(['name', 'Email', 'Passport number', 'Max tokens', 'Pin the version', 'Username'])(
    'does not warn for %s',
    (name) => {
      expect(looksLikeSecret(text(name))).toBe(false);
    },
  );

  it('reads the title and the description too', () => {
    expect(looksLikeSecret(text('x', { title: 'Your password' }))).toBe(true);
    expect(looksLikeSecret(text('x', { description: 'Paste your API key here' }))).toBe(true);
  });
});

describe('date-time answers', () => {
  it('formats offsets east and west of UTC', () => {
    expect(formatOffset(120)).toBe('+02:00');
    expect(formatOffset(-330)).toBe('-05:30');
    expect(formatOffset(0)).toBe('+00:00');
  });

  it('sends the wall-clock time typed, with the local offset at that date', () => {
    const answer = fromLocalInput('2026-07-28T09:30')!;
    expect(answer).toMatch(/^2026-07-28T09:30:00[+-]\d{2}:\d{2}$/);
    const offset = -new Date(2026, 6, 28, 9, 30).getTimezoneOffset();
    expect(answer.endsWith(formatOffset(offset))).toBe(true);
    expect(new Date(answer).getTime()).toBe(new Date(2026, 6, 28, 9, 30).getTime());
  });

  it('leaves an empty or incomplete input unanswered', () => {
    expect(fromLocalInput('')).toBeUndefined();
    expect(fromLocalInput('2026-07-28')).toBeUndefined();
  });

  it('shows an answer (or a default) in local time, and nothing for what it cannot read', () => {
    const local = toLocalInput(fromLocalInput('2026-07-28T09:30:15'));
    expect(local).toBe('2026-07-28T09:30:15');
    expect(toLocalInput(fromLocalInput('2026-07-28T09:30'))).toBe('2026-07-28T09:30');
    expect(toLocalInput('not a date')).toBe('');
    expect(toLocalInput(undefined)).toBe('');
  });
});

describe('answerLines', () => {
  it('lists what was sent by title, options by title, yes/no as words, in field order', () => {
    const model: FormModel = {
      fields: [
        text('who', { title: 'Name' }),
        {
          name: 'level',
          required: false,
          kind: 'single-select',
          titled: true,
          options: [{ value: 'hi', title: 'High' }],
        },
        {
          name: 'tags',
          required: false,
          kind: 'multi-select',
          titled: true,
          options: [
            { value: 'a', title: 'Alpha' },
            { value: 'b', title: 'Beta' },
          ],
        },
        { name: 'ok', required: false, kind: 'boolean', title: 'Fine' },
        { name: 'n', required: false, kind: 'integer' },
      ],
    };
    expect(
      answerLines(model, { n: 0, ok: false, tags: ['b', 'a'], level: 'hi', who: 'Ada' }).map(
        (line) => `${line.label}: ${line.text}`,
      ),
    ).toEqual(['Name: Ada', 'level: High', 'tags: Beta, Alpha', 'Fine: No', 'n: 0']);
  });
});

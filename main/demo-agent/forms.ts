/**
 * The demo agent's form-mode elicitations: one schema per command, each showing part of what
 * Airlock renders, and the schemas Airlock must refuse.
 */
import type * as acp from '@agentclientprotocol/sdk';

type Schema = acp.ElicitationSchema;

/** `/form`: every field type, with constraints and formats. */
export const EVERY_FIELD: Schema = {
  type: 'object',
  title: 'Tell the demo agent about yourself',
  description: 'Every field type Airlock renders. Only name and email are required.',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 40 },
    email: { type: 'string', title: 'Email', format: 'email' },
    homepage: { type: 'string', title: 'Homepage', format: 'uri' },
    birthday: { type: 'string', title: 'Birthday', format: 'date' },
    meeting: {
      type: 'string',
      title: 'Next meeting',
      description: 'A date and time, sent with its offset',
      format: 'date-time',
    },
    code: {
      type: 'string',
      title: 'Project code',
      description: 'Three capitals, a dash and three digits, like ABC-123',
      pattern: '^[A-Z]{3}-[0-9]{3}$',
    },
    age: { type: 'integer', title: 'Age', minimum: 0, maximum: 150 },
    budget: { type: 'number', title: 'Budget (EUR)', minimum: 0, maximum: 1_000_000 },
    subscribe: { type: 'boolean', title: 'Subscribe to updates' },
    language: { type: 'string', title: 'Language', enum: ['TypeScript', 'Rust', 'Go'] },
  },
  required: ['name', 'email'],
};

/** `/form-titled`: a titled single select, each option with a description. */
export const TITLED_SELECT: Schema = {
  type: 'object',
  properties: {
    strategy: {
      type: 'string',
      title: 'How should I approach the refactoring?',
      oneOf: [
        { const: 'conservative', title: 'Conservative', description: 'Small, safe steps' },
        { const: 'balanced', title: 'Balanced', description: 'Some restructuring' },
        { const: 'aggressive', title: 'Aggressive', description: 'Rewrite what needs it' },
      ],
    },
  },
  required: ['strategy'],
};

/** `/form-multi`: untitled and titled multi selects with bounds. */
export const MULTI_SELECT: Schema = {
  type: 'object',
  properties: {
    targets: {
      type: 'array',
      title: 'Platforms to build for',
      description: 'Choose one or two',
      minItems: 1,
      maxItems: 2,
      items: { type: 'string', enum: ['linux', 'macos', 'windows'] },
    },
    checks: {
      type: 'array',
      title: 'Checks to run',
      items: {
        anyOf: [
          { const: 'lint', title: 'Lint' },
          { const: 'types', title: 'Type check' },
          { const: 'tests', title: 'Unit tests' },
        ],
      },
    },
  },
  required: ['targets'],
};

/** `/form-defaults`: defaults, falsy ones included, pre-filled. */
export const DEFAULTS: Schema = {
  type: 'object',
  properties: {
    retries: { type: 'integer', title: 'Retries', default: 0, minimum: 0 },
    verbose: { type: 'boolean', title: 'Verbose output', default: false },
    prefix: { type: 'string', title: 'Branch prefix', default: '' },
    level: { type: 'string', title: 'Log level', enum: ['info', 'debug'], default: 'info' },
    ratio: { type: 'number', title: 'Sample ratio', default: 0.5, minimum: 0, maximum: 1 },
  },
};

/** `/form-tool` and `/form-setup`: one short question. */
export const CONFIRM_NAME: Schema = {
  type: 'object',
  properties: {
    branch: { type: 'string', title: 'Branch name', minLength: 1, default: 'demo/feature' },
  },
  required: ['branch'],
};

/** `/form-setup`: asked while a tab starts, when "Ask at start" is on. */
export const SETUP: Schema = {
  type: 'object',
  title: 'Set up this session',
  properties: {
    project: { type: 'string', title: 'Project name', minLength: 1 },
    careful: { type: 'boolean', title: 'Ask before every change', default: true },
  },
  required: ['project'],
};

/**
 * `/form-lookalike`: a form whose title and message read as if the app itself asked, as an agent
 * may write them; the card shows them as the agent's words.
 */
export const LOOKALIKE: Schema = {
  type: 'object',
  title: 'Airlock — Sign in',
  description: 'Your Airlock session has expired.',
  properties: {
    account: { type: 'string', title: 'Account email', format: 'email' },
  },
  required: ['account'],
};

/** `/form-invalid`: schemas outside the flat subset, each with what is wrong with it. */
export const INVALID_SCHEMAS: { what: string; schema: unknown }[] = [
  {
    what: 'a nested object',
    schema: {
      type: 'object',
      properties: { address: { type: 'object', properties: { city: { type: 'string' } } } },
    },
  },
  {
    what: 'a $ref',
    schema: { type: 'object', properties: { a: { $ref: '#/$defs/x' } }, $defs: { x: {} } },
  },
  {
    what: 'an array of numbers',
    schema: { type: 'object', properties: { n: { type: 'array', items: { type: 'number' } } } },
  },
  {
    what: 'a top-level allOf',
    schema: { type: 'object', properties: {}, allOf: [{ required: ['a'] }] },
  },
  { what: 'a schema that is not an object', schema: 'name please' },
  {
    what: 'a required field that does not exist',
    schema: { type: 'object', properties: {}, required: ['ghost'] },
  },
];

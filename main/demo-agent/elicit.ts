/**
 * The demo agent's elicitation commands: each asks, then prints what came back, so the whole
 * round trip shows in the transcript.
 */
import * as acp from '@agentclientprotocol/sdk';
import { randomUUID } from 'node:crypto';
import {
  CONFIRM_NAME,
  DEFAULTS,
  EVERY_FIELD,
  INVALID_SCHEMAS,
  MULTI_SELECT,
  TITLED_SELECT,
  LOOKALIKE,
} from './forms.js';

/** How the demo agent tells the user something: streamed text in the session. */
export type Say = (text: string) => Promise<void>;

/** Whether the client advertised form mode in `initialize`. */
export type FormSupport = () => boolean;

/** The text the demo agent prints for an elicitation's outcome. */
export function describeOutcome(outcome: acp.CreateElicitationResponse | Error): string {
  if (outcome instanceof acp.RequestError) {
    // The JSON-RPC code is for the log; the person reading the reply gets the reason.
    process.stderr.write(`demo agent: elicitation refused: ${outcome.code} ${outcome.message}\n`);
    return `Airlock refused it: ${outcome.message.replace(/^Invalid params: /, '')}`;
  }
  if (outcome instanceof Error) {
    return `The request failed: ${outcome.message}`;
  }
  switch (outcome.action) {
    case 'accept':
      return `You answered: accept, with ${JSON.stringify(outcome.content ?? {})}`;
    case 'decline':
      return 'You answered: decline.';
    default:
      return 'You answered: cancel.';
  }
}

async function ask(
  client: acp.AgentContext,
  params: acp.CreateElicitationRequest,
  signal?: AbortSignal,
): Promise<acp.CreateElicitationResponse | Error> {
  try {
    return await client.request(acp.methods.client.elicitation.create, params, {
      cancellationSignal: signal,
    });
  } catch (error) {
    return error as Error;
  }
}

/** The form commands, by name; each returns when its answer has been printed. */
export function formCommands(
  client: acp.AgentContext,
  sessionId: string,
  say: Say,
  supported: FormSupport,
): Record<string, (arg?: string) => Promise<void>> {
  const form = async (message: string, requestedSchema: acp.ElicitationSchema, extra = {}) =>
    say(
      describeOutcome(
        await ask(client, { sessionId, mode: 'form', message, requestedSchema, ...extra }),
      ),
    );
  const guard =
    (run: (arg?: string) => Promise<void>) =>
    async (arg?: string): Promise<void> => {
      if (!supported()) {
        await say('This client did not advertise form elicitation, so I will not ask.');
        return;
      }
      await run(arg);
    };
  return {
    '/form': guard(() => form('Tell me a little about yourself, for the demo.', EVERY_FIELD)),
    '/form-titled': guard(() => form('Choose an approach.', TITLED_SELECT)),
    '/form-lookalike': guard(() => form('Airlock: sign in again to go on.', LOOKALIKE)),
    '/form-multi': guard(() => form('Choose what to build and check.', MULTI_SELECT)),
    '/form-defaults': guard(() =>
      form('Check these settings; the defaults are filled in.', DEFAULTS),
    ),
    '/form-tool': guard(async () => {
      const toolCallId = `call_${randomUUID().slice(0, 8)}`;
      await client.notify(acp.methods.client.session.update, {
        sessionId,
        update: {
          sessionUpdate: 'tool_call',
          toolCallId,
          title: 'Create a branch',
          kind: 'execute',
          status: 'pending',
        },
      });
      const outcome = await ask(client, {
        sessionId,
        toolCallId,
        mode: 'form',
        message: 'What should the branch be called?',
        requestedSchema: CONFIRM_NAME,
      });
      const accepted = !(outcome instanceof Error) && outcome.action === 'accept';
      await client.notify(acp.methods.client.session.update, {
        sessionId,
        update: {
          sessionUpdate: 'tool_call_update',
          toolCallId,
          status: accepted ? 'completed' : 'failed',
        },
      });
      await say(describeOutcome(outcome));
    }),
    '/form-burst': guard(async (arg) => {
      const count = Math.min(Math.max(Number.parseInt(arg ?? '3', 10) || 3, 1), 100);
      const outcomes = await Promise.all(
        Array.from({ length: count }, (_unused, index) =>
          ask(client, {
            sessionId,
            mode: 'form',
            message: `Question ${index + 1} of ${count}: anything to add?`,
            requestedSchema: {
              type: 'object',
              properties: { note: { type: 'string', title: `Note ${index + 1}` } },
            },
          }),
        ),
      );
      await say(
        outcomes.map((outcome, index) => `${index + 1}. ${describeOutcome(outcome)}`).join('\n'),
      );
    }),
    // Not listed in /help: for tests of a card that arrives while the user is typing.
    '/form-later': guard(async (arg) => {
      const seconds = Math.min(Math.max(Number.parseFloat(arg ?? '2') || 2, 0.1), 60);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      await form(`I waited ${seconds} seconds to ask this.`, CONFIRM_NAME);
    }),
    '/form-withdraw': guard(async (arg) => {
      const seconds = Math.min(Math.max(Number.parseFloat(arg ?? '3') || 3, 0.1), 60);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), seconds * 1000);
      const outcome = await ask(
        client,
        {
          sessionId,
          mode: 'form',
          message: `I will withdraw this question in ${seconds} seconds.`,
          requestedSchema: CONFIRM_NAME,
        },
        controller.signal,
      );
      clearTimeout(timer);
      await say(
        controller.signal.aborted
          ? `I withdrew the question. ${describeOutcome(outcome)}`
          : describeOutcome(outcome),
      );
    }),
    '/form-invalid': guard(async () => {
      const lines: string[] = [];
      for (const { what, schema } of INVALID_SCHEMAS) {
        const outcome = await ask(client, {
          sessionId,
          mode: 'form',
          message: `This form has ${what}.`,
          requestedSchema: schema as acp.ElicitationSchema,
        });
        lines.push(`- ${what}: ${describeOutcome(outcome)}`);
      }
      const noMode = await ask(client, {
        sessionId,
        message: 'No mode at all.',
      } as unknown as acp.CreateElicitationRequest);
      lines.push(`- no mode: ${describeOutcome(noMode)}`);
      const foreign = await ask(client, {
        sessionId: 'not-a-session-of-yours',
        mode: 'form',
        message: 'Someone else\u2019s session.',
        requestedSchema: CONFIRM_NAME,
      });
      lines.push(`- another session id: ${describeOutcome(foreign)}`);
      await say(['Schemas Airlock must refuse, and what came back:', ...lines].join('\n'));
    }),
  };
}

/**
 * The demo agent's URL-mode elicitations: an offline OAuth-like flow against a consent page the
 * demo agent serves on 127.0.0.1, and URLs Airlock must warn about or refuse.
 */
import * as acp from '@agentclientprotocol/sdk';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { describeOutcome, type Say } from './elicit.js';

/** What the user did on the consent page. */
type Decision = 'authorized' | 'denied';

const decisions = new Map<string, (decision: Decision) => void>();
let server: Promise<{ server: Server; origin: string }> | undefined;

/** The consent page's server, started on first use on a free loopback port. */
function consentServer(): Promise<{ server: Server; origin: string }> {
  server ??= new Promise((resolve, reject) => {
    const http = createServer((request, response) => {
      const match = /^\/consent\/([\w-]{1,80})(?:\/(authorize|deny))?$/.exec(request.url ?? '');
      const id = match?.[1];
      if (!id || !decisions.has(id)) {
        response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
        response.end('This consent request is over.');
        return;
      }
      if (request.method === 'POST' && match?.[2]) {
        const decision: Decision = match[2] === 'authorize' ? 'authorized' : 'denied';
        decisions.get(id)?.(decision);
        decisions.delete(id);
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        response.end(page(`You ${decision} the demo agent. You can close this window.`, ''));
        return;
      }
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(
        page(
          'The Airlock demo agent asks to connect to the Demo Service.',
          `<form method="post" action="/consent/${id}/authorize"><button>Authorize</button></form>` +
            `<form method="post" action="/consent/${id}/deny"><button>Deny</button></form>`,
        ),
      );
    });
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => {
      const address = http.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      // Never keeps the demo agent alive on its own.
      http.unref();
      resolve({ server: http, origin: `http://127.0.0.1:${port}` });
    });
  });
  return server;
}

function page(text: string, actions: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Demo Service</title></head><body><h1>Demo Service</h1><p>${text}</p>${actions}</body></html>`;
}

/** A consent request on the demo page: its URL, and the user's decision there. */
async function consentRequest(): Promise<{ url: string; decided: Promise<Decision>; id: string }> {
  const { origin } = await consentServer();
  const id = randomUUID();
  const decided = new Promise<Decision>((resolve) => decisions.set(id, resolve));
  return { id, url: `${origin}/consent/${id}`, decided };
}

async function ask(
  client: acp.AgentContext,
  params: acp.CreateElicitationRequest,
): Promise<acp.CreateElicitationResponse | Error> {
  try {
    return await client.request(acp.methods.client.elicitation.create, params);
  } catch (error) {
    return error as Error;
  }
}

/**
 * Asks, with request scope, to visit the consent page while a tab starts (`/url-setup`), and
 * finishes in the background: `elicitation/complete` once the user decides on the page.
 */
export async function urlAtStart(
  client: acp.AgentContext,
  requestId: acp.RequestId,
): Promise<acp.CreateElicitationResponse | Error> {
  const consent = await consentRequest();
  const elicitationId = `start-${consent.id}`;
  const answer = await ask(client, {
    requestId,
    mode: 'url',
    elicitationId,
    url: consent.url,
    message: 'Before this session starts, connect the Demo Service.',
  });
  if (!(answer instanceof Error) && answer.action === 'accept') {
    void consent.decided.then(() =>
      client.notify(acp.methods.client.elicitation.complete, { elicitationId }),
    );
  } else {
    decisions.delete(consent.id);
  }
  return answer;
}

/** The URL commands, by name; each returns when what it asked has been printed. */
export function urlCommands(
  client: acp.AgentContext,
  sessionId: string,
  say: Say,
  supported: () => boolean,
  cancelled: () => Promise<void>,
): Record<string, () => Promise<void>> {
  const guard = (run: () => Promise<void>) => async (): Promise<void> => {
    if (!supported()) {
      await say('This client did not advertise URL elicitation, so I will not ask.');
      return;
    }
    await run();
  };
  const update = (change: acp.SessionUpdate) =>
    client.notify(acp.methods.client.session.update, { sessionId, update: change });
  const simple = async (url: string, message: string) =>
    say(
      describeOutcome(
        await ask(client, { sessionId, mode: 'url', elicitationId: randomUUID(), url, message }),
      ),
    );
  return {
    '/url': guard(async () => {
      const toolCallId = `call_${randomUUID().slice(0, 8)}`;
      await update({
        sessionUpdate: 'tool_call',
        toolCallId,
        title: 'Connect to the Demo Service',
        kind: 'fetch',
        status: 'pending',
      });
      const consent = await consentRequest();
      const elicitationId = `demo-${consent.id}`;
      const answer = await ask(client, {
        sessionId,
        toolCallId,
        mode: 'url',
        elicitationId,
        url: consent.url,
        message: 'Connect the demo agent to the Demo Service: authorize it on its page.',
      });
      if (answer instanceof Error || answer.action !== 'accept') {
        decisions.delete(consent.id);
        await update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
        await say(describeOutcome(answer));
        return;
      }
      await say('You consented; I am waiting for you on the Demo Service page.');
      const decision = await Promise.race([consent.decided, cancelled().then(() => undefined)]);
      if (decision === undefined) {
        decisions.delete(consent.id);
        await update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
        return;
      }
      await client.notify(acp.methods.client.elicitation.complete, { elicitationId });
      await update({
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: decision === 'authorized' ? 'completed' : 'failed',
      });
      await say(
        decision === 'authorized'
          ? ' The Demo Service is connected.'
          : ' You denied it on the Demo Service page, so I did not connect.',
      );
    }),
    '/url-lookalike': guard(() =>
      // Cyrillic letters that look like "apple.com".
      simple('https://\u0430\u0440\u0440\u04cf\u0435.com/signin', 'Sign in to your account.'),
    ),
    '/url-never-completes': guard(() =>
      simple('https://example.com/never', 'Open this page; I will never say it is done.'),
    ),
    '/url-bad-scheme': guard(async () => {
      const lines: string[] = [];
      for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,hi']) {
        const answer = await ask(client, {
          sessionId,
          mode: 'url',
          elicitationId: randomUUID(),
          url,
          message: 'Open this.',
        });
        lines.push(`- ${url}: ${describeOutcome(answer)}`);
      }
      await say(['URLs Airlock must refuse, and what came back:', ...lines].join('\n'));
    }),
    '/url-duplicate-id': guard(async () => {
      const params: acp.CreateElicitationRequest = {
        sessionId,
        mode: 'url',
        elicitationId: 'same-id',
        url: 'https://example.com/first',
        message: 'Two requests share one id; only the first may stay.',
      };
      // The second goes out while the first waits on the user; its answer is told first.
      const first = ask(client, params);
      const second = await ask(client, { ...params, url: 'https://example.com/second' });
      await say(`2. ${describeOutcome(second)}\n`);
      await say(`1. ${describeOutcome(await first)}`);
    }),
  };
}

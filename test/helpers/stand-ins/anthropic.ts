/**
 * A local stand-in for Anthropic's Messages API, so Claude Code runs end to end with no network.
 *
 * It listens on 127.0.0.1 and answers from a script keyed on the user's prompt text: the first
 * reply answers the prompt, each next one answers the `tool_result` that Claude Code sends back
 * after running the previous reply's tool. Streaming requests get the server-sent events of the
 * real API (`message_start`, `content_block_start`/`_delta`/`_stop`, `message_delta`,
 * `message_stop`); the others get JSON. Every request is recorded for the test to assert on.
 *
 * It is also a proxy that refuses everything: given as `HTTPS_PROXY`, any call Claude Code makes
 * to somewhere else lands here instead of on the network, and is listed in `refused`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordingListener, type RecordedRequest } from './recorded.js';

export type { RecordedRequest } from './recorded.js';

/** One scripted model answer. */
export type Reply =
  /** Streamed text, one delta per string; the turn ends (`end_turn`). */
  | { text: string[] }
  /** Optional text, then a call of one of Claude Code's tools (`stop_reason: tool_use`). */
  | { text?: string[]; toolUse: { name: string; input: Record<string, unknown> } }
  /** Streams these deltas, then keeps the response open until the client disconnects. */
  | { hold: string[] };

/**
 * What the stand-in answers, per prompt text (the {@link latestPrompt}, matched exactly, trimmed).
 *
 * `replies[0]` answers the prompt; `replies[n]` answers the n-th round of tool results after it.
 * A prompt that is not in the script gets a text reply saying so, which no test expects. The
 * script is read at each request, so a test may add prompts to it while the stand-in runs.
 */
export type AnthropicScript = Record<string, Reply[]>;

/** The parts of a Messages API request body the stand-in reads. */
export type MessagesBody = {
  model?: string;
  stream?: boolean;
  messages: { role: 'user' | 'assistant'; content: string | ContentBlock[] }[];
};

/** A content block of a message, as far as the stand-in cares. */
export type ContentBlock = { type: string; text?: string; [key: string]: unknown };

/** A running stand-in. */
export type AnthropicStandIn = {
  /** The base URL to give Claude Code as `ANTHROPIC_BASE_URL` (and as its proxy). */
  url: string;
  /** Every request so far, oldest first. */
  requests: RecordedRequest[];
  /** The `POST /v1/messages` bodies so far, oldest first. */
  messageBodies(): MessagesBody[];
  /** The hosts (`host:port`) something tried to reach through the stand-in as a proxy. */
  refused: string[];
  /** Stops listening and ends any response still held open. */
  close(): Promise<void>;
};

/**
 * The user's latest prompt in a request body: the last text of the last user message with text.
 *
 * Claude Code sends the prompt with reminders and command echoes (text starting with `<`) before
 * it in the same message, and each round of tool results as a user message with no text; both
 * are skipped, so every request of a turn names the prompt that started it.
 */
export function latestPrompt(body: unknown): string | undefined {
  const messages = (body as Partial<MessagesBody> | undefined)?.messages;
  return Array.isArray(messages) ? findPrompt({ messages })?.text : undefined;
}

function findPrompt(body: MessagesBody): { text: string; index: number } | undefined {
  for (let index = body.messages.length - 1; index >= 0; index--) {
    const message = body.messages[index]!;
    const texts = message.role === 'user' ? textsOf(message.content) : [];
    const text = texts.filter((candidate) => !candidate.startsWith('<')).at(-1);
    if (text !== undefined) {
      return { text, index };
    }
  }
  return undefined;
}

/** The scripted reply due for a request: by its latest prompt, and the tool rounds since. */
export function replyFor(script: AnthropicScript, body: MessagesBody): Reply | undefined {
  const prompt = findPrompt(body);
  const replies = prompt ? script[prompt.text] : undefined;
  if (!prompt || !replies) {
    return undefined;
  }
  const rounds = body.messages
    .slice(prompt.index + 1)
    .filter((later) => hasToolResult(later.content));
  return replies[rounds.length];
}

function textsOf(content: string | ContentBlock[]): string[] {
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  return blocks.flatMap((block) =>
    block.type === 'text' && block.text ? [block.text.trim()] : [],
  );
}

function hasToolResult(content: string | ContentBlock[]): boolean {
  return typeof content !== 'string' && content.some((block) => block.type === 'tool_result');
}

/** Starts the stand-in on a free loopback port. */
export async function startAnthropicStandIn(script: AnthropicScript): Promise<AnthropicStandIn> {
  const requests: RecordedRequest[] = [];
  const refused: string[] = [];
  let ids = 0;
  const nextId = (prefix: string) => `${prefix}_stand_in_${++ids}`;

  // A body that is not JSON is kept as its raw text.
  const server = createServer(recordingListener(requests, parseJson, route));
  // An HTTPS request through a proxy starts with CONNECT: refuse it, so nothing leaves the host.
  server.on('connect', (req: IncomingMessage, socket) => {
    refused.push(req.url ?? '');
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });

  function route(request: RecordedRequest, res: ServerResponse): void {
    if (/^https?:/.test(request.path)) {
      // A plain-HTTP request through the proxy names its full URL.
      refused.push(new URL(request.path).host);
      res.writeHead(403).end();
      return;
    }
    const path = request.path.split('?')[0];
    const body = request.body as Partial<MessagesBody> | undefined;
    if (request.method === 'HEAD' && path === '/') {
      // Claude Code checks that the base URL answers before its first call.
      res.writeHead(200).end();
    } else if (request.method !== 'POST' || !path?.startsWith('/v1/messages')) {
      sendError(res, 404, 'not_found_error', `No ${request.method} ${request.path} here`);
    } else if (!Array.isArray(body?.messages)) {
      sendError(res, 400, 'invalid_request_error', 'messages: an array is required');
    } else if (path === '/v1/messages') {
      answerMessages(body as MessagesBody, res);
    } else if (path === '/v1/messages/count_tokens') {
      // A rough count is enough: Claude Code only uses it to judge the context size.
      sendJson(res, 200, { input_tokens: Math.ceil(JSON.stringify(body.messages).length / 4) });
    } else {
      sendError(res, 404, 'not_found_error', `No ${request.method} ${request.path} here`);
    }
  }

  function answerMessages(body: MessagesBody, res: ServerResponse): void {
    const reply = replyFor(script, body) ?? {
      text: [`The stand-in has no scripted reply for ${JSON.stringify(latestPrompt(body))}.`],
    };
    const texts = 'hold' in reply ? reply.hold : (reply.text ?? []);
    const toolUse = 'toolUse' in reply ? { id: nextId('toolu'), ...reply.toolUse } : undefined;
    const stopReason = toolUse ? 'tool_use' : 'end_turn';
    const message = {
      id: nextId('msg'),
      type: 'message',
      role: 'assistant',
      model: body.model ?? 'claude-stand-in',
      stop_sequence: null,
    };
    // Claude Code adds up all four counts for its context meter: leave none out.
    const usage = {
      input_tokens: 10,
      output_tokens: 1,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    };

    if (!body.stream) {
      if ('hold' in reply) {
        return; // Held open until the client gives up.
      }
      const content: object[] = texts.length ? [{ type: 'text', text: texts.join('') }] : [];
      if (toolUse) {
        content.push({ type: 'tool_use', ...toolUse });
      }
      sendJson(res, 200, { ...message, content, stop_reason: stopReason, usage });
      return;
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (type: string, data: object) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    send('message_start', { message: { ...message, content: [], stop_reason: null, usage } });
    let index = 0;
    if (texts.length) {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const text of texts) {
        send('content_block_delta', { index, delta: { type: 'text_delta', text } });
      }
      if ('hold' in reply) {
        return; // The block never ends: the test cancels the turn.
      }
      send('content_block_stop', { index });
      index++;
    }
    if (toolUse) {
      send('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: toolUse.id, name: toolUse.name, input: {} },
      });
      // The input arrives in pieces, as the real API streams it.
      const json = JSON.stringify(toolUse.input);
      const piece = Math.ceil(json.length / 3);
      for (let at = 0; at < json.length; at += piece) {
        send('content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json: json.slice(at, at + piece) },
        });
      }
      send('content_block_stop', { index });
    }
    send('message_delta', {
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: 5 },
    });
    send('message_stop', {});
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    refused,
    messageBodies: () =>
      requests
        .filter(
          (request) => request.method === 'POST' && /^\/v1\/messages(\?|$)/.test(request.path),
        )
        .map((request) => request.body as MessagesBody),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parseJson(raw: string): unknown {
  if (!raw) {
    return undefined;
  }
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function sendError(res: ServerResponse, status: number, type: string, message: string): void {
  sendJson(res, status, {
    type: 'error',
    error: { type, message: `Anthropic stand-in: ${message}` },
  });
}

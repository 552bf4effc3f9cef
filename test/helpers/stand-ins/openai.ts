/**
 * A local stand-in for OpenAI's Responses API, so Codex runs end to end with no network.
 *
 * It listens on 127.0.0.1 and answers `POST /v1/responses` from a script keyed on the latest
 * prompt the user typed: the first reply answers the prompt, each next one answers the tool
 * output that Codex sends back after running the previous reply's tool call. Replies stream as
 * the real API's server-sent events (`response.created`, `response.output_item.added`,
 * `response.output_text.delta`, `response.output_item.done`, `response.completed` with usage).
 * Codex first tries the same path as a WebSocket; the stand-in refuses with 426 Upgrade
 * Required, which makes Codex fall back to HTTP streaming at once and without a warning.
 * Every request is recorded for the test to assert on.
 *
 * It is also a proxy that refuses everything: given as `HTTPS_PROXY` and `HTTP_PROXY`, any call
 * Codex makes to somewhere other than 127.0.0.1 lands here instead of on the network, and is
 * listed in `refused`.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  recordingListener,
  recordRequest,
  refusedAsProxy,
  refuseTunnels,
  type RecordedRequest,
} from './recorded.js';

export type { RecordedRequest } from './recorded.js';

/** A tool call the model makes: Codex runs it and sends its output in the next request. */
export type ToolCall =
  /** A freeform ("custom") tool such as Codex's `apply_patch`, whose input is plain text. */
  | { type: 'custom'; name: string; input: string }
  /** A function tool such as `exec_command`, whose input is JSON arguments. */
  | { type: 'function'; name: string; arguments: Record<string, unknown> };

/** How each kind of tool call goes on the wire: its item type, input field and delta event. */
const CALL_SHAPES = {
  custom: {
    item: 'custom_tool_call',
    field: 'input',
    delta: 'response.custom_tool_call_input.delta',
  },
  function: {
    item: 'function_call',
    field: 'arguments',
    delta: 'response.function_call_arguments.delta',
  },
} as const;

/** One scripted model answer. */
export type Reply =
  /** Streamed text, one delta per string; the response completes. */
  | { text: string[] }
  /** Optional text, then one tool call; the response completes and Codex runs the tool. */
  | { text?: string[]; toolCall: ToolCall }
  /**
   * Streams these deltas, then keeps the response open until the client disconnects. (Codex
   * 0.16.0 keeps it open even after its turn is cancelled; `close()` ends it.)
   */
  | { hold: string[] };

/**
 * What the stand-in answers, per prompt text (matched exactly, trimmed).
 *
 * `replies[0]` answers the prompt; `replies[n]` answers the n-th round of tool output after it.
 * A prompt that is not in the script gets a text reply saying so, which a test will not expect.
 */
export type OpenAiScript = Record<string, Reply[]>;

/** The parts of a Responses API request body the stand-in reads. */
export type ResponsesBody = {
  model?: string;
  stream?: boolean;
  input: InputItem[];
};

/** An item of a request's `input`, as far as the stand-in cares. */
export type InputItem = {
  type?: string;
  role?: string;
  content?: string | { type: string; text?: string }[];
  call_id?: string;
  output?: unknown;
};

/** A running stand-in. */
export type OpenAiStandIn = {
  /** The base URL to give Codex as `openai_base_url`, ending in `/v1`. */
  url: string;
  /** Every request so far, WebSocket attempts included, oldest first. */
  requests: RecordedRequest[];
  /** The `POST /v1/responses` bodies so far, oldest first. */
  responseBodies(): ResponsesBody[];
  /** The hosts (`host:port`) something tried to reach through the stand-in as a proxy. */
  refused: string[];
  /** Stops listening and ends any response still held open. */
  close(): Promise<void>;
};

/**
 * The latest prompt the user typed: the last user message that is not context Codex adds
 * itself (`<environment_context>`, `<turn_aborted>` and the like all start with `<`).
 */
export function latestPrompt(body: ResponsesBody): { prompt: string; index: number } | undefined {
  for (let index = body.input.length - 1; index >= 0; index--) {
    const item = body.input[index]!;
    if ((item.type ?? 'message') !== 'message' || item.role !== 'user') {
      continue;
    }
    const content =
      typeof item.content === 'string'
        ? [{ type: 'input_text', text: item.content }]
        : item.content;
    const prompt = (content ?? [])
      .map((part) => part.text ?? '')
      .join('')
      .trim();
    if (prompt && !prompt.startsWith('<')) {
      return { prompt, index };
    }
  }
  return undefined;
}

/** Finds the reply due for a request: its prompt's, after as many rounds of tool output. */
export function replyFor(script: OpenAiScript, body: ResponsesBody): Reply {
  const found = latestPrompt(body);
  const rounds = body.input
    .slice((found?.index ?? 0) + 1)
    .filter((item) => item.type?.endsWith('_call_output')).length;
  const reply = found && script[found.prompt]?.[rounds];
  return (
    reply ?? {
      text: [
        `The stand-in has no reply scripted for ${JSON.stringify(found?.prompt)} (round ${rounds}).`,
      ],
    }
  );
}

/** Starts the stand-in on a free loopback port. */
export async function startOpenAiStandIn(script: OpenAiScript): Promise<OpenAiStandIn> {
  const requests: RecordedRequest[] = [];
  const refused: string[] = [];
  let ids = 0;
  const nextId = (prefix: string) => `${prefix}_stand_in_${++ids}`;

  const server = createServer(
    recordingListener(requests, (raw) => (raw ? (JSON.parse(raw) as unknown) : undefined), route),
  );
  // Codex opens `GET /v1/responses` as a WebSocket first (and again to prewarm each session).
  // 426 is how a server without WebSockets answers; Codex then streams over HTTP instead.
  server.on('upgrade', (req, socket) => {
    recordRequest(requests, req, undefined);
    const body = errorJson('The stand-in does not speak WebSocket');
    socket.end(
      `HTTP/1.1 426 Upgrade Required\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });

  refuseTunnels(server, refused);

  function route(request: RecordedRequest, res: ServerResponse): void {
    if (refusedAsProxy(request, res, refused)) {
      return;
    }
    const path = request.path.split('?')[0];
    if (request.method === 'POST' && path === '/v1/responses') {
      const body = request.body as ResponsesBody;
      if (!body.stream) {
        sendError(res, 400, 'The stand-in only answers streaming requests (`stream: true`)');
        return;
      }
      stream(body, replyFor(script, body), res);
    } else {
      sendError(res, 404, `The OpenAI stand-in has no ${request.method} ${request.path}`);
    }
  }

  function stream(body: ResponsesBody, reply: Reply, res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (type: string, data: Record<string, unknown>) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    const response = {
      id: nextId('resp'),
      object: 'response',
      model: body.model ?? 'gpt-stand-in',
    };
    send('response.created', { response: { ...response, status: 'in_progress', output: [] } });
    let outputIndex = 0;

    const texts = 'hold' in reply ? reply.hold : (reply.text ?? []);
    if (texts.length) {
      const message = { id: nextId('msg'), type: 'message', role: 'assistant' };
      send('response.output_item.added', {
        output_index: outputIndex,
        item: { ...message, status: 'in_progress', content: [] },
      });
      for (const delta of texts) {
        const at = { item_id: message.id, output_index: outputIndex, content_index: 0 };
        send('response.output_text.delta', { ...at, delta });
      }
      if ('hold' in reply) {
        return; // The item never ends: the test cancels the turn.
      }
      const text = texts.join('');
      send('response.output_item.done', {
        output_index: outputIndex++,
        item: {
          ...message,
          status: 'completed',
          content: [{ type: 'output_text', text, annotations: [] }],
        },
      });
    }

    if ('toolCall' in reply) {
      const call = reply.toolCall;
      const shape = CALL_SHAPES[call.type];
      const input = call.type === 'custom' ? call.input : JSON.stringify(call.arguments);
      const id = nextId(call.type === 'custom' ? 'ctc' : 'fc');
      const item = { id, type: shape.item, call_id: nextId('call'), name: call.name };
      send('response.output_item.added', {
        output_index: outputIndex,
        item: { ...item, [shape.field]: '', status: 'in_progress' },
      });
      // The input arrives in pieces, as the real API streams it.
      const piece = Math.max(1, Math.ceil(input.length / 3));
      for (let at = 0; at < input.length; at += piece) {
        send(shape.delta, {
          item_id: id,
          output_index: outputIndex,
          delta: input.slice(at, at + piece),
        });
      }
      send('response.output_item.done', {
        output_index: outputIndex++,
        item: { ...item, [shape.field]: input, status: 'completed' },
      });
    }

    // Codex reports these counts to the client as the context used.
    const usage = {
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 10,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 110,
    };
    send('response.completed', { response: { ...response, status: 'completed', usage } });
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    refused,
    responseBodies: () =>
      requests
        .filter(
          (request) => request.method === 'POST' && request.path.split('?')[0] === '/v1/responses',
        )
        .map((request) => request.body as ResponsesBody),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * An `apply_patch` input that replaces `before` with `after` in the file at `path` (relative to
 * the session's working folder), in the patch format Codex's tool takes.
 */
export function updateFilePatch(path: string, before: string, after: string): string {
  const lines = (text: string, sign: string) =>
    text
      .replace(/\n$/, '')
      .split('\n')
      .map((line) => `${sign}${line}\n`)
      .join('');
  return `*** Begin Patch\n*** Update File: ${path}\n@@\n${lines(before, '-')}${lines(after, '+')}*** End Patch\n`;
}

function sendError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(errorJson(message));
}

function errorJson(message: string): string {
  return JSON.stringify({ error: { message, type: 'invalid_request_error', code: null } });
}

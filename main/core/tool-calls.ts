/**
 * What a session knows of its tool calls, and how a permission request about one is shown.
 *
 * ACP's `session/request_permission` carries the tool call it is about (its content with diffs,
 * kind, title, locations and raw input), often only the fields that changed since the agent
 * announced it. The card shows everything known of the call before the user answers, and the
 * call's own row records the request and the answer.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type {
  AgentIdentity,
  PermissionOptionView,
  PermissionOutcome,
  ToolCallFields,
  ToolPermissionView,
  TranscriptEvent,
} from '../../preload/shared/contract.js';
import { clip, shown, toolCallFields } from './updates.js';

/** How many tool calls a session remembers (the most recently updated). */
export const MAX_TRACKED_TOOL_CALLS = 1000;

/** Fields of `patch` over `base`: an absent field leaves the one before. */
export function mergeToolFields(
  base: ToolCallFields | undefined,
  patch: ToolCallFields,
): ToolCallFields {
  const merged: ToolCallFields = { ...base };
  for (const [name, value] of Object.entries(patch)) {
    if (value !== undefined) {
      (merged as Record<string, unknown>)[name] = value;
    }
  }
  return merged;
}

/** The fields of each tool call of a session, as its transcript has them so far. */
export class ToolCallLog {
  private readonly calls = new Map<string, ToolCallFields>();

  constructor(private readonly limit = MAX_TRACKED_TOOL_CALLS) {}

  /** Takes in a transcript event; only tool calls and their updates change anything. */
  record(event: TranscriptEvent): void {
    if (event.type !== 'tool_call' && event.type !== 'tool_call_update') {
      return;
    }
    const before = this.calls.get(event.toolCallId);
    // Re-inserted, so the map's order is the order of the latest updates.
    this.calls.delete(event.toolCallId);
    this.calls.set(event.toolCallId, mergeToolFields(before, event.fields));
    if (this.calls.size > this.limit) {
      const oldest = this.calls.keys().next();
      if (!oldest.done) {
        this.calls.delete(oldest.value);
      }
    }
  }

  /** What is known of a tool call, if anything. */
  get(toolCallId: string): ToolCallFields | undefined {
    return this.calls.get(toolCallId);
  }
}

/**
 * The transcript events that show a permission request: an update of its tool call with what
 * the request says of it (so the call's row shows it, and exists even when the agent never
 * announced the call), then the card, with everything known of the call.
 */
export function permissionEvents(
  promptKey: string,
  agent: AgentIdentity,
  request: acp.RequestPermissionRequest,
  known: ToolCallFields | undefined,
): {
  update: Extract<TranscriptEvent, { type: 'tool_call_update' }>;
  card: Extract<TranscriptEvent, { type: 'permission' }>;
} {
  const toolCallId = clip(request.toolCall.toolCallId);
  const asked = toolCallFields(request.toolCall);
  const { permission: _permission, status: _status, ...tool } = mergeToolFields(known, asked);
  return {
    update: { type: 'tool_call_update', toolCallId, fields: { ...asked, permission: 'asked' } },
    card: {
      type: 'permission',
      promptKey,
      agent,
      toolCallId,
      title: tool.title,
      options: permissionOptions(request.options),
      tool,
    },
  };
}

/** The request's options as the card offers them. */
export function permissionOptions(options: acp.PermissionOption[]): PermissionOptionView[] {
  return options.slice(0, 100).map((option) => ({
    // Cut, not clipped: the id goes back to the agent as it was, as far as it goes.
    optionId: option.optionId.slice(0, 10_000),
    name: shown(option.name),
    kind: option.kind,
  }));
}

/**
 * What an answer means for the tool call: an option of kind `allow_*` allows it, `reject_*`
 * rejects it; no answer (or one that names no offered option) leaves it `cancelled`.
 */
export function permissionAnswer(
  outcome: PermissionOutcome,
  options: readonly PermissionOptionView[],
): ToolPermissionView {
  if (outcome.outcome === 'cancelled') {
    return 'cancelled';
  }
  const kind = options.find((option) => option.optionId === outcome.optionId)?.kind;
  return kind === undefined ? 'cancelled' : kind.startsWith('allow') ? 'allowed' : 'rejected';
}

/**
 * The calls on one open tab that need nothing but the tab: its transcript, showing it, a prompt,
 * cancelling the turn, renaming, a permission card's answer and completing paths in its folder.
 */
import { UserFacingError } from '../errors.js';
import { completeFiles } from '../files/complete.js';
import type { Handlers } from '../handlers.js';
import { attachedContent, promptAccepts } from '../prompt-content.js';
import type { Session } from '../session.js';

/** What the tab calls need from the core. */
export type TabCallDeps = {
  /** An open tab by its key, or a user-facing error. */
  tab: (key: string) => Session;
  /** Sends every event queued now (see outbox.ts). */
  flush: () => void;
  /** Names the tab a UI shows: its events go out first (see outbox.ts). */
  show: (key: string) => void;
};

/** The tab calls' handlers. */
export function tabHandlers(
  deps: TabCallDeps,
): Handlers<
  | 'session:getTranscript'
  | 'session:show'
  | 'session:prompt'
  | 'session:cancel'
  | 'session:rename'
  | 'permission:respond'
  | 'files:complete'
> {
  return {
    'session:getTranscript': async ({ key }) => {
      const events = deps.tab(key).events();
      // Send what is queued first, so a UI can take this snapshot plus every later event.
      deps.flush();
      return { events };
    },
    'session:show': async ({ key }) => {
      deps.show(deps.tab(key).key);
      return {};
    },
    'session:prompt': async ({ key, text, attachments }) => {
      const session = deps.tab(key);
      const notReady = () =>
        new UserFacingError(
          session.prompting
            ? 'The agent is still answering; cancel the turn first'
            : 'The session is not ready',
        );
      if (session.summary.status !== 'ready') {
        throw notReady();
      }
      // Only what this agent advertised (prompt-content.ts); checked again after the reads.
      const attached = await attachedContent(attachments, {
        cwd: session.summary.cwd,
        accepts: promptAccepts(session.connection?.capabilities),
        agentName: session.summary.agentName,
      });
      if (session.summary.status !== 'ready') {
        throw notReady();
      }
      void session.runTurn(text, attached);
      return {};
    },
    'files:complete': async ({ key, query }) => completeFiles(deps.tab(key).summary.cwd, query),
    'session:cancel': async ({ key }) => {
      deps.tab(key).cancelTurn();
      return {};
    },
    'session:rename': async ({ key, title }) => {
      deps.tab(key).rename(title);
      return {};
    },
    'permission:respond': async ({ key, promptKey, outcome }) => {
      if (!deps.tab(key).answerPermission(promptKey, outcome)) {
        throw new UserFacingError('That permission request is no longer pending');
      }
      return {};
    },
  };
}

/**
 * Attention: which cards wait on the user, and what a desktop notification says of each.
 *
 * The core's own events are the source: a card opens when its transcript event goes out
 * (`permission`, `elicitation`, `url_elicitation`) and ends with its `…_resolved` event, which
 * every way of ending a card appends (see cards.ts). A host turns each change into a
 * notification while its window is in the background, and the count into a badge; it decides
 * nothing about what to say. The web host does not listen.
 */
import type { EventPayload, TranscriptEvent } from '../../preload/shared/contract.js';
import { oneLine } from './tab-title.js';

/** How many characters of the agent's text a notification shows. */
export const NOTICE_CHARS = 200;

/** A card that just opened, as a notification tells of it. All text is plain text. */
export type AttentionNotice = {
  /** The session the card is on: the one `showWaiting` brings forward. */
  sessionKey: string;
  /** The card's key (a permission's prompt key, an elicitation's card key). */
  cardKey: string;
  /** The agent that asks, as the user named it in the settings. */
  agentName: string;
  /** Who asks, and for what kind of thing. */
  title: string;
  /**
   * What it asks: a permission's tool call title, a form's message. Never a URL, never a
   * field's value or default.
   */
  body: string;
};

/** A change in what waits on the user. */
export type AttentionChange = {
  /** How many cards wait on the user, across all sessions. */
  waiting: number;
  /** The card that just opened, if one did. */
  opened?: AttentionNotice;
  /** The key of the card that just ended, if one did. */
  ended?: string;
};

/** A listener for every {@link AttentionChange}. */
export type AttentionListener = (change: AttentionChange) => void;

/** Follows the cards of every session of one core. */
export class Attention {
  /** The open cards: card key to session key. */
  private readonly open = new Map<string, string>();
  private readonly listeners = new Set<AttentionListener>();

  /** @param agentName the name of the agent of a session, while the session is open */
  constructor(private readonly agentName: (sessionKey: string) => string | undefined) {}

  /** Subscribes to every change; returns the unsubscribe function. */
  subscribe(listener: AttentionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Takes in a batch of transcript events as the core emits it. */
  appended({ key, events }: EventPayload<'session:onDidAppend'>): void {
    for (const event of events) {
      const cardKey = openedCard(event);
      // A card that opens and ends in one batch never reached the user: it is not announced.
      if (
        cardKey !== undefined &&
        !this.open.has(cardKey) &&
        !events.some((other) => endedCard(other) === cardKey)
      ) {
        this.open.set(cardKey, key);
        const agentName = this.agentName(key) ?? 'An agent';
        this.tell({
          waiting: this.open.size,
          opened: { sessionKey: key, cardKey, agentName, ...noticeText(agentName, event) },
        });
      }
      const ended = endedCard(event);
      if (ended !== undefined && this.open.delete(ended)) {
        this.tell({ waiting: this.open.size, ended });
      }
    }
  }

  private tell(change: AttentionChange): void {
    for (const listener of this.listeners) {
      listener(change);
    }
  }
}

/** The key of the card `event` opens, if it opens one. */
function openedCard(event: TranscriptEvent): string | undefined {
  switch (event.type) {
    case 'permission':
      return event.promptKey;
    case 'elicitation':
    case 'url_elicitation':
      return event.cardKey;
    default:
      return undefined;
  }
}

/** The key of the card `event` ends, if it ends one. */
function endedCard(event: TranscriptEvent): string | undefined {
  switch (event.type) {
    case 'permission_resolved':
      return event.promptKey;
    case 'elicitation_resolved':
      return event.cardKey;
    default:
      return undefined;
  }
}

/**
 * What a notification says of a card. The agent's own text (a tool call's title, a form's
 * message) goes in the body only, on one line, bounded; a URL request says only that it is
 * one: the URL, and even its message (which may hold it), stay in the app, where the card
 * shows the full address with its warnings before anything opens.
 */
function noticeText(agentName: string, event: TranscriptEvent): { title: string; body: string } {
  const agent = oneLine(agentName, 100);
  switch (event.type) {
    case 'permission':
      return {
        title: `${agent} asks for permission`,
        body: said(event.title ?? event.tool?.title, 'To run a tool.'),
      };
    case 'elicitation':
      return { title: `${agent} asks for information`, body: said(event.message, 'A form.') };
    default:
      return {
        title: `${agent} asks to open a web page`,
        body: 'Review the address in Airlock before anything opens.',
      };
  }
}

function said(text: string | undefined, otherwise: string): string {
  const line = oneLine(text ?? '', NOTICE_CHARS);
  return line === '' ? otherwise : line;
}

/**
 * Notification text as `platform` shows it, meaning what it says. On Linux, Electron hands the
 * body to libnotify as it is (shell/browser/notifications/linux/libnotify_notification.cc), and
 * notification servers with the `body-markup` capability (GNOME, KDE, Xfce, dunst…) read it as
 * markup: `<a href>`, `<img src>` and entities would act. Escaped, it reads as the text it is.
 * Windows writes it into the toast's XML with an escaping writer, and macOS takes plain text.
 */
export function notificationBody(text: string, platform: NodeJS.Platform): string {
  return platform === 'linux'
    ? text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
    : text;
}

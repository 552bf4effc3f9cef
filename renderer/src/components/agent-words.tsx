/**
 * What an agent wrote on a card (its message, its form's title and description), set apart as
 * its words: a line of the app's saying who asks, then the agent's text quoted under it.
 *
 * An agent may write anything, "Airlock — Sign in" included, so its words never take the
 * look or the role of the app's own headings: they are plain paragraphs in a quotation, the
 * same size as the text around them. Always React text, never HTML.
 */
import { useId } from 'react';
import './agent-words.css';

/** The agent's words on a card, under "`asker` asks:". */
export function AgentWords({
  asker,
  title,
  message,
  description,
}: {
  /** Who asks, as the card's head names them. */
  asker: string;
  /** The form's title, if the agent gave one. */
  title?: string;
  /** The agent's message: why it asks. */
  message: string;
  /** The form's description, if the agent gave one. */
  description?: string;
}) {
  const leadId = useId();
  return (
    <figure className="agent-words" aria-labelledby={leadId}>
      <figcaption id={leadId} className="agent-words-lead">
        {`${asker} asks:`}
      </figcaption>
      <blockquote className="agent-words-quote">
        {title ? <p className="agent-words-title">{title}</p> : null}
        {message ? <p className="agent-words-message">{message}</p> : null}
        {description ? <p className="agent-words-description">{description}</p> : null}
      </blockquote>
    </figure>
  );
}

/** A short text of the agent's inside a sentence of the app's (a permission's title), quoted. */
export function AgentQuote({ text, className }: { text: string; className?: string }) {
  return <q className={`agent-quote${className ? ` ${className}` : ''}`}>{text}</q>;
}

/**
 * An error's sentence and, closed under "Details", what lies behind it: the JSON-RPC code the
 * agent answered with, its raw data, the protocol method. A person reads the sentence; the
 * rest is there for whoever reports or debugs the failure.
 */
import './error-details.css';

/**
 * The sentence of a failure, with its `detail` (if any) under a closed "Details" disclosure.
 * The sentence alone is the alert: a screen reader announces what went wrong, not the code.
 */
export function ErrorDetails({ message, detail }: { message: string; detail?: string }) {
  return (
    <>
      <p className="error-sentence" role="alert">
        {message}
      </p>
      {detail ? (
        <details className="error-details">
          <summary>Details</summary>
          <p className="error-detail-text">{detail}</p>
        </details>
      ) : null}
    </>
  );
}

/**
 * The last lines an agent wrote to its error output before it stopped, closed under "Details":
 * what a person reports, not what they read first.
 */
export function LastLines({ lines }: { lines: readonly string[] }) {
  return lines.length ? (
    <details className="error-details">
      <summary>Details</summary>
      <pre className="stderr-tail" aria-label="The agent's last lines" tabIndex={0}>
        {lines.slice(-10).join('\n')}
      </pre>
    </details>
  ) : null;
}

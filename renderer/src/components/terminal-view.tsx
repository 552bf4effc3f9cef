/**
 * A terminal a tool call embeds: the command's output as it comes, its colours drawn (never its
 * escape codes), how it ended once it has (a stop reads "Stopped", not a failure), and a Stop
 * button while it runs.
 *
 * The output is React text in spans, one per styled piece (see state/ansi.ts): never HTML. It
 * scrolls inside its box, and follows its end as it grows until the user scrolls it up.
 */
import { CircleStop } from 'lucide-react';
import { createContext, useContext, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { CSSProperties } from 'react';
import { ansiSegments, type AnsiSegment } from '../state/ansi';
import type { TerminalView as View } from '../state/transcript';
import './terminal-view.css';

/** Stops a terminal of the shown session (`terminal:kill`); absent where nothing can be stopped. */
export const StopTerminal = createContext<((terminalId: string) => Promise<unknown>) | undefined>(
  undefined,
);

/**
 * How a command ended, in words: `tone` says how it reads (a stop is neutral, not a failure),
 * `detail` the signal behind an end nobody here asked for, kept under Details.
 */
export function exitText(exit: NonNullable<View['exitStatus']>): {
  text: string;
  tone: 'ok' | 'neutral' | 'failed';
  detail?: string;
} {
  switch (exit.stoppedBy) {
    case 'user':
      return { text: 'Stopped', tone: 'neutral' };
    case 'agent':
      return { text: 'Stopped by the agent', tone: 'neutral' };
    case 'airlock':
      return { text: 'Stopped when the session ended', tone: 'neutral' };
  }
  if (exit.signal) {
    return { text: 'Ended by the system', tone: 'failed', detail: `Signal ${exit.signal}` };
  }
  return {
    text: `Exited with code ${exit.exitCode ?? '?'}`,
    tone: exit.exitCode === 0 ? 'ok' : 'failed',
  };
}

/** How the command ended, with the signal, if any, under Details. */
function ExitStatus({ exit }: { exit: NonNullable<View['exitStatus']> }) {
  const { text, tone, detail } = exitText(exit);
  return (
    <>
      <span className={`terminal-exit terminal-exit-${tone}`} role="status">
        {tone === 'neutral' ? <CircleStop aria-hidden="true" size={14} /> : null}
        {text}
      </span>
      {detail ? (
        <details className="terminal-exit-details">
          <summary>Details</summary>
          <span>{detail}</span>
        </details>
      ) : null}
    </>
  );
}

function segmentClass(segment: AnsiSegment): string | undefined {
  const classes = [
    segment.fg ? `ansi-fg-${segment.fg}` : '',
    segment.bg ? `ansi-bg-${segment.bg}` : '',
    segment.bold ? 'ansi-bold' : '',
    segment.dim ? 'ansi-dim' : '',
    segment.italic ? 'ansi-italic' : '',
    segment.underline ? 'ansi-underline' : '',
  ].filter(Boolean);
  return classes.length ? classes.join(' ') : undefined;
}

function segmentStyle(segment: AnsiSegment): CSSProperties | undefined {
  if (!segment.fgRgb && !segment.bgRgb) {
    return undefined;
  }
  // Only `rgb(r, g, b)` built from checked numbers reaches a style (see ansi.ts).
  return {
    ...(segment.fgRgb ? { color: segment.fgRgb } : {}),
    ...(segment.bgRgb ? { backgroundColor: segment.bgRgb } : {}),
  };
}

/** The output, coloured. */
function Output({ output }: { output: string }) {
  const segments = useMemo(() => ansiSegments(output), [output]);
  return (
    <>
      {segments.map((segment, i) => {
        const className = segmentClass(segment);
        const style = segmentStyle(segment);
        return className || style ? (
          <span key={i} className={className} style={style}>
            {segment.text}
          </span>
        ) : (
          segment.text
        );
      })}
    </>
  );
}

/** One embedded terminal; `view` is absent until its first output arrives. */
export function TerminalView({ terminalId, view }: { terminalId: string; view?: View }) {
  const stop = useContext(StopTerminal);
  const [stopping, setStopping] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const box = useRef<HTMLPreElement>(null);
  /** Whether the box shows the end of the output, and so keeps showing it as it grows. */
  const atEnd = useRef(true);
  const output = view?.output ?? '';

  useLayoutEffect(() => {
    const element = box.current;
    if (element && atEnd.current) {
      element.scrollTop = element.scrollHeight;
    }
  }, [output]);

  const running = view !== undefined && view.exitStatus === undefined;
  const onStop = () => {
    if (!stop) {
      return;
    }
    setStopping(true);
    setError(undefined);
    stop(terminalId).catch((failure: unknown) => {
      setStopping(false);
      setError((failure as Error).message);
    });
  };

  return (
    <div className="terminal">
      {view?.truncated ? <p className="tool-label">Earlier output is not shown.</p> : null}
      <pre
        ref={box}
        className="terminal-output"
        tabIndex={0}
        aria-label="Command output"
        onScroll={(event) => {
          const element = event.currentTarget;
          atEnd.current = element.scrollHeight - element.scrollTop - element.clientHeight <= 1;
        }}
      >
        {view === undefined ? (
          <span className="terminal-waiting">Waiting for output…</span>
        ) : output ? (
          <Output output={output} />
        ) : (
          <span className="terminal-waiting">No output yet.</span>
        )}
      </pre>
      <div className="terminal-footer">
        {view?.exitStatus ? (
          <ExitStatus exit={view.exitStatus} />
        ) : running ? (
          <span className="terminal-running" role="status">
            Running…
          </span>
        ) : null}
        {running && stop ? (
          <button
            type="button"
            className="terminal-stop"
            aria-label="Stop the command (ends its process)"
            disabled={stopping}
            onClick={onStop}
          >
            {stopping ? 'Stopping…' : 'Stop'}
          </button>
        ) : null}
        {error ? (
          <span className="terminal-error" role="alert">
            {error}
          </span>
        ) : null}
      </div>
    </div>
  );
}

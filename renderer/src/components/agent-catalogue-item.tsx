/**
 * One agent of the registry's catalogue (agent-catalogue.tsx): its icon (an `<img>` of the
 * core's `data:` SVG, or a neutral square), name, version, description, authors, licence, how
 * it runs, its source (through the link consent), and Install, Update → or Remove; an install
 * under way shows its progress and Cancel, a failure its words.
 */
import { Check } from 'lucide-react';
import { useId } from 'react';
import { downloaded, type RegistryAgentView } from '../../../preload/shared/registry-view';
import { useLinkConsent } from './link-consent';

/** What is under way for one agent: its kind, and for a download, the bytes so far. */
export type Busy = { kind: 'install' | 'update' | 'remove'; received?: number; total?: number };

/** How the last action on an agent failed, in words; `cancelled` when the user stopped it. */
export type Outcome = { text: string; cancelled: boolean };

/** How the agent runs, in words. */
const RUNS_WITH = { binary: 'Binary', npx: 'npx (Node.js)', uvx: 'uvx (Python)' } as const;

/** One agent of the catalogue. */
export function CatalogueItem({
  agent,
  busy,
  error,
  onInstall,
  onUpdate,
  onRemove,
  onCancel,
}: {
  agent: RegistryAgentView;
  busy: Busy | undefined;
  error: Outcome | undefined;
  onInstall(): void;
  onUpdate(): void;
  onRemove(): void;
  onCancel(): void;
}) {
  const nameId = useId();
  const askToOpen = useLinkConsent();
  const installed = agent.installed;
  const downloading = busy && busy.kind !== 'remove';
  const repository = agent.repository;
  return (
    <li
      className={`catalogue-item${agent.available ? '' : ' unavailable'}`}
      aria-labelledby={nameId}
      tabIndex={-1}
      data-agent-id={agent.id}
    >
      {agent.iconUrl ? (
        <img className="catalogue-icon" src={agent.iconUrl} alt="" width={24} height={24} />
      ) : (
        <span className="catalogue-icon placeholder" aria-hidden="true" />
      )}
      <div className="catalogue-body">
        <div className="catalogue-title">
          <h3 id={nameId}>{agent.name}</h3>
          <span className="catalogue-version">{agent.version}</span>
        </div>
        <p className="catalogue-description">{agent.description}</p>
        <p className="catalogue-meta">
          {agent.authors.length > 0 ? <span>{agent.authors.join(', ')}</span> : null}
          {agent.license ? <span>{agent.license}</span> : null}
          <span>{RUNS_WITH[agent.distribution]}</span>
          {repository && askToOpen ? (
            <button
              type="button"
              className="catalogue-link"
              aria-label={`Source of ${agent.name}`}
              onClick={(event) =>
                askToOpen(repository, `Source of ${agent.name}`, event.currentTarget)
              }
            >
              Source
            </button>
          ) : null}
        </p>
        {agent.available ? null : (
          <p className="catalogue-unavailable" title={agent.unavailableReason}>
            Not available for this platform
          </p>
        )}
        {downloading ? (
          <div className="catalogue-progress">
            {busy.total ? (
              <progress
                max={busy.total}
                value={busy.received ?? 0}
                aria-label={`Installing ${agent.name}`}
              />
            ) : (
              <progress aria-label={`Installing ${agent.name}`} />
            )}
            <span className="catalogue-progress-text">
              {busy.received === undefined
                ? busy.kind === 'update'
                  ? 'Updating…'
                  : 'Installing…'
                : downloaded(busy.received, busy.total)}
            </span>
          </div>
        ) : null}
        {error?.cancelled ? (
          <p className="catalogue-note" role="status">
            {error.text}
          </p>
        ) : error ? (
          <p className="catalogue-error" role="alert">
            {error.text}
          </p>
        ) : null}
      </div>
      <div className="catalogue-actions">
        {downloading ? (
          <button type="button" aria-label={`Cancel installing ${agent.name}`} onClick={onCancel}>
            Cancel
          </button>
        ) : installed ? (
          <>
            {agent.updateAvailable ? (
              <button
                type="button"
                className="primary"
                aria-label={`Update ${agent.name} from ${installed.version} to ${agent.version}`}
                disabled={busy !== undefined}
                onClick={onUpdate}
              >
                Update {installed.version} → {agent.version}
              </button>
            ) : (
              <span className="catalogue-installed">
                <Check aria-hidden="true" size={14} /> Installed
              </span>
            )}
            <button
              type="button"
              aria-label={`Remove ${agent.name}`}
              disabled={busy !== undefined}
              onClick={onRemove}
            >
              {busy?.kind === 'remove' ? 'Removing…' : 'Remove'}
            </button>
          </>
        ) : (
          <button
            type="button"
            className="catalogue-install"
            aria-label={`Install ${agent.name}`}
            disabled={!agent.available || busy !== undefined}
            onClick={onInstall}
          >
            Install
          </button>
        )}
      </div>
    </li>
  );
}

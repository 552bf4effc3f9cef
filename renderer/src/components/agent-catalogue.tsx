/**
 * The ACP registry's catalogue: every agent the registry lists, searchable, each with its icon,
 * description, authors, licence, how it runs, and Install, Update or Remove.
 *
 * It shows the copy the core has at once (`registry:list`), then fetches the registry anew
 * (`registry:refresh`); when that fails, a line at the top says why, with Retry. An install
 * shows its progress (`registry:onDidProgress`) with Cancel; once installed, `onInstalled`
 * takes the user on to a session with the agent. Everything an agent's entry says is shown as
 * text; its icon only in an `<img>`; its repository opens only through the link consent.
 *
 * Beside the search, as in Zed: All / Installed / Not installed (radio buttons drawn as one
 * segmented control; the arrow keys move between them).
 *
 * Keyboard: the search field has the focus on open, ↓ goes to the first agent, ↑/↓ move
 * between agents, Tab through each one's buttons, Esc clears the search, then closes.
 */
import { Search } from 'lucide-react';
import {
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import type { AirlockApi } from '../../../preload/shared/contract';
import type {
  RegistryAgentView,
  RegistryListing,
  RegistryProgress,
} from '../../../preload/shared/registry-view';
import { matches } from '../state/catalogue-search';
import { CatalogueItem, type Busy, type Outcome } from './agent-catalogue-item';
import './agent-catalogue.css';

/** Which agents the catalogue lists: all, those with a settings entry, or those without. */
type Filter = 'all' | 'installed' | 'not-installed';

const FILTERS: { value: Filter; text: string }[] = [
  { value: 'all', text: 'All' },
  { value: 'installed', text: 'Installed' },
  { value: 'not-installed', text: 'Not installed' },
];

/** Whether `agent` is listed under `filter`. */
function shownUnder(agent: RegistryAgentView, filter: Filter): boolean {
  return filter === 'all' || (agent.installed !== undefined) === (filter === 'installed');
}

type Props = {
  api: AirlockApi;
  /** Back to where the catalogue was opened. */
  onClose(): void;
  /** An agent was installed: go on to a session with it. */
  onInstalled(agentName: string): void;
  /** Opens the form for an agent the registry does not list. */
  onCustom?(): void;
};

/** The catalogue view. */
export function AgentCatalogue({ api, onClose, onInstalled, onCustom }: Props) {
  const [listing, setListing] = useState<RegistryListing | undefined>();
  const [loadError, setLoadError] = useState<string | undefined>();
  const [refreshing, setRefreshing] = useState(false);
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState<Filter>('all');
  const [busy, setBusy] = useState<Record<string, Busy>>({});
  const [errors, setErrors] = useState<Record<string, Outcome>>({});
  /** The agents whose install the user cancelled: its end is news, not a failure. */
  const cancelling = useRef(new Set<string>());
  const [notice, setNotice] = useState('');
  const search = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const headingId = useId();
  const filterName = useId();

  const refresh = useCallback(() => {
    setRefreshing(true);
    return api
      .invoke('registry:refresh', {})
      .then(
        (answer) => {
          setListing(answer);
          setLoadError(undefined);
        },
        (error: unknown) => setLoadError((error as Error).message),
      )
      .finally(() => setRefreshing(false));
  }, [api]);

  useEffect(() => {
    search.current?.focus();
    let live = true;
    api.invoke('registry:list', {}).then(
      (answer) => live && setListing((current) => current ?? answer),
      () => undefined,
    );
    void refresh();
    return () => {
      live = false;
    };
  }, [api, refresh]);

  /** Reads what is installed again, keeping the refresh's word on the registry. */
  const relist = useCallback(async () => {
    const answer = await api.invoke('registry:list', {}).catch(() => undefined);
    if (answer) {
      setListing((current) => (current ? { ...answer, problem: current.problem } : answer));
    }
  }, [api]);
  // An agent added or removed elsewhere (the settings file by hand, the settings view).
  useEffect(() => api.on('app:onDidChangeAgents', () => void relist()), [api, relist]);

  /** The agent whose row takes the focus once the list shows its new state (if none has it). */
  const focusRow = useRef<string | undefined>(undefined);
  useEffect(() => {
    const id = focusRow.current;
    const active = document.activeElement;
    if (id === undefined || (active !== null && active !== document.body)) {
      return;
    }
    focusRow.current = undefined;
    list.current
      ?.querySelector<HTMLElement>(`[data-agent-id="${CSS.escape(id)}"] .catalogue-actions button`)
      ?.focus();
  }, [listing]);

  /** The agents whose install, update or removal this view started (and waits on itself). */
  const own = useRef(new Set<string>());
  useEffect(
    () =>
      api.on('registry:onDidProgress', (progress: RegistryProgress) => {
        const { id } = progress;
        const ended = progress.done === true || progress.error !== undefined;
        if (ended && !own.current.has(id)) {
          // An install a session started (an agent's first start): shown until it ends.
          setBusy(({ [id]: _ended, ...rest }) => rest);
          void relist();
          return;
        }
        setBusy((current) => {
          const now = current[id] ?? (own.current.has(id) ? undefined : { kind: 'install' });
          if (!now || ended) {
            return current;
          }
          return {
            ...current,
            [id]: { ...now, received: progress.received, total: progress.total },
          };
        });
      }),
    [api, relist],
  );

  const shown = useMemo(
    () =>
      (listing?.agents ?? []).filter((agent) => shownUnder(agent, filter) && matches(agent, query)),
    [listing, query, filter],
  );

  const run = async (agent: RegistryAgentView, kind: Busy['kind']) => {
    own.current.add(agent.id);
    setBusy((current) => ({ ...current, [agent.id]: { kind } }));
    setErrors(({ [agent.id]: _dropped, ...rest }) => rest);
    try {
      if (kind === 'install') {
        const { agentName } = await api.invoke('registry:install', { id: agent.id });
        setNotice(`Installed ${agent.name}.`);
        onInstalled(agentName);
      } else if (kind === 'update') {
        await api.invoke('registry:update', { id: agent.id });
        setNotice(`Updated ${agent.name} to ${agent.version}.`);
      } else {
        await api.invoke('registry:remove', { id: agent.id });
        setNotice(`Removed ${agent.name}.`);
      }
    } catch (error) {
      const outcome = {
        text: (error as Error).message,
        cancelled: cancelling.current.has(agent.id),
      };
      setErrors((current) => ({ ...current, [agent.id]: outcome }));
    } finally {
      cancelling.current.delete(agent.id);
      own.current.delete(agent.id);
      setBusy(({ [agent.id]: _done, ...rest }) => rest);
    }
    // The button pressed may be gone (Remove, Update): the focus goes to the row's first one.
    focusRow.current = agent.id;
    await relist();
  };

  /** ↑/↓ between the agents' first buttons, ↓ from the search field; Esc closes. */
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape' && !event.defaultPrevented) {
      event.preventDefault();
      // A search typed is cleared first; Esc again closes.
      if (event.target === search.current && query !== '') {
        setQuery('');
      } else {
        onClose();
      }
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') {
      return;
    }
    const rows = [...(list.current?.querySelectorAll<HTMLElement>('.catalogue-item') ?? [])];
    const target = event.target as HTMLElement;
    const at = rows.findIndex((row) => row.contains(target));
    const next =
      target === search.current
        ? event.key === 'ArrowDown'
          ? 0
          : -1
        : at + (event.key === 'ArrowDown' ? 1 : -1);
    if (at < 0 && target !== search.current) {
      return;
    }
    event.preventDefault();
    if (next < 0) {
      search.current?.focus();
      return;
    }
    rows[Math.min(next, rows.length - 1)]?.focus();
  };

  return (
    <main className="catalogue" aria-labelledby={headingId} onKeyDown={onKeyDown}>
      <header className="catalogue-header">
        <h2 id={headingId}>Add an agent</h2>
        <div className="catalogue-header-actions">
          {onCustom ? (
            <button type="button" onClick={onCustom}>
              Custom agent…
            </button>
          ) : null}
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
      </header>
      <p className="catalogue-intro">
        Agents from the ACP registry. Installing one adds it to your settings file.
      </p>
      <div className="catalogue-tools">
        <div className="catalogue-search">
          <Search aria-hidden="true" size={16} />
          <input
            ref={search}
            type="search"
            aria-label="Search agents"
            placeholder="Search by name, author or description"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            spellCheck={false}
            autoComplete="off"
          />
        </div>
        <fieldset className="catalogue-filter">
          <legend className="visually-hidden">Show</legend>
          {FILTERS.map(({ value, text }) => (
            <label key={value}>
              <input
                type="radio"
                name={filterName}
                value={value}
                checked={filter === value}
                onChange={() => setFilter(value)}
              />
              <span>{text}</span>
            </label>
          ))}
        </fieldset>
      </div>
      {listing?.problem ? (
        <div className="catalogue-problem" role="status">
          <p>{listing.problem}</p>
          <button type="button" onClick={() => void refresh()} disabled={refreshing}>
            {refreshing ? 'Retrying…' : 'Retry'}
          </button>
        </div>
      ) : null}
      {loadError ? (
        <div className="catalogue-problem" role="alert">
          <p>Could not read the registry: {loadError}</p>
          <button type="button" onClick={() => void refresh()} disabled={refreshing}>
            Retry
          </button>
        </div>
      ) : null}
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {listing === undefined ? (
        loadError ? null : (
          <p className="catalogue-empty">Loading the registry…</p>
        )
      ) : shown.length === 0 ? (
        <p className="catalogue-empty">{emptyText(query, filter)}</p>
      ) : (
        <ul ref={list} className="catalogue-list" aria-label="Agents in the registry">
          {shown.map((agent) => (
            <CatalogueItem
              key={agent.id}
              agent={agent}
              busy={busy[agent.id]}
              error={errors[agent.id]}
              onInstall={() => void run(agent, 'install')}
              onUpdate={() => void run(agent, 'update')}
              onRemove={() => void run(agent, 'remove')}
              onCancel={() => {
                cancelling.current.add(agent.id);
                void api.invoke('registry:cancelInstall', { id: agent.id });
              }}
            />
          ))}
        </ul>
      )}
      {refreshing && listing ? (
        <p className="catalogue-refreshing" aria-live="polite">
          Checking the registry for changes…
        </p>
      ) : null}
    </main>
  );
}

/** What the list says when nothing shows under the search and the filter. */
function emptyText(query: string, filter: Filter): string {
  const some =
    filter === 'installed'
      ? 'installed agent'
      : filter === 'not-installed'
        ? 'agent left to install'
        : 'agent';
  if (query.trim() !== '') {
    return `No ${some} matches “${query}”.`;
  }
  return filter === 'installed'
    ? 'No agent from the registry is installed yet.'
    : filter === 'not-installed'
      ? 'Every agent of the registry is installed.'
      : 'The registry lists no agents.';
}

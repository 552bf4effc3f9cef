/**
 * Agent markdown, rendered safely: raw HTML is dropped, images are shown as text (never loaded),
 * and nothing the agent wrote becomes markup.
 *
 * A link is never followed on its own: it is a button that shows its text and address, and a
 * click asks for consent first (link-consent.tsx: the same analysis as URL mode), so no href
 * ever reaches the DOM. Code blocks get a Copy button.
 */
import './markdown.css';
import { memo, type ReactNode } from 'react';
import type { Root } from 'mdast';
import ReactMarkdown, { type Components, type Options } from 'react-markdown';
import { CopyButton } from './copy-button';
import { useLinkConsent } from './link-consent';
import { markdownBlocks } from './markdown-blocks';

/** The longest language name a code block shows, in characters. */
const LANGUAGE_CHARS = 32;

function childrenText(children: ReactNode): string {
  if (typeof children === 'string' || typeof children === 'number') {
    return String(children);
  }
  if (Array.isArray(children)) {
    return children.map(childrenText).join('');
  }
  return '';
}

/** The syntax tree node react-markdown hands a component (hast), as far as it is read here. */
type HastNode = {
  type: string;
  value?: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
};

/** The text of a syntax tree node: a code block's source, exactly as the agent wrote it. */
export function nodeText(node: HastNode | undefined): string {
  if (!node) {
    return '';
  }
  if (node.type === 'text') {
    return node.value ?? '';
  }
  return (node.children ?? []).map(nodeText).join('');
}

/** The language a fenced code block names (```ts), if it names one. */
function codeLanguage(node: HastNode | undefined): string | undefined {
  const code = node?.children?.find((child) => child.tagName === 'code');
  const classes = code?.properties?.className;
  const language = Array.isArray(classes)
    ? classes.find(
        (name): name is string => typeof name === 'string' && name.startsWith('language-'),
      )
    : undefined;
  return language
    ? language.slice('language-'.length, 'language-'.length + LANGUAGE_CHARS)
    : undefined;
}

/** A link: its text and address, as a button that asks for consent before anything opens. */
function LinkButton({ href, children }: { href: string; children: ReactNode }) {
  const ask = useLinkConsent();
  const label = childrenText(children);
  const address = href && href !== label ? <span className="md-link-url"> ({href})</span> : null;
  if (!ask) {
    return (
      <span className="md-link" title={href}>
        {children}
        {address}
      </span>
    );
  }
  return (
    <>
      <button
        type="button"
        className="md-link"
        aria-haspopup="dialog"
        title={href}
        onClick={(event) => ask(href, label, event.currentTarget)}
      >
        {children}
      </button>
      {address}
    </>
  );
}

/** A fenced or indented code block: its language, a Copy button, and the code. */
function CodeBlock({ node, children }: { node: HastNode | undefined; children: ReactNode }) {
  const language = codeLanguage(node);
  return (
    <figure className="md-code" aria-label={language ? `Code, ${language}` : 'Code'}>
      <div className="md-code-bar">
        <span className="md-code-language">{language ?? 'code'}</span>
        <CopyButton
          text={() => nodeText(node).replace(/\n$/, '')}
          what="code"
          className="md-code-copy"
        />
      </div>
      {/* Long lines scroll sideways, so the block takes the focus to scroll by keyboard. */}
      <pre tabIndex={0}>{children}</pre>
    </figure>
  );
}

const components: Components = {
  a: ({ children, href }) => <LinkButton href={href ?? ''}>{children}</LinkButton>,
  // An image is never fetched: its description and address are shown instead.
  img: ({ alt, src }) => (
    <span className="md-image">
      [image{alt ? `: ${alt}` : ''}]{typeof src === 'string' && src ? ` (${src})` : ''}
    </span>
  ),
  pre: ({ node, children }) => (
    <CodeBlock node={node as HastNode | undefined}>{children}</CodeBlock>
  ),
};

type PluggableList = NonNullable<Options['remarkPlugins']>;

/** Makes the first list (`first`) or the last (`last`) of a block loose. */
function looseLists(first: boolean, last: boolean): PluggableList {
  const plugin = () => (tree: Root) => {
    const lists = [first ? tree.children[0] : undefined, last ? tree.children.at(-1) : undefined];
    for (const node of lists) {
      if (node?.type === 'list') {
        node.spread = true;
      }
    }
  };
  return [plugin];
}

const LOOSE: Record<string, PluggableList> = {
  none: [],
  first: looseLists(true, false),
  last: looseLists(false, true),
  both: looseLists(true, true),
};

const urlTransform = (url: string) => url;

/**
 * Markdown parsed and rendered whole, again only when its text changes: one block of a segment
 * (or, given a whole segment, what its blocks must add up to).
 */
export const MarkdownBlock = memo(function MarkdownBlock({
  text,
  listBefore,
  listAfter,
}: {
  text: string;
  listBefore: boolean;
  listAfter: boolean;
}) {
  const loose = listBefore ? (listAfter ? 'both' : 'first') : listAfter ? 'last' : 'none';
  return (
    <ReactMarkdown
      components={components}
      remarkPlugins={LOOSE[loose]}
      skipHtml
      urlTransform={urlTransform}
    >
      {text}
    </ReactMarkdown>
  );
});

/**
 * Renders one markdown segment, a block at a time (markdown-blocks.ts): as a message streams in,
 * only its last block is parsed again. `listBefore` and `listAfter` say that its first or last
 * list goes on from the segment before or in the next one, and so is loose (list-join.ts).
 */
export const Markdown = memo(function Markdown({
  text,
  listBefore = false,
  listAfter = false,
}: {
  text: string;
  listBefore?: boolean;
  listAfter?: boolean;
}) {
  const blocks = markdownBlocks(text);
  return (
    <>
      {blocks.map((block, index) => (
        // A block keeps its place: only the last one ever changes as text arrives.
        <MarkdownBlock
          key={index}
          text={block}
          listBefore={listBefore && index === 0}
          listAfter={listAfter && index === blocks.length - 1}
        />
      ))}
    </>
  );
});

/**
 * Markdown of the kinds agents write, parsed once while the page is idle (see `warmMarkdown`).
 */
const WARM_TEXT = [
  '# Heading',
  '',
  'A paragraph with *emphasis*, **strong**, `code`, a [link](https://example.com) and an',
  'image ![alt](https://example.com/a.png).',
  '',
  '1. One item',
  '2. Another, with a nested list:',
  '   - nested',
  '',
  '> A quote',
  '',
  '```ts',
  'const answer = 42;',
  '```',
  '',
  '---',
].join('\n');

/**
 * Parses a sample once, and throws the result away: the first reply of a fresh page is then not
 * the one that pays for compiling the parser (its code runs unoptimised on a first call, and is
 * compiled as it runs). Done when the page is first idle after this script loads.
 */
export function warmMarkdown(): void {
  ReactMarkdown({ children: WARM_TEXT, components, skipHtml: true, urlTransform });
}

if (typeof requestIdleCallback === 'function') {
  requestIdleCallback(warmMarkdown, { timeout: 5_000 });
}

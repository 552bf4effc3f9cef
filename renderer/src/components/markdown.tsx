/**
 * Agent markdown, rendered safely: raw HTML is dropped, links and images are shown as text
 * (never followed or loaded), and nothing the agent wrote becomes markup.
 */
import { memo, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';

function childrenText(children: ReactNode): string {
  if (typeof children === 'string' || typeof children === 'number') {
    return String(children);
  }
  if (Array.isArray(children)) {
    return children.map(childrenText).join('');
  }
  return '';
}

const components: Components = {
  // A link shows its text and its address; it is not clickable.
  a: ({ children, href }) => {
    const label = childrenText(children);
    return (
      <span className="md-link" title={href}>
        {children}
        {href && href !== label ? <span className="md-link-url"> ({href})</span> : null}
      </span>
    );
  },
  // An image is never fetched: its description and address are shown instead.
  img: ({ alt, src }) => (
    <span className="md-image">
      [image{alt ? `: ${alt}` : ''}]{typeof src === 'string' && src ? ` (${src})` : ''}
    </span>
  ),
};

/** Renders one markdown segment. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <ReactMarkdown components={components} skipHtml urlTransform={(url) => url}>
      {text}
    </ReactMarkdown>
  );
});

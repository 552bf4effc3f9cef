import fc from 'fast-check';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown, MarkdownBlock } from '../../../renderer/src/components/markdown.js';
import { markdownBlocks } from '../../../renderer/src/components/markdown-blocks.js';

/** The HTML of `text` rendered a block at a time, as the transcript does. */
const split = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));
/** The HTML of `text` parsed whole. */
const whole = (text: string) =>
  renderToStaticMarkup(createElement(MarkdownBlock, { text, listBefore: false, listAfter: false }));
// Between two blocks (and around one that is dropped, raw HTML), the parse of the whole has line
// breaks, which are not rendered.
const same = (html: string) => html.replace(/>\n+</g, '><').replace(/^\n+|\n+$/g, '');

/** Lines that open, close or continue the constructs a cut could break. */
const LINES = [
  '',
  '',
  '',
  'Some text',
  'more *emphasis',
  'closed* here',
  '- item',
  '* star item',
  '+ plus item',
  '1. one',
  '2) two',
  '10. ten',
  '  continued in an item',
  '   three spaces',
  '    indented code',
  '\tafter a tab',
  '```',
  '```js',
  '````',
  '~~~',
  '  ```',
  '   ~~~',
  '    ```',
  '``` a`b',
  '> quoted',
  '> - quoted item',
  '>',
  '<!-- a comment',
  'ends -->',
  '<div>',
  '</div>',
  '<DIV class="x">',
  '<p/>',
  '<custom a="1">',
  '</custom>',
  '<span>text',
  '  <div>',
  '<script>',
  '</script>',
  '<?php',
  '?>',
  '<!DOCTYPE',
  '<![CDATA[',
  ']]>',
  '# Heading',
  '===',
  '---',
  '* * *',
  '[a]: https://example.com',
  'a [link][a] and [b](https://example.com)',
  '![image](https://example.com/i.png)',
  '`code span',
  'span end`',
];

const markdown = fc
  .array(fc.constantFrom(...LINES), { maxLength: 30 })
  .map((lines) => lines.join('\n'));

describe('markdownBlocks', () => {
  it('gives back the whole text, in order', () => {
    fc.assert(
      fc.property(markdown, (text) => {
        expect(markdownBlocks(text).join('')).toBe(text);
      }),
    );
  });

  it('renders a text cut into blocks exactly as parsed whole', () => {
    fc.assert(
      fc.property(markdown, (text) => {
        expect(same(split(text))).toBe(same(whole(text)));
      }),
      { numRuns: 2_000 },
    );
    // Two thousand texts parsed twice each: seconds on a quiet machine, far more on a busy one.
  }, 120_000);

  it('passes over an HTML block that ends at a blank line, fences and all', () => {
    // The fence line belongs to the block `</div>` opens, so the fences after it pair up
    // differently: cutting before ```` would give two code blocks where there is one.
    expect(markdownBlocks('</div>\n```\n\n  ```\n\n````')).toEqual([
      '</div>\n```\n\n  ```\n\n````',
    ]);
    expect(markdownBlocks('<custom>\n```\n\nafter')).toEqual(['<custom>\n```\n\n', 'after']);
    expect(markdownBlocks('<span>text\n```\n\nin code')).toEqual(['<span>text\n```\n\nin code']);
  });

  it('makes no cut after a lone tag that may go on a paragraph', () => {
    expect(markdownBlocks('Text\n<custom>\n\nmore\n\nand more')).toEqual([
      'Text\n<custom>\n\nmore\n\nand more',
    ]);
  });

  it('makes no cut after a fence four spaces into a list item, which opens there', () => {
    const text = '1. one\n    ```\n   three spaces\n\n<custom a="1">';
    expect(markdownBlocks(text)).toEqual([text]);
    expect(same(split(text))).toBe(same(whole(text)));
    // Outside a list, four spaces in is indented code, and the cut after it stays.
    expect(markdownBlocks('one\n\n    ```\n\nafter')).toEqual(['one\n\n    ```\n\n', 'after']);
  });

  it('cuts between paragraphs, code blocks and headings', () => {
    expect(markdownBlocks('One\n\n```js\nx\n\ny\n```\n\n# Two\n\nThree')).toEqual([
      'One\n\n',
      '```js\nx\n\ny\n```\n\n',
      '# Two\n\n',
      'Three',
    ]);
  });

  it('never cuts inside a fence, even across blank lines and shorter or other fences', () => {
    const text = '````\na\n\n```\nb\n\n~~~\nc\n````\n\nafter';
    expect(markdownBlocks(text)).toEqual(['````\na\n\n```\nb\n\n~~~\nc\n````\n\n', 'after']);
  });

  it('keeps a loose list whole: items after a blank line go on with it', () => {
    expect(markdownBlocks('1. a\n\n2. b\n\n- c\n\nafter')).toEqual([
      '1. a\n\n2. b\n\n- c\n\n',
      'after',
    ]);
  });

  it('keeps an item’s further paragraphs with it', () => {
    expect(markdownBlocks('- a\n\n  more of a\n\nafter')).toEqual([
      '- a\n\n  more of a\n\n',
      'after',
    ]);
  });

  it('makes no more cuts after a fence indented by up to three spaces (in an item, or not)', () => {
    expect(markdownBlocks('x\n\ny\n  ```\n  b\n\nc\n\nd')).toEqual([
      'x\n\n',
      'y\n  ```\n  b\n\nc\n\nd',
    ]);
  });

  it('does not cut inside an HTML comment or script, which blank lines do not end', () => {
    expect(markdownBlocks('<!--\n\nhidden\n\n-->\n\nshown')).toEqual([
      '<!--\n\nhidden\n\n-->\n\n',
      'shown',
    ]);
    expect(markdownBlocks('<script>\n\nx\n</script>\n\ny')).toEqual([
      '<script>\n\nx\n</script>\n\n',
      'y',
    ]);
  });

  it('cuts exactly where a block ends, and nowhere a block may go on', () => {
    const cases: [string, string[]][] = [
      // The empty text is one empty block.
      ['', ['']],
      // A line of spaces is blank.
      ['a\n  \nb', ['a\n  \n', 'b']],
      // A list goes on after a blank line with an item of ten, or an empty item.
      ['1. a\n\n10. b', ['1. a\n\n10. b']],
      ['- a\n\n-', ['- a\n\n-']],
      // A dash inside a line starts no item.
      ['a\n\nb - c', ['a\n\n', 'b - c']],
      // A fence closes with at most three spaces before it, and nothing but spaces after it.
      ['```\na\n   ```\n\nafter', ['```\na\n   ```\n\n', 'after']],
      ['```\na\n```  \n\nafter', ['```\na\n```  \n\n', 'after']],
      ['```\na\n    ```\n\nb\n```\n\nafter', ['```\na\n    ```\n\nb\n```\n\n', 'after']],
      ['```\na\n``` js\n\nb\n```\n\nafter', ['```\na\n``` js\n\nb\n```\n\n', 'after']],
      // A backtick fence has no backtick after it; a tilde fence may.
      ['``` a`b\n\nafter', ['``` a`b\n\n', 'after']],
      ['~~~ a`b\n\nafter', ['~~~ a`b\n\nafter']],
      // Backticks or tildes that open no fence: in a line, or a single tilde.
      ['a ```\n\nafter', ['a ```\n\n', 'after']],
      ['~ x\n\nafter', ['~ x\n\n', 'after']],
      // After an item, four spaces in is indented code again once the list has ended.
      ['- a\n\nb\n\n    ```\n\nafter', ['- a\n\n', 'b\n\n    ```\n\n', 'after']],
      // An HTML block is one space in: no telling where it is, so no more cuts.
      ['a\n\n <div>\n\nafter', ['a\n\n <div>\n\nafter']],
      // Four spaces in, a comment or a tag is code, not HTML.
      ['a\n\n    <!--\n\nafter', ['a\n\n    <!--\n\n', 'after']],
      ['a\n\n    <div>\nx\n```\n\nafter', ['a\n\n    <div>\nx\n```\n\nafter']],
      // HTML that starts inside a line opens no block.
      ['a <!-- b\n\nafter', ['a <!-- b\n\n', 'after']],
      ['a <?php\n\nafter', ['a <?php\n\n', 'after']],
      ['a <!X\n\nafter', ['a <!X\n\n', 'after']],
      ['a <![CDATA[\n\nafter', ['a <![CDATA[\n\n', 'after']],
      ['a <script\n\nafter', ['a <script\n\n', 'after']],
      ['a <div>\n```\n\nafter', ['a <div>\n```\n\nafter']],
      // A script block opens with its name alone or followed by a space, and runs to its end.
      ['<script\n\nhidden\n</script>\n\nafter', ['<script\n\nhidden\n</script>\n\n', 'after']],
      [
        '<script x>\n\nhidden\n</script>\n\nafter',
        ['<script x>\n\nhidden\n</script>\n\n', 'after'],
      ],
      // An HTML block runs to a blank line, fences and all, from its second line on too.
      ['<div>\na\n```\n\nafter', ['<div>\na\n```\n\n', 'after']],
      ['<div>\na\n  \nafter', ['<div>\na\n  \n', 'after']],
    ];
    for (const [text, blocks] of cases) {
      expect(markdownBlocks(text), JSON.stringify(text)).toEqual(blocks);
      // And so it renders as it does parsed whole.
      expect(same(split(text)), JSON.stringify(text)).toBe(same(whole(text)));
    }
  });

  it('opens an HTML block at a block tag, or a tag alone on its line, and not at others', () => {
    /** Whether `line` opens an HTML block that runs to the blank line, over a fence. */
    const opensBlock = (line: string) => markdownBlocks(`${line}\na\n\`\`\`\n\nafter`).length === 2;
    const blocks = [
      '<DIV> x',
      '<div> y',
      '<div x> y',
      '<div',
      '<custom a="12">',
      "<custom a='12'>",
      '<custom a=12>',
      '<custom hidden>',
      '<custom data-x="1">',
      '<custom  a="1">',
      '<custom a  =  "1">',
      '<custom a="12" >',
      '<custom/>',
      '</custom>',
      '</custom  >',
    ];
    const paragraphs = ['<custom> <b>', '<div=x y', '<custom a=>', '<span>text', '</custom x>'];
    for (const line of blocks) {
      expect(opensBlock(line), line).toBe(true);
    }
    for (const line of paragraphs) {
      expect(opensBlock(line), line).toBe(false);
    }
  });

  it('does not cut a text with a link reference definition, which earlier links use', () => {
    const text = 'a [link][a]\n\n[a]: https://example.com';
    expect(markdownBlocks(text)).toEqual([text]);
  });
});

describe('Markdown', () => {
  it('renders a list that goes on across a cut as loose, at both ends', () => {
    const html = renderToStaticMarkup(
      createElement(Markdown, { text: '7. a\n\nAfter\n\n8. b', listBefore: true, listAfter: true }),
    );
    expect(html).toContain('<li>\n<p>a</p>\n</li>');
    expect(html).toContain('<li>\n<p>b</p>\n</li>');
    expect(html).toContain('<p>After</p>');
  });

  it('keeps a list tight when it does not go on across a cut', () => {
    const html = renderToStaticMarkup(createElement(Markdown, { text: '7. a' }));
    expect(html).toBe('<ol start="7">\n<li>a</li>\n</ol>');
  });
});

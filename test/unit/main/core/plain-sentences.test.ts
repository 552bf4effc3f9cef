/**
 * The sentences the core writes for a person (a {@link UserFacingError}'s message, a tab's
 * `error`, a history `note`, a transcript line's `text`) name no protocol method and no raw
 * capability key: those go under Details. Read from the source, so a sentence added later is
 * held to it too.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const CORE = fileURLToPath(new URL('../../../../main/core', import.meta.url));

/** A protocol method (`session/new`, `fs/read_text_file`, `initialize`…) or a capability key. */
const INTERNAL =
  /\b(?:session|fs|terminal|elicitation)\/[a-z_]+|\binitialize\b|\bauthenticate\b|\b[a-z]+Capabilities\b|\bloadSession\b/;

/** Properties of the objects the core hands the UI whose value is a sentence. */
const SENTENCE_KEYS = new Set(['error', 'note', 'text', 'message', 'reason']);

/** Functions of the core that take a sentence, and which argument it is (the next is Details). */
const SENTENCE_TAKERS = new Map([
  ['failed', 0],
  ['leaveOut', 1],
  ['resolveRestart', 1],
]);

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The literal text of a string or template (its fixed parts), else undefined. */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
    return node.text;
  }
  if (ts.isTemplateExpression(node)) {
    return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('…');
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    return `${literalText(node.left) ?? '…'}${literalText(node.right) ?? '…'}`;
  }
  return undefined;
}

/** Every sentence the core writes for a person, with where it is. */
async function sentences(): Promise<{ where: string; text: string }[]> {
  const found: { where: string; text: string }[] = [];
  for (const file of await sourceFiles(CORE)) {
    const source = ts.createSourceFile(file, await readFile(file, 'utf8'), ts.ScriptTarget.Latest);
    const note = (node: ts.Node) => {
      const text = literalText(node);
      if (text !== undefined) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push({ where: `${relative(CORE, file)}:${line + 1}`, text });
      }
    };
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression)) {
        const [first, second] = node.arguments ?? [];
        if (node.expression.text === 'UserFacingError' && first) {
          note(first);
        } else if (node.expression.text === 'AgentRequestError' && second) {
          note(second);
        }
      }
      if (
        ts.isCallExpression(node) &&
        ts.isIdentifier(node.expression) &&
        SENTENCE_TAKERS.has(node.expression.text)
      ) {
        const sentence = node.arguments[SENTENCE_TAKERS.get(node.expression.text)!];
        if (sentence) {
          note(sentence);
        }
      }
      if (
        ts.isPropertyAssignment(node) &&
        ts.isIdentifier(node.name) &&
        SENTENCE_KEYS.has(node.name.text)
      ) {
        note(node.initializer);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('the sentences the core writes for a person', () => {
  it('name no protocol method and no capability key', async () => {
    const all = await sentences();
    // The scan finds them: the core writes dozens.
    expect(all.length).toBeGreaterThan(30);
    expect(all.filter(({ text }) => INTERNAL.test(text))).toEqual([]);
  });

  it('would catch one that did', () => {
    expect(INTERNAL.test('Demo did not answer session/new within 3 s')).toBe(true);
    expect(INTERNAL.test('… does not advertise HTTP MCP servers (mcpCapabilities.http)')).toBe(
      true,
    );
    expect(INTERNAL.test('Demo did not start a session within 3 s')).toBe(false);
  });
});

/** What the end-to-end accessibility checks share: axe's serious findings, in words. */
import type AxeBuilder from '@axe-core/playwright';

/** The serious and critical violations `builder` finds, each as `<what>: <rule>: <targets>`. */
export async function seriousViolations(builder: AxeBuilder, what: string): Promise<string[]> {
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${what}: ${violation.id}: ${violation.nodes.map((node) => node.target).join(' ')}`,
    );
}

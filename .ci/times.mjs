// Prints how long each vitest project took, from a JSON report (test-results/vitest.json by
// default): the wall time during which at least one of its files was running tests (file spans
// merged, so files run side by side count once), the sum of its files' spans, how many of its
// files ran at once at most, and its slowest files; then the wall time of the whole vitest run.
// A file's span runs from its first test's start to its last test's end.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const report = JSON.parse(readFileSync(process.argv[2] ?? 'test-results/vitest.json', 'utf8'));
const root = fileURLToPath(new URL('..', import.meta.url));
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** The project a file belongs to, by the folder vitest.config.ts gives each project. */
const projectOf = (file) => path.relative(root, file).split(path.sep)[1] ?? 'other';

/** Milliseconds covered by at least one of `spans` ([start, end] pairs). */
function covered(spans) {
  let total = 0;
  let reach = -Infinity;
  for (const [start, end] of [...spans].sort((a, b) => a[0] - b[0])) {
    if (end > reach) {
      total += end - Math.max(start, reach);
      reach = end;
    }
  }
  return total;
}

/** The most of `spans` that overlap at any moment. */
function mostAtOnce(spans) {
  const edges = spans.flatMap(([start, end]) => [
    [start, 1],
    [end, -1],
  ]);
  let now = 0;
  let most = 0;
  for (const [, step] of edges.sort((a, b) => a[0] - b[0] || a[1] - b[1])) {
    now += step;
    most = Math.max(most, now);
  }
  return most;
}

const byProject = new Map();
for (const file of report.testResults) {
  const project = projectOf(file.name);
  byProject.set(project, [...(byProject.get(project) ?? []), file]);
}
for (const [project, files] of [...byProject].sort()) {
  const spans = files.map((file) => [file.startTime, file.endTime]);
  const sum = spans.reduce((total, [start, end]) => total + end - start, 0);
  const first = Math.min(...spans.map(([start]) => start));
  const last = Math.max(...spans.map(([, end]) => end));
  console.log(
    `${project}: ${files.length} files, ${seconds(covered(spans))} running tests ` +
      `(from ${seconds(first - report.startTime)} to ${seconds(last - report.startTime)} ` +
      `into the run), ${seconds(sum)} summed over files, at most ${mostAtOnce(spans)} at once`,
  );
  const slowest = [...files].sort((a, b) => b.endTime - b.startTime - (a.endTime - a.startTime));
  for (const file of slowest.slice(0, 5)) {
    console.log(
      `  ${seconds(file.endTime - file.startTime).padStart(8)}  ${path.relative(root, file.name)}`,
    );
  }
}
const end = Math.max(...report.testResults.map((file) => file.endTime));
console.log(`vitest: ${seconds(end - report.startTime)} from start to the last test's end`);

/** Ordering of version folder names, by their numeric parts. */

/** The numeric parts of `1.2.3-beta.4` (`[1, 2, 3]`) and what follows them. */
function parts(version: string): { numbers: number[]; rest: string } {
  const match = /^(\d+)\.(\d+)\.(\d+)(.*)$/.exec(version);
  if (!match) {
    return { numbers: [], rest: version };
  }
  return { numbers: [Number(match[1]), Number(match[2]), Number(match[3])], rest: match[4] ?? '' };
}

/**
 * Compares two versions as semver does, for sorting: by major, minor and patch as numbers;
 * then a release (`1.2.3`) after its pre-releases (`1.2.3-rc.1`); then by the text after.
 */
export function compareVersions(a: string, b: string): number {
  const left = parts(a);
  const right = parts(b);
  for (let index = 0; index < 3; index += 1) {
    const difference = (left.numbers[index] ?? -1) - (right.numbers[index] ?? -1);
    if (difference !== 0) {
      return difference;
    }
  }
  const preLeft = left.rest.startsWith('-');
  const preRight = right.rest.startsWith('-');
  if (preLeft !== preRight) {
    return preLeft ? -1 : 1;
  }
  return left.rest.localeCompare(right.rest, 'en', { numeric: true });
}

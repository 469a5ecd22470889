import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TEXT_RULE_FAMILIES } from '../../src/bounces/text-rules/index.js';

/** The family names that docs/events.md lists under "The text, its strong phrases", in its order. */
function documentedFamilies(): string[] {
  const markdown = readFileSync(new URL('../../docs/events.md', import.meta.url), 'utf8');
  const lines = markdown.slice(markdown.indexOf('2. **The text, its strong phrases.**')).split('\n').slice(1);
  const names: string[] = [];
  for (const line of lines) {
    const item = /^ {3}\d+\. `([a-z-]+)`:/.exec(line);
    if (item) names.push(item[1]!);
    else if (names.length > 0 && !line.startsWith('      ')) break;
  }
  return names;
}

describe('the order of the text rules', () => {
  it('when docs/events.md lists the families of strong phrases, then it names every family of TEXT_RULE_FAMILIES in its order', () => {
    expect(documentedFamilies()).toEqual(TEXT_RULE_FAMILIES.map((family) => family.name));
  });

  it('when a family is named, then it is the file of src/bounces/text-rules/ that holds its rules', () => {
    for (const { name } of TEXT_RULE_FAMILIES) {
      expect(existsSync(new URL(`../../src/bounces/text-rules/${name}.ts`, import.meta.url)), name).toBe(true);
    }
  });
});

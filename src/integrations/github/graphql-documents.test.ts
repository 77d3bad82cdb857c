import { validate } from '@octokit/graphql-schema';
import { Kind, parse, visit } from 'graphql';
import { describe, expect, test } from 'vitest';
import { GRAPHQL_DOCUMENTS, MAX_PAGE_SIZE } from './graphql-documents.js';

const documents = Object.entries(GRAPHQL_DOCUMENTS);

describe("every GraphQL document is valid against GitHub's schema (@octokit/graphql-schema 15.26.1)", () => {
  test.each(documents)('%s validates with no errors', (_name, document) => {
    expect(validate(document).map((error) => error.message)).toEqual([]);
  });

  test.each(documents)('%s asks for rateLimit (the client stops above the floor)', (_name, document) => {
    if (document.trimStart().startsWith('mutation')) return;
    expect(document).toMatch(/rateLimit \{ cost remaining resetAt \}/);
  });

  test.each(documents)('%s uses literal page sizes of 1 to 100 only (the schema does not check them)', (_n, doc) => {
    const sizes: number[] = [];
    visit(parse(doc), {
      Argument(node) {
        if ((node.name.value === 'first' || node.name.value === 'last') && node.value.kind === Kind.INT) {
          sizes.push(Number(node.value.value));
        }
      },
    });
    for (const size of sizes) {
      expect(size).toBeGreaterThanOrEqual(1);
      expect(size).toBeLessThanOrEqual(MAX_PAGE_SIZE);
    }
  });

  test('a wrong field is caught, so the test above would fail on one', () => {
    expect(validate('query { viewer { bogusField } }').map((error) => error.message)).toEqual([
      'Cannot query field "bogusField" on type "User".',
    ]);
  });
});
